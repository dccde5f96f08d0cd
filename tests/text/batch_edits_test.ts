import assert from "node:assert/strict";
import { BatchEditError, locateEdits } from "../../src/text/batch_edits.ts";

const TEXT = "alpha\nbeta\ngamma\ndelta\n";

function apply(text: string, edits: Parameters<typeof locateEdits>[1]): string {
  return locateEdits(text, edits).operation.apply(text);
}

Deno.test("string and line edits located in one text become one operation", () => {
  assert.equal(
    apply(TEXT, [
      { start_line: 4, end_line: 4, new_string: "DELTA" },
      { old_string: "beta", new_string: "BETA" },
    ]),
    "alpha\nBETA\ngamma\nDELTA\n",
  );
});

Deno.test("a line edit with empty new_string deletes the lines, and end_line = start_line - 1 inserts", () => {
  assert.equal(
    apply(TEXT, [{ start_line: 2, end_line: 3, new_string: "" }]),
    "alpha\ndelta\n",
  );
  assert.equal(
    apply(TEXT, [{ start_line: 2, end_line: 1, new_string: "new" }]),
    "alpha\nnew\nbeta\ngamma\ndelta\n",
  );
  assert.equal(
    apply(TEXT, [{ start_line: 5, end_line: 4, new_string: "end\n" }]),
    TEXT + "end\n",
  );
  assert.equal(
    apply("a\nb", [{ start_line: 3, end_line: 2, new_string: "c" }]),
    "a\nb\nc",
  );
  assert.equal(
    apply("a\nb", [{ start_line: 2, end_line: 2, new_string: "" }]),
    "a",
  );
  assert.equal(
    apply("", [{ start_line: 1, end_line: 0, new_string: "x" }]),
    "x",
  );
});

Deno.test("line edits on a CRLF text keep its line breaks", () => {
  assert.equal(
    apply("a\r\nb\r\nc\r\n", [{
      start_line: 2,
      end_line: 2,
      new_string: "x\ny",
    }]),
    "a\r\nx\r\ny\r\nc\r\n",
  );
});

Deno.test("an old_string with \\n matches a CRLF text as read_lines shows it", () => {
  assert.equal(
    apply("a\r\nb\r\nc", [{ old_string: "a\nb", new_string: "A\nB" }]),
    "A\r\nB\r\nc",
  );
});

Deno.test("replace_all replaces every occurrence and says it replaced many", () => {
  const batch = locateEdits("x y x", [
    { old_string: "x", new_string: "z", replace_all: true },
  ]);
  assert.equal(batch.operation.apply("x y x"), "z y z");
  assert.equal(batch.replacesMany, true);
  assert.equal(batch.deleted, 2);
});

Deno.test("errors name the edit and why: no match, several matches, lines out of range", () => {
  const fails = (
    edits: Parameters<typeof locateEdits>[1],
    pattern: RegExp,
    edit: number,
  ) =>
    assert.throws(
      () => locateEdits(TEXT, edits, "at revision 3"),
      (error) =>
        error instanceof BatchEditError && error.edit === edit &&
        pattern.test(error.message),
    );
  fails(
    [{ old_string: "alpha", new_string: "" }, {
      old_string: "zeta",
      new_string: "",
    }],
    /edits\[1\].*does not occur at revision 3/,
    1,
  );
  fails([{ old_string: "a", new_string: "" }], /edits\[0\].*occurs 6 times/, 0);
  fails(
    [{ start_line: 4, end_line: 5, new_string: "" }],
    /edits\[0\].*lines 4 to 5 are out of range.*4 lines/,
    0,
  );
});

Deno.test("overlapping edits are refused, naming both", () => {
  assert.throws(
    () =>
      locateEdits(TEXT, [
        { old_string: "gamma", new_string: "G" },
        { old_string: "alpha", new_string: "A" },
        { start_line: 3, end_line: 4, new_string: "x" },
      ]),
    /Cannot apply edits\[0\] and edits\[2\] as they overlap in the pad \(both touch line 3\)/,
  );
  // An insertion before a replaced line, at the same place: ambiguous.
  assert.throws(
    () =>
      locateEdits(TEXT, [
        { start_line: 2, end_line: 1, new_string: "x" },
        { start_line: 2, end_line: 2, new_string: "y" },
      ]),
    /edits\[0\] and edits\[1\]/,
  );
  // Touching is not overlapping.
  assert.equal(
    apply(TEXT, [
      { old_string: "alpha", new_string: "A" },
      { old_string: "\nbeta", new_string: "\nB" },
    ]),
    "A\nB\ngamma\ndelta\n",
  );
});

Deno.test("changes carry code point offsets for surrogate pairs", () => {
  const batch = locateEdits("🎉 a 🎉 b", [{
    old_string: "b",
    new_string: "c",
  }]);
  assert.equal(batch.changes[0]?.codePointStart, 6);
  assert.equal(batch.changes[0]?.start, 8);
  assert.deepEqual(batch.operation.toJSON(), [6, "c", -1]);
});

