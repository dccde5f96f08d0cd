import assert from "node:assert/strict";
import { pageText } from "../../src/text/paging.ts";

const TEXT = "ab🎉cd"; // "🎉" is UTF-16 units 2 and 3, code point 2.

Deno.test("`pageText()` without a limit returns the rest of the text and no next offset", () => {
  assert.deepEqual(pageText(TEXT), {
    text: TEXT,
    offset: 0,
    nextOffset: null,
    totalLength: 5,
  });
  assert.deepEqual(pageText(TEXT, 4), {
    text: "cd",
    offset: 4,
    nextOffset: null,
    totalLength: 5,
  });
});

Deno.test("`pageText()` moves an offset inside a surrogate pair back one unit", () => {
  const page = pageText(TEXT, 3, 2);
  assert.equal(page.offset, 2);
  assert.equal(page.text, "🎉c");
  assert.equal(page.nextOffset, 5);
});

Deno.test("`pageText()` counts its limit in code points, so an emoji counts one", () => {
  const page = pageText(TEXT, 1, 2);
  assert.equal(page.text, "b🎉");
  assert.equal(page.nextOffset, 4);
  assert.equal(pageText("🎉", 0, 1).text, "🎉");
});

Deno.test("`pageText()` walked with next offsets and tiny limits rebuilds the text without splitting a pair", () => {
  const text = "x🎉🎉y\u{1F600}z🎉";
  for (const limit of [1, 2, 3, 5]) {
    const pages: string[] = [];
    let offset: number | null = 0;
    while (offset !== null) {
      const page = pageText(text, offset, limit);
      assert.ok(page.text.length > 0, `limit ${limit} made progress`);
      assert.equal([...page.text].length <= limit, true);
      assert.ok(!/[\ud800-\udbff]$/.test(page.text), "no high half at the end");
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
    totalLength: 5,
  });
});

Deno.test("`pageText()` with limit 0 returns nothing and the same next offset", () => {
  assert.deepEqual(pageText(TEXT, 1, 0), {
    text: "",
    offset: 1,
    nextOffset: 1,
    totalLength: 5,
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
