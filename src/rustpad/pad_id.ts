/**
 * Pad ids: the part of a Rustpad URL after `#`, sent as one path segment.
 *
 * @module
 */

/** The longest pad id accepted, in characters. */
export const MAX_PAD_ID_LENGTH = 256;

/** The characters a pad id may hold (length and `.`/`..` checked apart). */
export const PAD_ID_PATTERN: RegExp = /^[A-Za-z0-9._-]+$/;

/** The rule for pad ids, as error messages and tool schemas state it. */
export const PAD_ID_RULE: string =
  `a pad id is 1 to ${MAX_PAD_ID_LENGTH} ASCII letters, digits, '.', '_' or '-', and not '.' or '..'`;

/**
 * Check that `id` is a pad id that reaches the server unchanged: letters,
 * digits, `.`, `_` and `-`, at most 256 characters, and not `.` or `..`
 * (URL resolution folds those before they reach the server).
 *
 * @param id The candidate pad id.
 * @returns `id`, unchanged.
 * @throws {TypeError} If `id` breaks the rule; the message states the rule.
 *
 * @example
 * ```ts
 * import { checkPadId } from "@rustpad-mcp/server";
 * import assert from "node:assert/strict";
 *
 * assert.equal(checkPadId("meeting-notes"), "meeting-notes");
 * assert.throws(() => checkPadId(".."), TypeError);
 * ```
 */
export function checkPadId(id: string): string {
  const rule = PAD_ID_RULE;
  if (typeof id !== "string" || id.length === 0) {
    throw new TypeError(`Cannot use pad id as it is empty: ${rule}`);
  }
  if (id.length > MAX_PAD_ID_LENGTH) {
    throw new TypeError(
      `Cannot use pad id as it is too long: ${rule}; current length is ${id.length}`,
    );
  }
  if (!PAD_ID_PATTERN.test(id) || id === "." || id === "..") {
    throw new TypeError(
      `Cannot use pad id as it breaks the rule: ${rule}; current value is ${
        JSON.stringify(id)
      }`,
    );
  }
  return id;
}
