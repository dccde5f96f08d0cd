import assert from "node:assert/strict";
import { findConflicts } from "../src/conflicts.ts";
import { TextOperation } from "../src/operation.ts";

const op = (author: number, json: (number | string)[]) => ({
  author,
  operation: TextOperation.fromJSON(json),
});

// Base text "hello brave world" (17 code points); "brave" is 6..11.
const BRAVE = { edit: 0, start: 6, end: 11 };

Deno.test("a deletion inside an edit's range is a conflict, with the range as it is now", () => {
  // Someone deletes "hello " first, then "a" inside "brave".
  const history = [op(1, [-6, 11]), op(2, [2, -1, 8])];
  assert.deepEqual(findConflicts([BRAVE], history), [
    { edit: 0, authors: [2], start: 0, end: 4 },
  ]);
});

Deno.test("insertions at a range's edges and edits elsewhere are not conflicts", () => {
  assert.deepEqual(
    findConflicts([BRAVE], [
      op(1, [6, "very ", 11]),
      op(1, [16, " new", 6]),
      op(1, [-5, "HELLO", 20]),
    ]),
    [],
  );
});

Deno.test("an insertion point conflicts only when text changed on both of its sides", () => {
  const point = { edit: 3, start: 6, end: 6 };
  // Beside it: typed at it, or deleted the character before it.
  assert.deepEqual(findConflicts([point], [op(1, [6, "x", 11])]), []);
  assert.deepEqual(findConflicts([point], [op(1, [5, -1, 11])]), []);
  // Around it: a deletion spanning it, or two people on either side.
  assert.deepEqual(findConflicts([point], [op(1, [4, -4, 9])]), [
    { edit: 3, authors: [1], start: 4, end: 4 },
  ]);
  assert.deepEqual(
    findConflicts([point], [op(1, [5, -1, 11]), op(2, [5, -1, 10])]),
    [{ edit: 3, authors: [1, 2], start: 5, end: 5 }],
  );
});

Deno.test("several ranges of one edit give one conflict spanning them", () => {
  const ranges = [{ edit: 1, start: 0, end: 2 }, {
    edit: 1,
    start: 10,
    end: 12,
  }];
  assert.deepEqual(
    findConflicts(ranges, [op(9, [1, -1, 15]), op(8, [10, "z", 6])]),
    [{ edit: 1, authors: [9, 8], start: 0, end: 12 }],
  );
});
