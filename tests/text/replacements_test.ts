import assert from "node:assert/strict";
import {
  findReplacements,
  replacedRanges,
  replacementsOperation,
} from "../../src/text/replacements.ts";
import { loadSearchEngine } from "../../src/text/search.ts";

await loadSearchEngine();

function replaced(
  text: string,
  search: string,
  replace: string,
  options: { regex?: boolean; wholeWord?: boolean } = {},
): string {
  return replacementsOperation(
    text,
    findReplacements(text, search, replace, options),
  ).apply(text);
}

Deno.test("`findReplacements()` with wholeWord skips matches that touch a letter, digit or _ on a side that is itself one", () => {
  assert.equal(
    replaced("foo food _foo foo9 (foo) foo", "foo", "X", { wholeWord: true }),
    "X food _foo foo9 (X) X",
  );
  // Only a side where the search has a word character must be a boundary.
  assert.equal(replaced("a.b a.bc", ".b", "!", { wholeWord: true }), "a! a.bc");
  // Letters beyond ASCII and astral ones count as word characters.
  assert.equal(
    replaced("éfoo 𝒳foo foo", "foo", "X", { wholeWord: true }),
    "éfoo 𝒳foo X",
  );
});

Deno.test("`findReplacements()` with wholeWord finds a whole word that overlaps a rejected match", () => {
  // "a a" at 1 is preceded by "x"; the one at 3 is whole.
  assert.deepEqual(
    findReplacements("xa a a", "a a", "-", { wholeWord: true }).map((m) =>
      m.start
    ),
    [3],
  );
});

Deno.test("`findReplacements()` with regex expands groups as String.replace does", () => {
  const text = "k1=v1; k2=v2";
  const regex = { regex: true };
  assert.equal(replaced(text, "(\\w+)=(\\w+)", "$2=$1", regex), "v1=k1; v2=k2");
  assert.equal(
    replaced(text, "(?P<key>k\\d)", "[$<key>]", regex),
    "[k1]=v1; [k2]=v2",
  );
  assert.equal(replaced(text, "k\\d", "$&$&", regex), "k1k1=v1; k2k2=v2");
  assert.equal(
    replaced(text, "k(\\d)", "$$1 $10 $0 $9", regex),
    "$1 10 $0 $9=v1; $1 20 $0 $9=v2",
  );
  // A group that took no part is empty.
  assert.equal(replaced("ab", "a(x)?b", "[$1]", regex), "[]");
});

Deno.test("`findReplacements()` with regex replaces empty matches once each, as at line starts", () => {
  assert.equal(
    replaced("one\ntwo\n", "^", "> ", { regex: true }),
    "> one\n> two\n> ",
  );
  assert.equal(replaced("ab", "x*", "-", { regex: true }), "-a-b-");
});

Deno.test("`replacementsOperation()` changes only what each match and its replacement do not share, in code points", () => {
  const text = "🎉 cat, 🎉 cat";
  const found = findReplacements(text, "cat", "cap", {});
  const operation = replacementsOperation(text, found);
  assert.equal(operation.apply(text), "🎉 cap, 🎉 cap");
  assert.deepEqual(operation.components, [4, "p", -1, 6, "p", -1]);
  assert.deepEqual(replacedRanges(text, found), [
    { start: 4, end: 5 },
    { start: 11, end: 12 },
  ]);
});

Deno.test("`findReplacements()` refuses an empty literal and an RE2-invalid pattern", () => {
  assert.throws(() => findReplacements("abc", "", "x"), RangeError);
  assert.throws(
    () => findReplacements("abc", "(?<=a)b", "x", { regex: true }),
    /lookbehind/,
  );
});

Deno.test("a literal search with LF line breaks matches CRLF text as read_lines shows it, and its replacement takes CRLF", () => {
  const text = "one\r\ntwo\r\nthree\r\n";
  assert.deepEqual(findReplacements(text, "one\ntwo\n", "1\n2\n"), [
    { start: 0, end: 10, text: "1\r\n2\r\n" },
  ]);
  // LF text is matched as it is; a search already with CRLF is not retried.
  assert.deepEqual(findReplacements("a\nb", "a\nb", "c\nd"), [
    { start: 0, end: 3, text: "c\nd" },
  ]);
  assert.deepEqual(findReplacements("a\nb", "a\r\nb", "x"), []);
});
