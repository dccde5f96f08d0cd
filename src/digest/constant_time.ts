/**
 * Comparing secrets without telling, by the time it takes, how much of a
 * guess was right.
 *
 * @module
 */

/**
 * Whether `a` and `b` hold the same bytes, in a time that depends on their
 * length only (a MAC's length is no secret).
 *
 * @example
 * ```ts
 * import { equalInConstantTime } from "./constant_time.ts";
 * import assert from "node:assert/strict";
 *
 * assert.ok(equalInConstantTime(new Uint8Array([1, 2]), new Uint8Array([1, 2])));
 * assert.ok(!equalInConstantTime(new Uint8Array([1, 2]), new Uint8Array([1, 3])));
 * ```
 */
export function equalInConstantTime(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let i = 0; i < a.length; i++) difference |= a[i]! ^ b[i]!;
  return difference === 0;
}
