// Code points against UTF-16 units: advancing by code points agrees with
// walking the string one code point at a time, on texts with pairs, lone
// surrogates of both halves, and starts in the middle of a pair.

import assert from "node:assert/strict";
import {
  advanceCodePoints,
  codePointLength,
  sliceCodePoints,
} from "../../src/ot/code_points.ts";

/** The reference: step a unit, or two for a high surrogate before a low one. */
function walk(text: string, from: number, count: number): number {
  let index = from;
  for (let n = 0; n < count && index < text.length; n++) {
    const high = text.charCodeAt(index);
    const low = text.charCodeAt(index + 1);
    index += high >= 0xd800 && high <= 0xdbff && low >= 0xdc00 && low <= 0xdfff
      ? 2
      : 1;
  }
  return index;
}

const PIECES = ["a", "é", "\n", "😀", "\ud83d", "\ude00", "\u200d", "👨"];

function randomText(length: number): string {
  let text = "";
  for (let i = 0; i < length; i++) {
    text += PIECES[Math.floor(Math.random() * PIECES.length)];
  }
  return text;
}

Deno.test("`advanceCodePoints()` agrees with a step-by-step walk from every start, lone surrogates and pair middles included, advances within a text and past its end", () => {
  for (let round = 0; round < 200; round++) {
    const text = randomText(Math.floor(Math.random() * 120));
    for (let from = 0; from <= text.length; from++) {
      for (
        const count of [
          0,
          1,
          2,
          3,
          7,
          31,
          32,
          33,
          70,
          text.length,
          text.length + 5,
        ]
      ) {
        assert.equal(
          advanceCodePoints(text, from, count),
          walk(text, from, count),
          `${JSON.stringify(text)} from ${from} by ${count}`,
        );
      }
    }
  }
});

Deno.test("`codePointLength()` counts a pair once and a lone surrogate once, short texts and long ones, and `sliceCodePoints()` cuts by code points", () => {
  assert.equal(codePointLength("a😀b"), 3);
  assert.equal(codePointLength("\ud83d"), 1);
  assert.equal(codePointLength("\ude00\ud83d"), 2);
  assert.equal(sliceCodePoints("a😀b", 1, 2), "😀");
  assert.equal(sliceCodePoints("a😀b", 2), "b");
  // Long texts are counted by a search for pairs, short ones unit by unit.
  for (let round = 0; round < 300; round++) {
    const text = randomText(Math.floor(Math.random() * 200));
    assert.equal(codePointLength(text), [...text].length);
  }
  assert.equal(codePointLength("\ud83d".repeat(70)), 70);
  assert.equal(codePointLength(`${"x".repeat(70)}\ud83d\ude00`), 71);
});
