import assert from "node:assert/strict";
import { connect, structured, textOf } from "../_mcp.ts";
import { padWith, person, personReplaces, revisionOf } from "./_pads.ts";

const TEXT =
  "# Plan\nShip the parser on Monday.\nWrite the docs.\nCelebrate.\n";

Deno.test("a person's edit inside an edit's range since base_revision refuses the batch, naming the person and the region", async () => {
  await using h = await connect();
  await padWith(h, "c1", TEXT);
  const read = await revisionOf(h, "c1");
  await using ada = await person(h, "c1", "Ada");
  await personReplaces(h, ada, "Monday", "Tuesday");
  const result = await h.call("edit_document", {
    id: "c1",
    base_revision: read,
    edits: [
      { old_string: "Celebrate.", new_string: "Party." },
      { old_string: "Ship the parser on Monday.", new_string: "Ship it." },
    ],
  });
  const content = structured(result);
  assert.equal(content.status, "conflict");
  assert.deepEqual(content.conflicts, [{
    edit: 1,
    start_line: 2,
    end_line: 2,
    changed_by: ["Ada"],
    current_text: "Ship the parser on Tuesday.",
  }]);
  assert.match(textOf(result), /Nothing was changed/);
  assert.match(textOf(result), /<untrusted-/);
  assert.equal(
    await h.text("c1"),
    TEXT.replace("Monday", "Tuesday"),
  );
});

Deno.test("a person's edit elsewhere since base_revision is kept, and the edit is rebased over it", async () => {
  await using h = await connect();
  await padWith(h, "c2", TEXT);
  const read = await revisionOf(h, "c2");
  await using ada = await person(h, "c2", "Ada");
  await personReplaces(h, ada, "# Plan", "# The plan for this week");
  const content = structured(
    await h.call("edit_document", {
      id: "c2",
      base_revision: read,
      edits: [{ start_line: 3, end_line: 3, new_string: "Write the README." }],
    }),
  );
  assert.equal(content.status, "applied");
  assert.equal(content.rebased, true);
  assert.equal(
    await h.text("c2"),
    "# The plan for this week\nShip the parser on Monday.\nWrite the README.\nCelebrate.\n",
  );
});

Deno.test("on_conflict merge rebases over a person's edit inside the range instead of refusing", async () => {
  await using h = await connect();
  await padWith(h, "c3", TEXT);
  const read = await revisionOf(h, "c3");
  await using ada = await person(h, "c3", "Ada");
  await personReplaces(h, ada, "docs", "manual");
  const content = structured(
    await h.call("edit_document", {
      id: "c3",
      base_revision: read,
      on_conflict: "merge",
      edits: [{ old_string: "Write the docs.", new_string: "Write it all." }],
    }),
  );
  assert.equal(content.status, "applied");
  // Plain OT: both deletions happen, both insertions are kept; the edit
  // keeps the "Write " and "." its old and new strings share.
  assert.equal(
    await h.text("c3"),
    "# Plan\nShip the parser on Monday.\nWrite it allmanual.\nCelebrate.\n",
  );
});

Deno.test("an insertion point with a person's edit beside it but not around it is applied", async () => {
  await using h = await connect();
  await padWith(h, "c4", TEXT);
  const read = await revisionOf(h, "c4");
  await using ada = await person(h, "c4", "Ada");
  // Ada rewrites the text right before the insertion point (line 4),
  // line break included: its left side changed, its right side did not.
  await personReplaces(h, ada, "docs.\n", "manual.\n");
  const content = structured(
    await h.call("edit_document", {
      id: "c4",
      base_revision: read,
      edits: [{ start_line: 4, end_line: 3, new_string: "Review it." }],
    }),
  );
  assert.equal(content.status, "applied");
  assert.equal(
    await h.text("c4"),
    "# Plan\nShip the parser on Monday.\nWrite the manual.\nReview it.\nCelebrate.\n",
  );
});

Deno.test("an insertion point a person deleted around is a conflict", async () => {
  await using h = await connect();
  await padWith(h, "c5", TEXT);
  const read = await revisionOf(h, "c5");
  await using ada = await person(h, "c5", "Ada");
  await personReplaces(h, ada, "docs.\nCele", "");
  const content = structured(
    await h.call("edit_document", {
      id: "c5",
      base_revision: read,
      edits: [{ start_line: 4, end_line: 3, new_string: "Review it." }],
    }),
  );
  assert.equal(content.status, "conflict");
});

Deno.test("`replace_in_document` and `set_document` with base_revision refuse a person's change to what they replace", async () => {
  await using h = await connect({
    elicit: () => ({ action: "accept", content: { confirm: true } }),
  });
  await padWith(h, "c6", TEXT);
  const read = await revisionOf(h, "c6");
  await using ada = await person(h, "c6", "Ada");
  await personReplaces(h, ada, "Celebrate", "Rest");
  const replaced = structured(
    await h.call("replace_in_document", {
      id: "c6",
      base_revision: read,
      search: "Celebrate.",
      replace: "Party.",
    }),
  );
  assert.equal(replaced.status, "conflict");
  const set = structured(
    await h.call("set_document", {
      id: "c6",
      base_revision: read,
      text: TEXT.replace("Celebrate.", "Party!"),
    }),
  );
  assert.equal(set.status, "conflict");
  assert.equal(await h.text("c6"), TEXT.replace("Celebrate", "Rest"));
  // Untouched text with base_revision: rebased and applied.
  const elsewhere = structured(
    await h.call("replace_in_document", {
      id: "c6",
      base_revision: read,
      search: "Monday",
      replace: "Friday",
    }),
  );
  assert.equal(elsewhere.status, "applied");
  assert.equal(
    await h.text("c6"),
    TEXT.replace("Celebrate", "Rest").replace("Monday", "Friday"),
  );
});
