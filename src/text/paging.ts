/**
 * Paging a text in UTF-16 units, the unit JavaScript strings and most
 * clients count positions in: where a page starts, how long it may be,
 * where the next one starts and how long the whole text is, all in one
 * unit, so a client can compute an offset near the end. No page cuts a
 * surrogate pair in half: a cut inside one moves (see {@linkcode pageText}).
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
  /** Where the next page starts, in UTF-16 units, or `null` at the end. */
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
 * The part of `text` from UTF-16 offset `offset`, at most `limit` UTF-16
 * units long, never cutting a surrogate pair.
 *
 * A start between the two halves of a pair moves back one unit (the page
 * reports where it really starts); an end between them moves back one
 * unit, or forward one if that would leave the page empty (a limit of 1 on
 * an emoji returns the emoji, 2 units). An offset past the end gives an
 * empty page at the end. Without `limit` the page runs to the end.
 *
 * @param text The whole text.
 * @param offset Where to start, in UTF-16 units (a nonnegative integer).
 * @param limit At most this many UTF-16 units (a nonnegative integer),
 * but for the one pair a page of 1 cannot hold.
 * @returns The page, where it starts, where the next one starts and the
 * whole length, all in UTF-16 units.
 * @throws {RangeError} If `offset` or `limit` is negative or not an integer.
 *
 * @example Pages count UTF-16 units and never split an emoji
 * ```ts
 * import { pageText } from "./paging.ts";
 * import assert from "node:assert/strict";
 *
 * // "😀" is two UTF-16 units, 3 and 4.
 * assert.deepEqual(pageText("abc😀def", 0, 4), {
 *   text: "abc",
 *   offset: 0,
 *   nextOffset: 3,
 *   totalLength: 8,
 * });
 * // An end cut that would leave nothing takes the whole emoji.
 * assert.equal(pageText("abc😀def", 3, 1).text, "😀");
 * // Starting inside it moves back to its first half.
 * assert.equal(pageText("abc😀def", 4, 3).offset, 3);
 * ```
 */
export function pageText(
  text: string,
  offset = 0,
  limit?: number,
): TextPage {
  checkCount("offset", offset);
  if (limit !== undefined) checkCount("limit", limit);
  let start = Math.min(offset, text.length);
  if (insidePair(text, start)) start--;
  let end = limit === undefined
    ? text.length
    : Math.min(start + limit, text.length);
  if (insidePair(text, end)) end = end - 1 > start ? end - 1 : end + 1;
  return {
    text: start === 0 && end === text.length ? text : text.slice(start, end),
    offset: start,
    nextOffset: end < text.length ? end : null,
    totalLength: text.length,
  };
}

function checkCount(name: string, value: number): void {
  if (!Number.isSafeInteger(value) || value < 0) {
    throw new RangeError(
      `Cannot page the text as ${name} must be a nonnegative safe integer: current value is ${value}`,
    );
  }
}
