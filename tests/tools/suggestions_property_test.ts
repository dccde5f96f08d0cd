// The fuzz property of suggestions: accepting one at any later revision
// gives the text its edit gives when transformed through every operation
// since its base, as an agent's own rebased write would; and it is refused
// as outdated exactly when one of those operations deleted text it changes.

import assert from "node:assert/strict";
import { structured } from "../_mcp.ts";
import { RawPerson } from "../_person.ts";
import { Random } from "../_random.ts";
import { TextOperation } from "../../src/mod.ts";
import { codePointLength } from "../../src/ot/code_points.ts";
import { deletesOverlap } from "../../src/ot/deletes.ts";
import { findOccurrences } from "../../src/text/edits.ts";
import { connectWithDesk, decide, listed } from "./_suggestions.ts";

/** The operation of hunks in UTF-16 units on `text`, in code points. */
function operationOf(
  text: string,
  hunks: { from: number; to: number; inserted: string }[],
): TextOperation {
  const operation = new TextOperation();
  let at = 0;
  for (const hunk of hunks) {
    operation.retain(codePointLength(text.slice(at, hunk.from)));
    operation.insert(hunk.inserted);
    operation.delete(codePointLength(text.slice(hunk.from, hunk.to)));
    at = hunk.to;
  }
  return operation.retain(codePointLength(text.slice(at)));
}

/** A piece of `text` that occurs once, by code points, to replace. */
function uniquePiece(random: Random, text: string): string {
  const points = [...text];
  for (;;) {
    const start = random.int(points.length);
    const end = random.between(start + 1, points.length);
    const piece = points.slice(start, end).join("");
    if (findOccurrences(text, piece).length === 1) return piece;
  }
}

Deno.test("accepting a suggestion after any people's operations gives its edit transformed through them, or outdated exactly when they deleted its text", async () => {
  await using h = await connectWithDesk();
  const random = new Random(2025);
  let accepted = 0;
  let outdated = 0;
  for (let i = 0; i < 40; i++) {
    const where = `case ${i} of seed 2025`;
    const id = `prop-${i}`;
    const base = random.text(random.between(8, 30));
    structured(await h.call("append_to_document", { id, text: base }));
    const made = structured(
      await h.call("edit_document", {
        id,
        edits: [{
          old_string: uniquePiece(random, base),
          new_string: random.text(random.int(5)),
        }],
        suggest: true,
      }),
    );
    // A replacement by the same text changes nothing, so holds nothing.
    if (made.status === "unchanged") continue;
    const before = await listed(h, id);
    let operation = operationOf(base, before.suggestions[0]!.hunks);
    let deleted = false;
    await using person = await RawPerson.open(h.pads.url, id);
    for (let k = random.int(4); k > 0; k--) {
      const theirs = random.sparse(codePointLength(person.text), 2);
      deleted ||= deletesOverlap(operation, theirs);
      [operation] = operation.transform(theirs);
      await person.edit(theirs);
    }
    const now = person.text;
    const answer = await decide(h, id, String(made.suggestion_id), "accept");
    if (deleted) {
      outdated++;
      assert.equal(answer.status, 409, where);
      assert.equal(await h.text(id), now, where);
    } else {
      accepted++;
      assert.equal(
        answer.status,
        200,
        `${where}: ${JSON.stringify(answer.body)}`,
      );
      assert.equal(await h.text(id), operation.apply(now), where);
    }
  }
  // Both outcomes were exercised.
  assert.ok(
    accepted > 5 && outdated > 2,
    `${accepted} accepted, ${outdated} outdated`,
  );
});
