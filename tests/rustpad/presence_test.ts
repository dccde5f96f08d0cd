import assert from "node:assert/strict";
import {
  caretAfter,
  changedRanges,
  describePeople,
  peopleInRanges,
  positionsOf,
  rangesTouched,
} from "../../src/rustpad/presence.ts";
import { TextOperation } from "../../src/ot/operation.ts";

Deno.test("`positionsOf()` turns code-point offsets into lines, and columns and offsets in UTF-16 units, in any order", () => {
  const text = "a🎉b\ncd\n\nef"; // "🎉" is one code point, two units.
  assert.deepEqual(positionsOf(text, [9, 0, 3, 4, 5, 7]), [
    { line: 4, column: 2, offset: 10 },
    { line: 1, column: 1, offset: 0 },
    { line: 1, column: 5, offset: 4 },
    { line: 2, column: 1, offset: 5 },
    { line: 2, column: 2, offset: 6 },
    { line: 3, column: 1, offset: 8 },
  ]);
});

Deno.test("positionsOf clamps offsets past the end to the end", () => {
  assert.deepEqual(positionsOf("ab\n", [99]), [
    { line: 2, column: 1, offset: 3 },
  ]);
  assert.deepEqual(positionsOf("", [5, 0]), [
    { line: 1, column: 1, offset: 0 },
    { line: 1, column: 1, offset: 0 },
  ]);
});

Deno.test("changedRanges and rangesTouched give the written and the replaced ranges", () => {
  const op = TextOperation.fromJSON([1, "🎉🎉", -2, 3, -1, 1, "z"]);
  assert.deepEqual(changedRanges(op), [
    { start: 1, end: 3 },
    { start: 6, end: 6 },
    { start: 7, end: 8 },
  ]);
  assert.deepEqual(rangesTouched(op), [
    { start: 1, end: 3 },
    { start: 6, end: 7 },
    { start: 8, end: 8 },
  ]);
  assert.equal(caretAfter(op), 8);
  assert.equal(caretAfter(TextOperation.fromJSON([4])), 0);
});

Deno.test("peopleInRanges by offset finds a caret inside or at the ends, not outside", () => {
  const text = "hello world";
  const people = [
    { name: "In", cursors: [6], selections: [] },
    { name: "End", cursors: [8], selections: [] },
    { name: "Out", cursors: [10], selections: [] },
    { name: "Sel", cursors: [], selections: [[0, 5] as [number, number]] },
  ];
  const hits = peopleInRanges(text, people, [{ start: 5, end: 8 }]);
  assert.deepEqual(hits.map((hit) => [hit.name, hit.where]), [
    ["In", "inside"],
    ["End", "inside"],
    ["Sel", "inside"],
  ]);
});

Deno.test("peopleInRanges by line tells inside the changed lines from next to them", () => {
  const text = "one\ntwo\nthree\nfour\nfive";
  const people = [
    { name: "Same", cursors: [9], selections: [] },
    { name: "Above", cursors: [1], selections: [] },
    { name: "Below", cursors: [15], selections: [] },
    { name: "Far", cursors: [21], selections: [] },
  ];
  const hits = peopleInRanges(text, people, [{ start: 8, end: 10 }], {
    by: "line",
  });
  assert.deepEqual(hits, [
    {
      name: "Same",
      position: { line: 3, column: 2, offset: 9 },
      where: "inside",
    },
    {
      name: "Below",
      position: { line: 4, column: 2, offset: 15 },
      where: "next to",
    },
  ]);
  assert.match(describePeople(hits), /"Same" inside at line 3, column 2/);
  assert.equal(describePeople([]), "");
});
