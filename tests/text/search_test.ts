import assert from "node:assert/strict";
import {
  compilePattern,
  loadSearchEngine,
  MAX_SEARCH_WORK,
  searchText,
} from "../../src/text/search.ts";

await loadSearchEngine();

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

Deno.test("searchText runs RE2 regular expressions with ^ and $ at line ends and Unicode classes", () => {
  const found = searchText("ab\nab\n🎉", "^a|\\p{So}", { regex: true });
  assert.deepEqual(found.matches.map((m) => [m.line, m.text]), [
    [1, "a"],
    [2, "a"],
    [3, "🎉"],
  ]);
});

Deno.test("regex columns and matched text count UTF-16 units past astral characters", () => {
  const found = searchText("🎉a🎉\n𝒳b𝒳b", "[ab]|𝒳", { regex: true });
  assert.deepEqual(
    found.matches.map((m) => [m.line, m.column, m.text]),
    [[1, 3, "a"], [2, 1, "𝒳"], [2, 3, "b"], [2, 4, "𝒳"], [2, 6, "b"]],
  );
  // Case-insensitive literal search runs on RE2 too, with the same columns.
  const folded = searchText("🎉ÉCOLE école", "école", {
    caseInsensitive: true,
  });
  assert.deepEqual(folded.matches.map((m) => [m.column, m.text]), [
    [3, "ÉCOLE"],
    [9, "école"],
  ]);
});

Deno.test("a pattern that backtracks for ever elsewhere answers at once on RE2", () => {
  const text = "a".repeat(30_000);
  assert.equal(
    searchText(`${text}!`, "(a+)+$", { regex: true }).totalMatches,
    0,
  );
  const whole = searchText(text, "(a+)+$", { regex: true });
  assert.equal(whole.totalMatches, 1);
  assert.equal(whole.matches[0]?.column, 1);
  assert.match(whole.matches[0]?.text ?? "", /match cut: 2000 of 30000/);
});

