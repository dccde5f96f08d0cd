import assert from "node:assert/strict";
import { locateEdits } from "../../src/text/batch_edits.ts";
import { type Conflict, findConflicts } from "../../src/safety/conflicts.ts";
import { TextOperation } from "../../src/ot/operation.ts";

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

/** The conflicts of a batch on `base` with `history`, as edit_document finds them. */
function batchConflicts(
  base: string,
  edits: Parameters<typeof locateEdits>[1],
  history: ReturnType<typeof op>[],
): { conflicts: Conflict[]; result: string } {
  const batch = locateEdits(base, edits);
  const ranges = batch.changes.map((change) => ({
    edit: change.edit,
    start: change.codePointStart,
    end: change.codePointEnd,
  }));
  let rebased = batch.operation;
  let text = base;
  for (const { operation } of history) {
    [rebased] = rebased.transform(operation);
    text = operation.apply(text);
  }
  return {
    conflicts: findConflicts(ranges, history),
    result: rebased.apply(text),
  };
}

Deno.test("typing inside the text an edit keeps at its ends is no conflict, and is kept", () => {
  // "hello brave world": the agent extends "brave" to "braver"; a person
  // types "!" inside "brave" (after "br"), which the edit keeps.
  const extend = [{ old_string: "brave", new_string: "braver" }];
  const typed = op(1, [8, "!", 9]);
  assert.deepEqual(batchConflicts("hello brave world", extend, [typed]), {
    conflicts: [],
    result: "hello br!aver world",
  });
  // Shared prefix and suffix: "hello brave" to "hello bold brave" only
  // inserts, between the kept "hello b" and "rave".
  const prefixed = [{
    old_string: "hello brave",
    new_string: "hello bold brave",
  }];
  assert.deepEqual(batchConflicts("hello brave world", prefixed, [typed]), {
    conflicts: [],
    result: "hello bold br!ave world",
  });
  // Astral characters at the ends: "😀x😀" to "😀y😀", typed beside the x.
  assert.deepEqual(
    batchConflicts("😀x😀", [{ old_string: "😀x😀", new_string: "😀y😀" }], [
      op(1, [1, "!", 2]),
    ]).conflicts,
    [],
  );
});

Deno.test("a change inside the middle an edit really replaces is still a conflict, placed on that middle", () => {
  // "brave" to "brazen": the edit replaces "ve" (9..11); a person deletes "v".
  const history = [op(1, [9, -1, 7])];
  assert.deepEqual(
    batchConflicts("hello brave world", [
      { old_string: "brave", new_string: "brazen" },
    ], history).conflicts,
    [{ edit: 0, authors: [1], start: 9, end: 10 }],
  );
  // A shrinking edit: "brave" to "bave" deletes only "r" (7..8).
  assert.deepEqual(
    batchConflicts("hello brave world", [
      { old_string: "brave", new_string: "bave" },
    ], [op(2, [7, -1, 9])]).conflicts,
    [{ edit: 0, authors: [2], start: 7, end: 7 }],
  );
  // An extension is an insertion point: deleting around it conflicts.
  assert.deepEqual(
    batchConflicts("hello brave world", [
      { old_string: "brave", new_string: "braver" },
    ], [op(3, [10, -2, 5])]).conflicts,
    [{ edit: 0, authors: [3], start: 10, end: 10 }],
  );
});

Deno.test("replace_all ranges are narrowed at every occurrence", () => {
  // "x1 y x1": "x1" to "x12" inserts at 2 and at 7; typing inside each kept
  // "x1" is kept.
  const history = [op(1, [1, "a", 5, "b", 1])];
  assert.deepEqual(
    batchConflicts("x1 y x1", [
      { old_string: "x1", new_string: "x12", replace_all: true },
    ], history),
    { conflicts: [], result: "xa12 y xb12" },
  );
  // Deleting the "1" that "x1" to "x2" replaces at the second occurrence.
  assert.deepEqual(
    batchConflicts("x1 y x1", [
      { old_string: "x1", new_string: "x2", replace_all: true },
    ], [op(1, [6, -1])]).conflicts,
    [{ edit: 0, authors: [1], start: 6, end: 6 }],
  );
});
