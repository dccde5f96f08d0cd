import assert from "node:assert/strict";
import {
  appendOperation,
  findOccurrences,
  replaceAllOperation,
  replaceOperation,
} from "../../src/mod.ts";
import { cpLength, property, Random } from "../_random.ts";

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

// Pairs sharing a half: 😀 and 👨 share their high surrogate (\ud83d), 🎉
// and U+1F789 their low one (\udf89).
const HALVES = ["a", "b", "😀", "👨", "🎉", "\u{1f789}"];

/** The common ends of two texts by code points, the slow obvious way. */
function commonEndsByCodePoints(
  before: string,
  after: string,
): [number, number] {
  const a = [...before];
  const b = [...after];
  const shorter = Math.min(a.length, b.length);
  let prefix = 0;
  while (prefix < shorter && a[prefix] === b[prefix]) prefix++;
  let suffix = 0;
  while (
    suffix < shorter - prefix && a.at(-1 - suffix) === b.at(-1 - suffix)
  ) suffix++;
  return [prefix, suffix];
}

Deno.test("`replaceAllOperation()` deletes and inserts only the middle that differs by code points, never half a pair", () => {
  property(7, (random, where) => {
    const shared = random.text(random.int(4), HALVES);
    const before = random.text(random.int(4), HALVES) + shared +
      random.text(random.int(4), HALVES);
    const after = random.int(2) === 0
      ? random.text(random.int(4), HALVES) + shared +
        random.text(random.int(4), HALVES)
      : [...before].slice(0, random.int(cpLength(before) + 1)).join("") +
        shared;
    const op = replaceAllOperation(before, after);
    assert.equal(op.apply(before), after, where);
    const [prefix, suffix] = commonEndsByCodePoints(before, after);
    let deleted = 0;
    let inserted = 0;
    for (const component of op.components) {
      if (typeof component === "string") {
        assert.ok(component.isWellFormed(), `${where}: ${component}`);
        inserted += cpLength(component);
      } else if (component < 0) deleted -= component;
    }
    assert.equal(deleted, cpLength(before) - prefix - suffix, where);
    assert.equal(inserted, cpLength(after) - prefix - suffix, where);
  });
});

Deno.test("`replaceAllOperation()` keeps a suffix that starts with the pair a prefix ended inside", () => {
  // "a😀" to "a😁😀": compared by units the prefix would stop inside 😀 and
  // leave no room for the suffix; by code points only 😁 is inserted.
  assert.deepEqual(replaceAllOperation("a😀", "a😁😀").toJSON(), [1, "😁", 1]);
});

Deno.test("`replaceOperation()` keeps what search and replace share at either end, at every occurrence", () => {
  const text = "🎉 cat, cat";
  const at = findOccurrences(text, "cat");
  // Extending: only the new letter is inserted.
  assert.deepEqual(replaceOperation(text, "cat", "cart", at).toJSON(), [
    4,
    "r",
    5,
    "r",
    1,
  ]);
  // Shrinking: only the removed letter is deleted.
  assert.deepEqual(replaceOperation(text, "cat", "ct", at).toJSON(), [
    3,
    -1,
    4,
    -1,
    1,
  ]);
  // Sharing a prefix and a suffix: only the middle changes.
  assert.deepEqual(replaceOperation(text, "cat", "cot", at).toJSON(), [
    3,
    "o",
    -1,
    4,
    "o",
    -1,
    1,
  ]);
  // Astral characters at the boundary: 😀 and 😁 share a high surrogate,
  // yet the whole code point is replaced.
  const faces = "x😀y x😀y";
  assert.deepEqual(
    replaceOperation(faces, "x😀y", "x😁y", findOccurrences(faces, "x😀y"))
      .toJSON(),
    [1, "😁", -1, 3, "😁", -1, 1],
  );
  assert.ok(replaceOperation(text, "cat", "cat", at).isNoop());
  property(8, (random, where) => {
    const search = random.text(random.between(1, 3), HALVES);
    const replace = random.text(random.int(4), HALVES) +
      (random.int(2) === 0 ? search : "") + random.text(random.int(3), HALVES);
    const haystack = random.text(random.int(6), HALVES) + search +
      random.text(random.int(6), HALVES) + search;
    const op = replaceOperation(
      haystack,
      search,
      replace,
      findOccurrences(haystack, search),
    );
    assert.equal(op.apply(haystack), haystack.replaceAll(search, replace));
    for (const component of op.components) {
      if (typeof component === "string") {
        assert.ok(component.isWellFormed(), where);
      }
    }
  });
});