Deno.test("searchText refuses lookaround and backreferences, naming the feature", () => {
  const cases: [string, RegExp][] = [
    ["foo(?=bar)", /lookahead \(\?=/],
    ["foo(?!bar)", /negative lookahead/],
    ["(?<=x)y", /lookbehind \(\?<=/],
    ["(?<!x)y", /negative lookbehind/],
    ["(a)\\1", /a backreference/],
    ["(?P<w>a)\\k<w>", /named backreference/],
    ["(?>a+)b", /atomic group/],
  ];
  for (const [pattern, feature] of cases) {
    assert.throws(
      () => searchText("foobar", pattern, { regex: true }),
      (error: Error) => {
        assert.ok(error instanceof SyntaxError);
        assert.match(error.message, feature);
        assert.match(error.message, /RE2 does not run/);
        assert.match(error.message, /regex: false/);
        return true;
      },
      pattern,
    );
  }
  // The same characters escaped or inside a class are no such feature.
  assert.equal(searchText("(?=a)", "\\(\\?=", { regex: true }).totalMatches, 1);
  assert.equal(searchText("a=b", "[(?=]", { regex: true }).totalMatches, 1);
});

Deno.test("searchText names RE2's complaint about an invalid pattern", () => {
  assert.throws(
    () => searchText("text", "(unclosed", { regex: true }),
    /not valid RE2 syntax \(as in Go and ripgrep\): missing closing \)/,
  );
  assert.throws(
    () => searchText("text", "\\u0041", { regex: true }),
    /invalid escape sequence/,
  );
});

Deno.test("searchText refuses a pattern too large for the text's length, before searching", () => {
  const pad = "ab".repeat(131_072);
  const heavy = "(?:a?){100}a{100}";
  assert.throws(
    () => searchText(pad, heavy, { regex: true }),
    (error: Error) => {
      assert.ok(error instanceof RangeError);
      assert.match(
        error.message,
        /than a text of 262144 UTF-16 units allows \(at most 128,/,
      );
      assert.match(error.message, /current count is 302/);
      assert.match(error.message, /simpler pattern/);
      return true;
    },
  );
  // The same pattern on a shorter text is within the bound.
  assert.ok(302 * 1000 <= MAX_SEARCH_WORK);
  assert.equal(
    searchText("a".repeat(1000), heavy, { regex: true }).totalMatches,
    5,
  );
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
    /… \[match cut: 2000 of 3000 code points shown\]$/,
  );
});

Deno.test("compilePattern quotes every syntax character of a literal pattern", () => {
  const literal = "^$\\.*+?()[]{}|/";
  const matcher = compilePattern(literal, {}).matcher(`x${literal}x`);
  assert.equal(matcher.find(), true);
  assert.equal(matcher.start(), 1);
  assert.throws(
    () => compilePattern("[z-a]", { regex: true, caseInsensitive: true }),
    SyntaxError,
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

/** Every match of `pattern` in `text` in one pass of RE2's matcher. */
function onePass(text: string, pattern: string): [number, number][] {
  const matcher = compilePattern(pattern, { regex: true }).matcher(text);
  const spans: [number, number][] = [];
  while (matcher.find()) spans.push([matcher.start(), matcher.end()]);
  return spans;
}

/** Where searchText's matches start and end, in UTF-16 units. */
function spansOf(text: string, pattern: string): [number, number][] {
  const starts = [0];
  for (
    let at = text.indexOf("\n");
    at !== -1;
    at = text.indexOf("\n", at + 1)
  ) {
    starts.push(at + 1);
  }
  const found = searchText(text, pattern, {
    regex: true,
    maxResults: Infinity,
  });
  assert.equal(found.cut, false);
  // The matched text is whole here: no match is over 2,000 code points.
  return found.matches.map((match) => {
    const start = starts[match.line - 1]! + match.column - 1;
    return [start, start + match.text.length];
  });
}

Deno.test("a regex search finds the same matches as one pass of RE2 over the whole text, line-local or not", () => {
  // Long enough to be searched in many blocks, with lines of every length,
  // astral characters and words across block cuts.
  const words = ["abbc", "ac", "é😀", "q", "word", "", "x", "needle", "\t"];
  const lines: string[] = [];
  let seed = 7;
  for (let i = 0; i < 3000; i++) {
    const count = (seed = (seed * 1103515245 + 12345) % 2 ** 31) % 9;
    const line: string[] = [];
    for (let k = 0; k < count; k++) {
      line.push(words[(seed = (seed * 1103515245 + 12345) % 2 ** 31) % 9]!);
    }
    lines.push(line.join(" "));
  }
  const text = lines.join("\n");
  const patterns = [
    "ab+c|é😀", // within lines: searched a few lines at a time
    "\\bq\\b",
    "^word",
    "x$",
    "(?i)NEEDLE",
    "[a-z]+",
    "^$", // matches the empty string: one pass
    "x?$",
    "c\\nq", // can cross a line end: one pass
    "[^a]{3}",
    "(?s)q.x",
    "\\Aword|x\\z", // begin or end of the whole text: one pass
  ];
  for (const pattern of patterns) {
    assert.deepEqual(spansOf(text, pattern), onePass(text, pattern), pattern);
  }
});

Deno.test("`searchText()` in a process that has not loaded the engine says to await `loadSearchEngine()`", async () => {
  const script = `import { searchText } from "${
    new URL("../../src/text/search.ts", import.meta.url).href
  }";
try { searchText("a", "a+", { regex: true }); } catch (error) { console.log(error.message); }`;
  const { stdout } = await new Deno.Command(Deno.execPath(), {
    args: ["eval", script],
    stderr: "inherit",
  }).output();
  assert.match(
    new TextDecoder().decode(stdout),
    /Cannot search as the search engine is not loaded yet.*await loadSearchEngine\(\)/,
  );
});