Deno.test("a string edit that extends its text inserts only what is new and deletes nothing", () => {
  const batch = locateEdits("say abc here", [
    { old_string: "abc", new_string: "abcd" },
  ]);
  assert.deepEqual(batch.operation.toJSON(), [7, "d", 5]);
  assert.equal(batch.deleted, 0);
  assert.deepEqual(batch.changes, [{
    edit: 0,
    start: 7,
    end: 7,
    codePointStart: 7,
    codePointEnd: 7,
    text: "d",
  }]);
  // Extending the whole text is no deletion of it.
  assert.equal(
    locateEdits("abc", [{ old_string: "abc", new_string: "abc!" }]).deleted,
    0,
  );
});

Deno.test("a string edit that shrinks its text deletes only what goes", () => {
  const batch = locateEdits("say abcd here", [
    { old_string: "abcd", new_string: "abd" },
  ]);
  assert.deepEqual(batch.operation.toJSON(), [6, -1, 6]);
  assert.equal(batch.deleted, 1);
  assert.equal(batch.changes[0]?.codePointStart, 6);
  assert.equal(batch.changes[0]?.codePointEnd, 7);
});

Deno.test("a replacement sharing a prefix and a suffix replaces only the middle, for string and line edits", () => {
  const batch = locateEdits("call foo(a) now", [
    { old_string: "foo(a)", new_string: "foo(a, b)" },
  ]);
  assert.deepEqual(batch.operation.toJSON(), [10, ", b", 5]);
  const lines = locateEdits(TEXT, [
    { start_line: 2, end_line: 3, new_string: "beta\ngamma ray\n" },
  ]);
  assert.deepEqual(lines.operation.toJSON(), [16, " ray", 7]);
  assert.equal(lines.deleted, 0);
  const swapped = locateEdits("say cat here", [
    { old_string: "cat", new_string: "cot" },
  ]);
  assert.deepEqual(swapped.operation.toJSON(), [5, "o", -1, 6]);
  assert.equal(swapped.changes[0]?.start, 5);
  assert.equal(swapped.changes[0]?.end, 6);
  // Unchanged text is a change of nothing.
  const same = locateEdits("abc", [{ old_string: "b", new_string: "b" }]);
  assert.ok(same.operation.isNoop());
  assert.equal(same.deleted, 0);
});

Deno.test("a replacement never keeps half of a surrogate pair at its ends", () => {
  // 😀 and 😁 share their high surrogate: the whole code point is replaced.
  const high = locateEdits("🎉 x😀y", [{
    old_string: "x😀y",
    new_string: "x😁y",
  }]);
  assert.deepEqual(high.operation.toJSON(), [3, "😁", -1, 1]);
  assert.equal(high.changes[0]?.start, 4);
  assert.equal(high.changes[0]?.end, 6);
  assert.equal(high.changes[0]?.codePointStart, 3);
  assert.equal(high.changes[0]?.codePointEnd, 4);
  // 🎉 and U+1F789 share their low surrogate.
  const other = String.fromCodePoint(0x1f789);
  assert.deepEqual(
    locateEdits("a🎉", [{ old_string: "a🎉", new_string: `a${other}` }])
      .operation.toJSON(),
    [1, other, -1],
  );
  // An astral character kept at both ends, one put between.
  assert.deepEqual(
    locateEdits("😀😀", [{ old_string: "😀😀", new_string: "😀🎉😀" }])
      .operation.toJSON(),
    [1, "🎉", 1],
  );
});

Deno.test("replace_all keeps the shared ends at every occurrence and counts only what it deletes", () => {
  const text = "x1 y x1";
  const longer = locateEdits(text, [
    { old_string: "x1", new_string: "x12", replace_all: true },
  ]);
  assert.deepEqual(longer.operation.toJSON(), [2, "2", 5, "2"]);
  assert.equal(longer.deleted, 0);
  assert.equal(longer.replacesMany, true);
  assert.deepEqual(
    longer.changes.map((c) => [c.codePointStart, c.codePointEnd]),
    [[2, 2], [7, 7]],
  );
  const shorter = locateEdits(text, [
    { old_string: "x1", new_string: "1", replace_all: true },
  ]);
  assert.deepEqual(shorter.operation.toJSON(), [-1, 4, -1, 1]);
  assert.equal(shorter.deleted, 2);
  assert.equal(shorter.operation.apply(text), "1 y 1");
});

Deno.test("edits are refused for overlapping in the text they name, even when what they change does not", () => {
  assert.throws(
    () =>
      locateEdits("abcdef", [
        { old_string: "abcd", new_string: "Abcd" },
        { old_string: "cdef", new_string: "cdeF" },
      ]),
    /edits\[0\] and edits\[1\] as they overlap/,
  );
});
