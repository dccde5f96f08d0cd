/**
 * Paging a text: pages start at UTF-16 offsets (the unit JavaScript strings
 * and most clients count for positions) and hold a number of code points
 * (the unit Rustpad counts lengths in), so no page ever cuts a surrogate
 * pair in half.
 *
 * @module
 */

import {
  advanceCodePoints,
  codePointLength,
  isHighSurrogate,
  isLowSurrogate,
} from "../ot/code_points.ts";

/** One page of a text, as {@linkcode pageText} returns it. */
export interface TextPage {
  /** The page's text. */
  text: string;
  /** Where the page starts, in UTF-16 units (the requested offset, adjusted). */
  offset: number;
  /** Where the next page starts, in UTF-16 units, or `null` at the end. */
  nextOffset: number | null;
  /** Length of the whole text in code points. */
  totalLength: number;
}

/** Whether `index` falls between the two halves of a surrogate pair. */
function insidePair(text: string, index: number): boolean {
  return index > 0 && index < text.length &&
    isLowSurrogate(text.charCodeAt(index)) &&
    isHighSurrogate(text.charCodeAt(index - 1));
}

/**
 * The part of `text` from UTF-16 offset `offset`, at most `limit` code
 * points long.
 *
 * An offset between the two halves of a surrogate pair moves back one unit;
 * an offset past the end gives an empty page at the end. Without `limit`
 * the page runs to the end.
 *
 * @param text The whole text.
 * @param offset Where to start, in UTF-16 units (a nonnegative integer).
 * @param limit At most this many code points (a nonnegative integer).
 * @param totalLength The length of `text` in code points, if known (it
 * saves counting them).
 * @returns The page, where it starts, where the next one starts and the
 * whole length in code points.
 * @throws {RangeError} If `offset` or `limit` is negative or not an integer.
 *
 * @example Pages count code points and start at UTF-16 offsets
 * ```ts
 * import { pageText } from "./paging.ts";
 * import assert from "node:assert/strict";
 *
 * // "🎉" is one code point and two UTF-16 units.
 * assert.deepEqual(pageText("ab🎉cd", 0, 3), {
 *   text: "ab🎉",
 *   offset: 0,
 *   nextOffset: 4,
 *   totalLength: 5,
 * });
 * // Starting inside it moves back to its first half.
 * assert.equal(pageText("ab🎉cd", 3, 1).text, "🎉");
 * assert.equal(pageText("ab🎉cd", 4).nextOffset, null);
 * ```
 */
export function pageText(
  text: string,
  offset = 0,
  limit?: number,
  totalLength: number = codePointLength(text),
): TextPage {
  checkCount("offset", offset);
  if (limit !== undefined) checkCount("limit", limit);
  let start = Math.min(offset, text.length);
  if (insidePair(text, start)) start--;
  const end = limit === undefined
    ? text.length
    : advanceCodePoints(text, start, limit);
  return {
    text: start === 0 && end === text.length ? text : text.slice(start, end),
    offset: start,
    nextOffset: end < text.length ? end : null,
    totalLength,
  };
}

function checkCount(name: string, value: number): void {
  if (!Number.isSafeInteger(value) || value < 0) {
    throw new RangeError(
      `Cannot page the text as ${name} must be a nonnegative safe integer: current value is ${value}`,
    );
  }
}
