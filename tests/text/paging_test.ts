import assert from "node:assert/strict";
import { pageText } from "../../src/text/paging.ts";

const TEXT = "ab🎉cd"; // "🎉" is UTF-16 units 2 and 3; the text is 6 units.

Deno.test("`pageText()` without a limit returns the rest of the text, no next offset and the length in UTF-16 units", () => {
  assert.deepEqual(pageText(TEXT), {
    text: TEXT,
    offset: 0,
    nextOffset: null,
    totalLength: 6,
  });
  assert.deepEqual(pageText(TEXT, 4), {
    text: "cd",
    offset: 4,
    nextOffset: null,
    totalLength: 6,
  });
});

Deno.test("`pageText()` moves an offset inside a surrogate pair back one unit and reports it", () => {
  const page = pageText(TEXT, 3, 3);
  assert.equal(page.offset, 2);
  assert.equal(page.text, "🎉c");
  assert.equal(page.nextOffset, 5);
});

Deno.test("`pageText()` counts its limit in UTF-16 units, moving an end inside a pair back one unit", () => {
  // The case: "abc😀def" from 0 with limit 4 ends inside "😀".
  assert.deepEqual(pageText("abc😀def", 0, 4), {
    text: "abc",
    offset: 0,
    nextOffset: 3,
    totalLength: 8,
  });
  assert.deepEqual(pageText("abc😀def", 0, 5), {
    text: "abc😀",
    offset: 0,
    nextOffset: 5,
    totalLength: 8,
  });
});

Deno.test("`pageText()` moves an end inside a pair forward when moving back would return nothing", () => {
  assert.deepEqual(pageText(TEXT, 2, 1), {
    text: "🎉",
    offset: 2,
    nextOffset: 4,
    totalLength: 6,
  });
  assert.equal(pageText("🎉", 0, 1).text, "🎉");
});

Deno.test("`pageText()` walked with next offsets and tiny limits rebuilds the text without splitting a pair", () => {
  const text = "x🎉🎉y\u{1F600}z🎉";
  for (const limit of [1, 2, 3, 5]) {
    const pages: string[] = [];
    let offset: number | null = 0;
    while (offset !== null) {
      const page = pageText(text, offset, limit);
      assert.equal(page.offset, offset, "a walk never starts inside a pair");
      assert.ok(page.text.length > 0, `limit ${limit} made progress`);
      assert.ok(page.text.length <= Math.max(limit, 2), "within the limit");
      assert.ok(page.text.isWellFormed(), "no half of a pair");
      pages.push(page.text);
      offset = page.nextOffset;
    }
    assert.equal(pages.join(""), text);
  }
});

Deno.test("`pageText()` gives an empty page at the end for an offset past it", () => {
  assert.deepEqual(pageText(TEXT, 99, 3), {
    text: "",
    offset: 6,
    nextOffset: null,
    totalLength: 6,
  });
});

Deno.test("`pageText()` with limit 0 returns nothing and the same next offset", () => {
  assert.deepEqual(pageText(TEXT, 1, 0), {
    text: "",
    offset: 1,
    nextOffset: 1,
    totalLength: 6,
  });
  assert.deepEqual(pageText("", 0, 0), {
    text: "",
    offset: 0,
    nextOffset: null,
    totalLength: 0,
  });
});

Deno.test("`pageText()` accepts the largest safe integers and refuses negative or fractional counts", () => {
  const max = Number.MAX_SAFE_INTEGER;
  assert.equal(pageText(TEXT, 0, max).text, TEXT);
  assert.equal(pageText(TEXT, max, max).text, "");
  assert.throws(() => pageText(TEXT, -1), /offset must be a nonnegative/);
  assert.throws(() => pageText(TEXT, 0, 1.5), /limit must be a nonnegative/);
});
