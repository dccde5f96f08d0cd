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

/** The longest piece of a rejected value an error message quotes. */
const MAX_QUOTED_LENGTH = 80;

/**
 * What is wrong with `id` as a pad id, as one sentence that quotes it (cut
 * at 80 characters) and, for a pasted editor URL, names the id to use; or
 * `undefined` if it is a pad id.
 *
 * @param id The candidate pad id.
 * @returns The sentence, or `undefined`.
 *
 * @example
 * ```ts
 * import { padIdProblem } from "../mod.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(padIdProblem("notes"), undefined);
 * assert.match(padIdProblem("https://rustpad.io/#notes")!, /use "notes"/);
 * ```
 */
export function padIdProblem(id: string): string | undefined {
  const shown = JSON.stringify(
    id.length > MAX_QUOTED_LENGTH ? `${id.slice(0, MAX_QUOTED_LENGTH)}…` : id,
  );
  const cannot = `Cannot use pad id ${shown}`;
  if (id.length === 0) return `${cannot} as it is empty: ${PAD_ID_RULE}`;
  const hash = id.lastIndexOf("#");
  const after = id.slice(hash + 1);
  if (hash >= 0 && padIdProblem(after) === undefined) {
    return `${cannot} as it is an editor URL, not its id: use "${after}", the part after '#'`;
  }
  if (id.length > MAX_PAD_ID_LENGTH) {
    return `${cannot} as it is ${id.length} characters long: ${PAD_ID_RULE}`;
  }
  if (!PAD_ID_PATTERN.test(id) || id === "." || id === "..") {
    return `${cannot} as it breaks the rule: ${PAD_ID_RULE}`;
  }
  return undefined;
}

/**
 * Check that `id` is a pad id that reaches the server unchanged: letters,
 * digits, `.`, `_` and `-`, at most 256 characters, and not `.` or `..`
 * (URL resolution folds those before they reach the server).
 *
 * @param id The candidate pad id.
 * @returns `id`, unchanged.
 * @throws {TypeError} If `id` breaks the rule; the message quotes it and
 * states the rule.
 *
 * @example
 * ```ts
 * import { checkPadId } from "../mod.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(checkPadId("meeting-notes"), "meeting-notes");
 * assert.throws(() => checkPadId(".."), TypeError);
 * ```
 */
export function checkPadId(id: string): string {
  const problem = typeof id === "string"
    ? padIdProblem(id)
    : `Cannot use pad id as it is not a string: ${PAD_ID_RULE}`;
  if (problem !== undefined) throw new TypeError(problem);
  return id;
}
