import assert from "node:assert/strict";
import { errorOf, structured } from "../_mcp.ts";
import { connectWithDesk, decide } from "./_suggestions.ts";
import { startPadServer } from "../../src/testing/mod.ts";
import { agentProcess, SECRET } from "../pad_server/_agents.ts";

Deno.test("an undo suggested and accepted takes the edit off the agent's stack: the next undo goes further back", async () => {
  await using h = await connectWithDesk();
  for (const text of ["one\n", "two\n"]) {
    structured(await h.call("append_to_document", { id: "s-undo", text }));
  }
  const made = structured(
    await h.call("undo_last_edit", { id: "s-undo", suggest: true }),
  );
  assert.equal(made.status, "suggested");
  assert.equal(await h.text("s-undo"), "one\ntwo\n");
  const accepted = await decide(
    h,
    "s-undo",
    String(made.suggestion_id),
    "accept",
    "Ann",
  );
  assert.equal(accepted.status, 200);
  assert.equal(await h.text("s-undo"), "one\n");
  // The next undo goes for "one" (revision 1), not back to "two"; it
  // empties the pad, so it asks first.
  const asked = structured(await h.call("undo_last_edit", { id: "s-undo" }));
  assert.equal(asked.status, "confirmation_required");
  assert.match(String(asked.message), /Undo your edit of revision 1 on pad/);
  const undone = structured(
    await h.call("undo_last_edit", {
      id: "s-undo",
      confirm_token: asked.confirm_token,
    }),
  );
  assert.equal(undone.undone_revision, 1);
  assert.equal(undone.remaining, 0);
  assert.equal(await h.text("s-undo"), "");
});

Deno.test("an undo suggested by an agent process and accepted on the pad server that keeps suggestions goes further back at the next undo", async () => {
  await using pads = await startPadServer({ agentSecret: SECRET });
  await using agent = await agentProcess(pads.url);
  for (const text of ["one\n", "two\n"]) {
    structured(await agent.call("append_to_document", { id: "r-undo", text }));
  }
  const made = structured(
    await agent.call("undo_last_edit", { id: "r-undo", suggest: true }),
  );
  assert.equal(made.status, "suggested");
  const waiting = agent.call("wait_for_change", {
    id: "r-undo",
    since_revision: made.revision,
    timeout_seconds: 10,
  });
  const accepted = await decide(
    { pads },
    "r-undo",
    String(made.suggestion_id),
    "accept",
    "Ann",
  );
  assert.equal(accepted.status, 200);
  const heard = structured(await waiting);
  assert.deepEqual(
    (heard.decisions as { status: string }[]).map((d) => d.status),
    ["accepted"],
  );
  const asked = structured(
    await agent.call("undo_last_edit", { id: "r-undo" }),
  );
  assert.equal(asked.status, "confirmation_required");
  assert.match(String(asked.message), /Undo your edit of revision 1 on pad/);
});

Deno.test("a second suggested undo of an edit is refused while the first is pending, naming it, and allowed once a person rejects it", async () => {
  await using h = await connectWithDesk();
  for (const text of ["one\n", "two\n"]) {
    structured(await h.call("append_to_document", { id: "s-twice", text }));
  }
  const first = structured(
    await h.call("undo_last_edit", { id: "s-twice", suggest: true }),
  );
  assert.equal(first.status, "suggested");
  const refused = errorOf(
    await h.call("undo_last_edit", { id: "s-twice", suggest: true }),
  );
  assert.match(
    refused,
    new RegExp(
      `^Cannot suggest undoing the edit of revision 2 on pad "s-twice" as suggestion ${first.suggestion_id} already suggests it: current status is pending\\. Nothing was held`,
    ),
  );
  const rejected = await decide(
    h,
    "s-twice",
    String(first.suggestion_id),
    "reject",
    "Ann",
  );
  assert.equal(rejected.status, 200);
  const again = structured(
    await h.call("undo_last_edit", { id: "s-twice", suggest: true }),
  );
  assert.equal(again.status, "suggested");
  assert.notEqual(again.suggestion_id, first.suggestion_id);
  assert.equal(await h.text("s-twice"), "one\ntwo\n");
});
