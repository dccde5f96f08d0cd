/**
 * Where operations delete, for telling whether two edits made on one text
 * remove some of the same code points: transform would quietly merge them,
 * but an edit held for review must not be applied over text already gone.
 *
 * @module
 */

import type { TextOperation } from "./operation.ts";

/**
 * The code point ranges `operation` deletes in its base text, in order, as
 * `[start, end)` pairs.
 *
 * @param operation The operation.
 * @returns Its deleted ranges.
 *
 * @example
 * ```ts
 * import { TextOperation } from "../../mod.ts";
 * import { deletedRanges } from "./deletes.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(deletedRanges(TextOperation.fromJSON([2, -3, "x", 1])), [[2, 5]]);
 * ```
 */
export function deletedRanges(operation: TextOperation): [number, number][] {
  const ranges: [number, number][] = [];
  let at = 0;
  const { components } = operation;
  for (let i = 0; i < components.length; i++) {
    const component = components[i]!;
    if (typeof component !== "number") continue;
    if (component > 0) at += component;
    else {
      ranges.push([at, at - component]);
      at -= component;
    }
  }
  return ranges;
}

/**
 * Whether `a` and `b`, made on the same text, both delete some code point.
 *
 * @param a One operation.
 * @param b Another, with the same base length.
 * @returns `true` if their deletions overlap.
 *
 * @example
 * ```ts
 * import { TextOperation } from "../../mod.ts";
 * import { deletesOverlap } from "./deletes.ts";
 * import assert from "node:assert/strict";
 *
 * const mine = TextOperation.fromJSON([2, -3, 1]);
 * assert.equal(deletesOverlap(mine, TextOperation.fromJSON([4, -2])), true);
 * assert.equal(deletesOverlap(mine, TextOperation.fromJSON([5, -1])), false);
 * ```
 */
export function deletesOverlap(a: TextOperation, b: TextOperation): boolean {
  const ours = deletedRanges(a);
  if (ours.length === 0) return false;
  const theirs = deletedRanges(b);
  let i = 0;
  let j = 0;
  while (i < ours.length && j < theirs.length) {
    const [start, end] = ours[i]!;
    const [otherStart, otherEnd] = theirs[j]!;
    if (start < otherEnd && otherStart < end) return true;
    if (end <= otherEnd) i++;
    else j++;
  }
  return false;
}
