import assert from "node:assert/strict";
import { compilePattern, searchText } from "../../src/text/search.ts";

const TEXT = "first line\nsecond: a.b\r\nthird a.b a.b\nfourth\n";

Deno.test("searchText finds literal text with 1-based line and UTF-16 column", () => {
  const found = searchText(TEXT, "a.b");
  assert.equal(found.totalMatches, 3);
  assert.deepEqual(
    found.matches.map((m) => [m.line, m.column, m.text, m.lineText]),
    [
      [2, 9, "a.b", "second: a.b"],
      [3, 7, "a.b", "third a.b a.b"],
      [3, 11, "a.b", "third a.b a.b"],
    ],
  );
});

Deno.test("searchText counts columns in UTF-16 units", () => {
  const [match] = searchText("🎉x", "x").matches;
  assert.equal(match?.column, 3);
});

Deno.test("searchText gives context lines, clipped at the edges and without a phantom last line", () => {
  const found = searchText(TEXT, "fourth", { contextLines: 2 });
  assert.deepEqual(found.matches[0]?.before, ["second: a.b", "third a.b a.b"]);
  assert.deepEqual(found.matches[0]?.after, []);
  const first = searchText(TEXT, "first", { contextLines: 5 }).matches[0];
  assert.deepEqual(first?.before, []);
  assert.deepEqual(first?.after, ["second: a.b", "third a.b a.b", "fourth"]);
});

Deno.test("searchText counts every match but details only max results", () => {
  const found = searchText("x".repeat(50), "x", { maxResults: 3 });
  assert.equal(found.totalMatches, 50);
  assert.equal(found.matches.length, 3);
});

Deno.test("searchText ignores case on request, with the pattern still literal", () => {
  const found = searchText("A.B a.b axb", "a.B", { caseInsensitive: true });
  assert.deepEqual(found.matches.map((m) => m.text), ["A.B", "a.b"]);
});

Deno.test("searchText runs regular expressions with the u and m flags", () => {
  const found = searchText("ab\nab\n🎉", "^a|\\p{Emoji_Presentation}", {
    regex: true,
  });
  assert.deepEqual(found.matches.map((m) => [m.line, m.text]), [
    [1, "a"],
    [2, "a"],
    [3, "🎉"],
  ]);
});

Deno.test("a match spanning lines gives context after its last line", () => {
  const [match] = searchText("0\n1\n2\n3\n4", "1\\n2", {
    regex: true,
    contextLines: 1,
  }).matches;
  assert.equal(match?.line, 2);
  assert.equal(match?.endLine, 3);
  assert.deepEqual(match?.before, ["0"]);
  assert.deepEqual(match?.after, ["3"]);
});

Deno.test("empty regex matches advance a whole code point and end", () => {
  assert.equal(searchText("🎉🎉", "", { regex: true }).totalMatches, 3);
});

Deno.test("a long match is cut with a marker saying so", () => {
  const [match] = searchText("z".repeat(3000), "z+", { regex: true }).matches;
  assert.match(
    match?.text ?? "",
    /… \[match cut: 2000 of 3000 UTF-16 units shown\]$/,
  );
});

Deno.test("compilePattern escapes every syntax character of a literal pattern", () => {
  const literal = "^$\\.*+?()[]{}|/";
  assert.equal(compilePattern(literal, {}).exec(`x${literal}x`)?.index, 1);
  assert.throws(
    () => compilePattern("a{", { regex: true }),
    /Invalid regular expression/,
  );
});

Deno.test("searchText stops giving details at the character budget, keeping at least one match", () => {
  const text = ("y".repeat(99) + "\n").repeat(10);
  const found = searchText(text, "y".repeat(99), {
    contextLines: 2,
    maxCharacters: 1000,
  });
  assert.equal(found.totalMatches, 10);
  assert.equal(found.cut, true);
  // Each match with its line and up to 4 context lines is 297 to 594 units.
  assert.equal(found.matches.length, 2);
  const one = searchText(text, "y", { maxCharacters: 1, maxResults: 5 });
  assert.equal(one.matches.length, 1);
  assert.equal(one.cut, true);
  const all = searchText(text, "y".repeat(99), { maxCharacters: 1e9 });
  assert.equal(all.cut, false);
  assert.equal(all.matches.length, 10);
});
