// What wait_for_change's text block says when people only decided on the
// agent's suggestions: the decisions, without an empty list of authors.

import assert from "node:assert/strict";
import { structured, textOf } from "../_mcp.ts";
import { connectWithDesk, decide } from "./_suggestions.ts";

Deno.test("wait_for_change woken only by a decision shows the decision in its text, and no empty authors list or diff", async () => {
  await using h = await connectWithDesk();
  structured(
    await h.call("append_to_document", { id: "w-decide", text: "one\n" }),
  );
  const made = structured(
    await h.call("append_to_document", {
      id: "w-decide",
      text: "two\n",
      suggest: true,
    }),
  );
  const waiting = h.call("wait_for_change", {
    id: "w-decide",
    since_revision: made.revision as number,
    timeout_seconds: 10,
  });
  const rejected = await decide(
    h,
    "w-decide",
    String(made.suggestion_id),
    "reject",
    "Bo",
  );
  assert.equal(rejected.status, 200);
  const heard = await waiting;
  assert.equal(structured(heard).changed, false);
  const text = textOf(heard);
  assert.match(text, /people decided on your suggestions:/);
  assert.match(text, /Decisions on your suggestions: \[\{"suggestion_id"/);
  assert.match(text, /"status":"rejected"/);
  assert.doesNotMatch(text, /\[\]/);
});
