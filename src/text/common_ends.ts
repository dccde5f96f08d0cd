// What a replacement really changes: the text it replaces and the text it
// puts there minus what both start and end with. Every edit the tools send
// is narrowed so, since re-inserting kept text moves people's cursors,
// pushes their concurrent typing around, counts as a deletion for the
// confirmation rule and defeats undo of the edit that wrote it.

import { isHighSurrogate, isLowSurrogate } from "../ot/code_points.ts";

/** The common ends of two strings, from {@linkcode commonEnds}. */
export interface CommonEnds {
  /** Length of the common prefix, in UTF-16 units. */
  prefix: number;
  /** Length of the common suffix, in UTF-16 units; never overlaps the prefix. */
  suffix: number;
}

/**
 * The longest common prefix and then the longest common suffix of `before`
 * and `after` that fit beside it, compared by code points: neither end
 * splits a surrogate pair, so both are whole code points in both strings.
 *
 * @param before The text replaced.
 * @param after The text put in its place.
 * @returns The lengths of the common ends, in UTF-16 units.
 *
 * @example
 * ```ts
 * import { commonEnds } from "./common_ends.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(commonEnds("abc", "abcd"), { prefix: 3, suffix: 0 });
 * assert.deepEqual(commonEnds("a😀b", "a😁b"), { prefix: 1, suffix: 1 });
 * ```
 */
export function commonEnds(before: string, after: string): CommonEnds {
  const shorter = Math.min(before.length, after.length);
  let prefix = 0;
  while (prefix < shorter) {
    const point = before.codePointAt(prefix)!;
    if (point !== after.codePointAt(prefix)) break;
    prefix += point > 0xffff ? 2 : 1;
  }
  const room = shorter - prefix;
  let suffix = 0;
  while (suffix < room) {
    const end = before.length - suffix;
    const width = lastWidth(before, end, prefix);
    const otherEnd = after.length - suffix;
    if (
      width !== lastWidth(after, otherEnd, prefix) || suffix + width > room ||
      before.charCodeAt(end - 1) !== after.charCodeAt(otherEnd - 1) ||
      before.charCodeAt(end - width) !== after.charCodeAt(otherEnd - width)
    ) break;
    suffix += width;
  }
  return { prefix, suffix };
}

/** UTF-16 units of the code point ending at `end`, not reaching below `floor`. */
function lastWidth(text: string, end: number, floor: number): 1 | 2 {
  return end - 2 >= floor && isLowSurrogate(text.charCodeAt(end - 1)) &&
      isHighSurrogate(text.charCodeAt(end - 2))
    ? 2
    : 1;
}
