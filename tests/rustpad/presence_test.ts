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
import { TextBuffer } from "../../src/ot/text_buffer.ts";
import { cpLength, property } from "../_random.ts";

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

Deno.test("`positionsOf()` and `peopleInRanges()` answer alike from a text's locator and from its string, across chunks and long lines", () => {
  property(8, (random, where) => {
    const alphabet = random.int(2) === 0
      ? ["a", "\n", "😀", "é"]
      : ["a", "b", "😀", "é"];
    let text = random.text(random.between(1000, 6000), alphabet);
    const buffer = new TextBuffer(text);
    for (let i = 0; i < 20; i++) {
      const op = random.sparse(cpLength(text), random.between(1, 4), 100);
      text = op.apply(text);
      buffer.apply(op);
    }
    const length = cpLength(text);
    const offsets = Array.from(
      { length: 12 },
      () => random.int(length + 3),
    );
    assert.deepEqual(
      positionsOf(buffer.locator(), offsets),
      positionsOf(text, offsets),
      where,
    );
    const people = [
      { name: "Ann", cursors: offsets.slice(0, 3), selections: [] },
      {
        name: "Bo",
        cursors: [],
        selections: [[offsets[3]!, offsets[4]!] as const],
      },
    ];
    const start = random.int(length + 1);
    const ranges = [{ start, end: Math.min(length, start + random.int(50)) }];
    for (const by of ["line", "offset"] as const) {
      assert.deepEqual(
        peopleInRanges(buffer.locator(), people, ranges, { by }),
        peopleInRanges(text, people, ranges, { by }),
        `${where}, by ${by}`,
      );
    }
  }, 10);
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
