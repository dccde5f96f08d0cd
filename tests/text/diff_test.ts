import assert from "node:assert/strict";
import { TextBuffer } from "../../src/ot/text_buffer.ts";
import { cpLength, property } from "../_random.ts";
import { unifiedDiff } from "../../src/text/diff.ts";
import { TextOperation } from "../../src/ot/operation.ts";
import { replaceAllOperation } from "../../src/text/edits.ts";

const lines = (n: number) =>
  Array.from({ length: n }, (_, i) => `line ${i + 1}`).join("\n") + "\n";

function diffOf(before: string, after: string, options = {}) {
  return unifiedDiff(before, replaceAllOperation(before, after), options);
}

Deno.test("a one-line change shows 3 lines of context and line numbers", () => {
  const before = lines(10);
  const after = before.replace("line 5\n", "five\n");
  assert.deepEqual(diffOf(before, after), {
    diff: [
      "@@ -2,7 +2,7 @@",
      " line 2",
      " line 3",
      " line 4",
      "-line 5",
      "+five",
      " line 6",
      " line 7",
      " line 8",
    ].join("\n"),
    truncated: false,
  });
});

Deno.test("far-apart changes make two hunks whose new line numbers follow the first", () => {
  const before = lines(30);
  const op = new TextOperation().retain(7).insert("line 1b\n").retain(
    before.length - 7 - 8,
  ).delete(8);
  const { diff } = unifiedDiff(before, op);
  assert.equal(
    diff,
    [
      "@@ -1,4 +1,5 @@",
      " line 1",
      "+line 1b",
      " line 2",
      " line 3",
      " line 4",
      "@@ -27,4 +28,3 @@",
      " line 27",
      " line 28",
      " line 29",
      "-line 30",
    ].join("\n"),
  );
});

Deno.test("appending to a text ending with a newline adds lines after the last", () => {
  assert.equal(
    unifiedDiff("a\nb\n", TextOperation.fromJSON([4, "c\n"])).diff,
    "@@ -1,2 +1,3 @@\n a\n b\n+c",
  );
  assert.equal(
    unifiedDiff("", TextOperation.fromJSON(["x\ny"])).diff,
    "@@ -0,0 +1,2 @@\n+x\n+y",
  );
});

Deno.test("an operation that changes nothing has an empty diff", () => {
  assert.deepEqual(unifiedDiff("abc", TextOperation.fromJSON([3])), {
    diff: "",
    truncated: false,
  });
});

Deno.test("a long diff is cut at maxLines and long lines are cut, both flagged", () => {
  const before = lines(500);
  const { diff, truncated } = diffOf(before, before.replaceAll("line", "LINE"));
  assert.equal(truncated, true);
  assert.equal(diff.split("\n").length, 200);
  assert.match(diff, /diff cut at 200 lines$/);
  const long = unifiedDiff(
    "x".repeat(2000),
    TextOperation.fromJSON([1000, "y", 1000]),
  );
  assert.equal(long.truncated, true);
  assert.match(long.diff, /line cut: 600 more UTF-16 units/);
});

Deno.test("a CRLF text's diff hides the \\r", () => {
  assert.equal(
    diffOf("a\r\nb\r\n", "a\r\nB\r\n").diff,
    "@@ -1,2 +1,2 @@\n a\n-b\n+B",
  );
});

Deno.test("a diff of a 200,000-character pad is computed from the changed ranges", () => {
  const before = lines(20_000);
  const op = new TextOperation().retain(100_000).insert("!").retain(
    before.length - 100_000,
  );
  const started = performance.now();
  const { diff } = unifiedDiff(before, op);
  assert.equal(diff.split("\n").length, 9);
  // Generous: an O(n·m) comparison would take minutes.
  assert.ok(performance.now() - started < 2_000);
});

Deno.test("a change deep inside a long line shows the part around it", () => {
  const line = "a".repeat(5000) + "b".repeat(5000);
  const op = TextOperation.fromJSON([5000, "XYZ", 5000]);
  const { diff, truncated } = unifiedDiff(line, op);
  assert.equal(truncated, true);
  const [, removed, added] = diff.split("\n");
  assert.match(
    removed!,
    /^-\[… 4900 UTF-16 units cut\] a{100}b{400}… \[line cut: 4600 more/,
  );
  assert.match(
    added!,
    /^\+\[… 4900 UTF-16 units cut\] a{100}XYZb{397}… \[line cut: 4603 more/,
  );
});

Deno.test("`unifiedDiff()` of a TextBuffer reads only the lines around the change and gives the same diff as of the string", () => {
  property(30, (random, where) => {
    const lines = Array.from(
      { length: random.between(1, 400) },
      () => random.text(random.int(30)),
    );
    const text = lines.join("\n") + (random.int(2) === 0 ? "\n" : "");
    const buffer = new TextBuffer(text);
    const length = cpLength(text);
    for (let i = 0; i < 5; i++) {
      const operation = random.int(3) === 0
        ? random.edit(length)
        : random.sparse(length, random.between(1, 4), 20);
      for (const context of [0, 1, 3]) {
        assert.deepEqual(
          unifiedDiff(buffer, operation, { context }),
          unifiedDiff(text, operation, { context }),
          `${where}, op ${i}, context ${context}`,
        );
      }
    }
  }, 20);
});
