import assert from "node:assert/strict";
import {
  countLines,
  LineIndex,
  MAX_LINE_LENGTH,
  readLines,
  showLine,
} from "../../src/text/lines.ts";

Deno.test("readLines numbers lines from 1 like cat -n", () => {
  assert.deepEqual(readLines("alpha\nbeta\ngamma"), {
    text: "1\talpha\n2\tbeta\n3\tgamma",
    startLine: 1,
    endLine: 3,
    totalLines: 3,
    nextStartLine: null,
  });
});

Deno.test("readLines treats a final newline as the end of the last line", () => {
  const window = readLines("a\n\nb\n");
  assert.equal(window.text, "1\ta\n2\t\n3\tb");
  assert.equal(window.totalLines, 3);
});

Deno.test("readLines hides the \\r of CRLF line ends but keeps a lone final \\r", () => {
  assert.equal(readLines("a\r\nb\r\nc\r").text, "1\ta\n2\tb\n3\tc\r");
  assert.equal(readLines("x\r\r\n").text, "1\tx\r");
});

Deno.test("readLines walks to the end with next start lines", () => {
  const text = Array.from({ length: 7 }, (_, i) => `line ${i + 1}`).join("\n");
  const seen: string[] = [];
  let start: number | null = 1;
  while (start !== null) {
    const window = readLines(text, start, 3);
    assert.equal(window.totalLines, 7);
    seen.push(window.text);
    start = window.nextStartLine;
  }
  assert.deepEqual(seen, [
    "1\tline 1\n2\tline 2\n3\tline 3",
    "4\tline 4\n5\tline 5\n6\tline 6",
    "7\tline 7",
  ]);
});

Deno.test("readLines past the end or on an empty text shows no lines", () => {
  assert.deepEqual(readLines("a\nb", 5, 10), {
    text: "",
    startLine: 5,
    endLine: 4,
    totalLines: 2,
    nextStartLine: null,
  });
  assert.deepEqual(readLines(""), {
    text: "",
    startLine: 1,
    endLine: 0,
    totalLines: 0,
    nextStartLine: null,
  });
});

Deno.test("readLines refuses a start line or count below 1", () => {
  assert.throws(() => readLines("a", 0), /start line must be a positive/);
  assert.throws(() => readLines("a", 1, 0), /line count must be a positive/);
});

Deno.test("a line longer than the limit is cut with a marker naming its length and where the rest is", () => {
  const text = "short\n" + "y".repeat(MAX_LINE_LENGTH + 500);
  const [, second] = readLines(text).text.split("\n");
  assert.equal(
    second,
    `2\t${
      "y".repeat(MAX_LINE_LENGTH)
    }… [line cut: 2000 of 2500 code points shown; the rest starts at offset 2006]`,
  );
});

Deno.test("a long line is cut after 2000 code points, never inside a surrogate pair", () => {
  const line = "a".repeat(MAX_LINE_LENGTH - 1) + "🎉" + "b";
  const shown = showLine(line, 0, line.length);
  assert.ok(shown.startsWith("a".repeat(MAX_LINE_LENGTH - 1) + "🎉…"));
  assert.match(
    shown,
    /2000 of 2001 code points shown; the rest starts at offset 2001/,
  );
  const emoji = "🎉".repeat(MAX_LINE_LENGTH);
  assert.equal(showLine(emoji, 0, emoji.length), emoji);
  assert.equal(
    showLine("x".repeat(MAX_LINE_LENGTH), 0, MAX_LINE_LENGTH).length,
    MAX_LINE_LENGTH,
  );
});

Deno.test("countLines and LineIndex agree on where lines start", () => {
  assert.equal(countLines("a\r\nb"), 2);
  const index = new LineIndex("ab\r\ncd\n");
  assert.equal(index.count, 3);
  assert.equal(index.lineOf(0), 1);
  assert.equal(index.lineOf(3), 1);
  assert.equal(index.lineOf(4), 2);
  assert.equal(index.lineOf(7), 3);
  assert.equal(index.show(1), "ab");
  assert.equal(index.end(2), 6);
});
