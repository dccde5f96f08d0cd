import assert from "node:assert/strict";
import { BatchEditError, locateEdits } from "../src/batch_edits.ts";

const TEXT = "alpha\nbeta\ngamma\ndelta\n";

function apply(text: string, edits: Parameters<typeof locateEdits>[1]): string {
  return locateEdits(text, edits).operation.apply(text);
}

Deno.test("string and line edits located in one text become one operation", () => {
  assert.equal(
    apply(TEXT, [
      { start_line: 4, end_line: 4, new_text: "DELTA" },
      { old_string: "beta", new_string: "BETA" },
    ]),
    "alpha\nBETA\ngamma\nDELTA\n",
  );
});

Deno.test("a line edit with empty new_text deletes the lines, and end_line = start_line - 1 inserts", () => {
  assert.equal(
    apply(TEXT, [{ start_line: 2, end_line: 3, new_text: "" }]),
    "alpha\ndelta\n",
  );
  assert.equal(
    apply(TEXT, [{ start_line: 2, end_line: 1, new_text: "new" }]),
    "alpha\nnew\nbeta\ngamma\ndelta\n",
  );
  assert.equal(
    apply(TEXT, [{ start_line: 5, end_line: 4, new_text: "end\n" }]),
    TEXT + "end\n",
  );
  assert.equal(
    apply("a\nb", [{ start_line: 3, end_line: 2, new_text: "c" }]),
    "a\nb\nc",
  );
  assert.equal(
    apply("a\nb", [{ start_line: 2, end_line: 2, new_text: "" }]),
    "a",
  );
  assert.equal(apply("", [{ start_line: 1, end_line: 0, new_text: "x" }]), "x");
});

Deno.test("line edits on a CRLF text keep its line breaks", () => {
  assert.equal(
    apply("a\r\nb\r\nc\r\n", [{
      start_line: 2,
      end_line: 2,
      new_text: "x\ny",
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
    /edits\[1\].*occurs 0 times at revision 3/,
    1,
  );
  fails([{ old_string: "a", new_string: "" }], /edits\[0\].*occurs 6 times/, 0);
  fails(
    [{ start_line: 4, end_line: 5, new_text: "" }],
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
        { start_line: 3, end_line: 4, new_text: "x" },
      ]),
    /Cannot apply edits\[0\] and edits\[2\] as they overlap in the pad \(both touch line 3\)/,
  );
  // An insertion before a replaced line, at the same place: ambiguous.
  assert.throws(
    () =>
      locateEdits(TEXT, [
        { start_line: 2, end_line: 1, new_text: "x" },
        { start_line: 2, end_line: 2, new_text: "y" },
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
