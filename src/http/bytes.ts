/**
 * Joining byte pieces: a body's chunks, the stdio transport's lines.
 *
 * @module
 */

/**
 * The pieces as one array (the piece itself when there is only one).
 *
 * @example Two pieces
 * ```ts
 * import { concatBytes } from "./bytes.ts";
 * import assert from "node:assert/strict";
 *
 * const joined = concatBytes([new Uint8Array([1]), new Uint8Array([2, 3])]);
 * assert.deepEqual([...joined], [1, 2, 3]);
 * ```
 */
export function concatBytes(parts: readonly Uint8Array[]): Uint8Array {
  if (parts.length === 1) return parts[0]!;
  const joined = new Uint8Array(
    parts.reduce((sum, part) => sum + part.length, 0),
  );
  let offset = 0;
  for (const part of parts) {
    joined.set(part, offset);
    offset += part.length;
  }
  return joined;
}
