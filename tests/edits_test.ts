import assert from "node:assert/strict";
import {
  appendOperation,
  findOccurrences,
  replaceAllOperation,
  replaceOperation,
} from "../mod.ts";
import { Random } from "./_random.ts";

Deno.test("`replaceAllOperation()` turns any text into any other, keeping common ends", () => {
  const random = new Random(42);
  for (let i = 0; i < 500; i++) {
    const text = random.text(random.int(30));
    const newText = random.next() < 0.5
      ? random.text(random.int(30))
      : [...text].slice(0, random.int(text.length + 1)).join("") +
        random.text(3);
    const op = replaceAllOperation(text, newText);
    assert.equal(op.apply(text), newText, `case ${i}`);
  }
});

Deno.test("`replaceAllOperation()` never splits a surrogate pair", () => {
  // U+1F600 and U+1F601 share their high surrogate.
  const op = replaceAllOperation("a😀b", "a😁b");
  assert.deepEqual(op.toJSON(), [1, "😁", -1, 1]);
  assert.equal(op.apply("a😀b"), "a😁b");
  // U+1F389 and U+1F789 share their low surrogate (\udf89).
  const other = String.fromCodePoint(0x1f789);
  assert.equal(other.charCodeAt(1), "🎉".charCodeAt(1));
  assert.deepEqual(replaceAllOperation("x🎉", `x${other}`).toJSON(), [
    1,
    other,
    -1,
  ]);
});

Deno.test("`replaceAllOperation()` of a text into itself is a no-op", () => {
  assert.ok(replaceAllOperation("same 🎉", "same 🎉").isNoop());
});

Deno.test("`findOccurrences()` finds non-overlapping matches left to right", () => {
  assert.deepEqual(findOccurrences("aaaa", "aa"), [0, 2]);
  assert.deepEqual(findOccurrences("🎉x🎉x", "x"), [2, 5]);
  assert.deepEqual(findOccurrences("abc", "d"), []);
  assert.throws(() => findOccurrences("abc", ""), RangeError);
});

Deno.test("`replaceOperation()` edits only the matched ranges, in code points", () => {
  const text = "👨‍👨‍👦‍👦 cat and cat";
  const op = replaceOperation(text, "cat", "🐕", findOccurrences(text, "cat"));
  assert.deepEqual(op.toJSON(), [8, "🐕", -3, 5, "🐕", -3]);
  assert.equal(op.apply(text), "👨‍👨‍👦‍👦 🐕 and 🐕");
});

Deno.test("`appendOperation()` inserts at the end of a text of the given length", () => {
  assert.deepEqual(appendOperation(3, "!").toJSON(), [3, "!"]);
  assert.deepEqual(appendOperation(0, "x").toJSON(), ["x"]);
});
