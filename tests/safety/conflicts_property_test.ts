import assert from "node:assert/strict";
import { locateEdits } from "../../src/text/batch_edits.ts";
import { findConflicts } from "../../src/safety/conflicts.ts";
import { TextOperation } from "../../src/ot/operation.ts";
import { property, type Random } from "../_random.ts";

// Every character ever written is unique, so "the text an edit replaces is
// untouched" is exactly "it is still there, in one piece".
let fresh = 0x4e00;
const unique = (count: number): string => {
  let text = "";
  for (let i = 0; i < count; i++) text += String.fromCodePoint(fresh++);
  return text;
};

/** A person's edit: a few deletions and insertions of fresh characters. */
function personEdit(random: Random, length: number): TextOperation {
  const op = new TextOperation();
  let at = 0;
  while (at < length) {
    const run = random.between(1, Math.min(length - at, 4));
    const kind = random.int(4);
    if (kind === 0) op.delete(run);
    else op.retain(run);
    at += run;
    if (random.int(4) === 0) op.insert(unique(random.between(1, 3)));
  }
  if (random.int(3) === 0) op.insert(unique(1));
  return op;
}

Deno.test("an edit conflicts exactly when the text it replaces is no longer there in one piece, and otherwise lands on it", () => {
  property(11, (random, where) => {
    fresh = 0x4e00;
    const base = unique(random.between(6, 30));
    // Two edits of separate ranges.
    const cut = random.between(2, base.length - 2);
    const first = base.slice(random.int(cut - 1), cut - 1);
    const secondStart = random.between(cut, base.length - 1);
    const second = base.slice(
      secondStart,
      random.between(secondStart + 1, base.length),
    );
    const edits = [first, second].filter((s) => s !== "").map((s) => ({
      old_string: s,
      new_string: `<${s.length}>`,
    }));
    const batch = locateEdits(base, edits);
    let current = base;
    const history = [];
    for (let i = random.int(4); i > 0; i--) {
      const operation = personEdit(random, [...current].length);
      history.push({ author: i, operation });
      current = operation.apply(current);
    }
    const conflicts = findConflicts(
      batch.changes.map((change) => ({
        edit: change.edit,
        start: change.codePointStart,
        end: change.codePointEnd,
      })),
      history,
    );
    for (const [index, edit] of edits.entries()) {
      const intact = current.includes(edit.old_string);
      const conflicted = conflicts.some((c) => c.edit === index);
      assert.equal(conflicted, !intact, `${where}: edit ${index}`);
    }
    if (conflicts.length > 0) return;
    // No conflict: the rebased batch replaces exactly what the agent saw and
    // keeps everything else (text typed at a range's edge may end up on
    // either side of the replacement: ours goes first at a tie).
    let rebased = batch.operation;
    for (const { operation } of history) {
      [rebased] = rebased.transform(operation);
    }
    const result = rebased.apply(current);
    let kept = current;
    let left = result;
    for (const edit of edits) {
      assert.ok(result.includes(edit.new_string), where);
      assert.ok(!result.includes(edit.old_string), where);
      kept = kept.replace(edit.old_string, "");
      left = left.replace(edit.new_string, "");
    }
    assert.equal(left, kept, where);
  });
});
