/**
 * Paging a text in UTF-16 code units, the unit JavaScript strings and most
 * clients count, without ever cutting a surrogate pair in half.
 *
 * @module
 */

import { isHighSurrogate, isLowSurrogate } from "../ot/code_points.ts";

/** One page of a text, as {@linkcode pageText} returns it. */
export interface TextPage {
  /** The page's text. */
  text: string;
  /** Where the page starts, in UTF-16 units (the requested offset, adjusted). */
  offset: number;
  /** Where the next page starts, or `null` if this page reaches the end. */
  nextOffset: number | null;
  /** Length of the whole text in UTF-16 units. */
  totalLength: number;
}

/** Whether `index` falls between the two halves of a surrogate pair. */
function insidePair(text: string, index: number): boolean {
  return index > 0 && index < text.length &&
    isLowSurrogate(text.charCodeAt(index)) &&
    isHighSurrogate(text.charCodeAt(index - 1));
}

/**
 * The part of `text` from `offset`, at most `limit` UTF-16 units long.
 *
 * No character is cut in half: an offset between the two halves of a
 * surrogate pair moves back one unit; an end between them moves back one
 * unit, or forward one if moving back would leave the page empty. An offset
 * past the end gives an empty page at the end. Without `limit` the page runs
 * to the end.
 *
 * @param text The whole text.
 * @param offset Where to start, in UTF-16 units (a nonnegative integer).
 * @param limit At most this many UTF-16 units (a nonnegative integer), give
 * or take the one unit a surrogate pair needs.
 * @returns The page, where it starts, where the next one starts and the
 * whole length.
 * @throws {RangeError} If `offset` or `limit` is negative or not an integer.
 *
 * @example Pages never cut an emoji
 * ```ts
 * import { pageText } from "./paging.ts";
 * import assert from "node:assert/strict";
 *
 * // "🎉" is two UTF-16 units: the page ending inside it stops before it.
 * assert.deepEqual(pageText("ab🎉cd", 0, 3), {
 *   text: "ab",
 *   offset: 0,
 *   nextOffset: 2,
 *   totalLength: 6,
 * });
 * // Starting inside it moves back to its first half.
 * assert.equal(pageText("ab🎉cd", 3, 2).text, "🎉");
 * assert.equal(pageText("ab🎉cd", 4).nextOffset, null);
 * ```
 */
export function pageText(
  text: string,
  offset = 0,
  limit?: number,
): TextPage {
  checkCount("offset", offset);
  if (limit !== undefined) checkCount("limit", limit);
  const totalLength = text.length;
  let start = Math.min(offset, totalLength);
  if (insidePair(text, start)) start--;
  let end = limit === undefined
    ? totalLength
    : Math.min(start + limit, totalLength);
  if (insidePair(text, end)) end = end - 1 > start ? end - 1 : end + 1;
  return {
    text: start === 0 && end === totalLength ? text : text.slice(start, end),
    offset: start,
    nextOffset: end < totalLength ? end : null,
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
