/**
 * The operations the MCP tools send, computed from a pad's current text.
 * Each edits only what it must, so what other people type at the same time
 * elsewhere in the pad survives the transform untouched.
 *
 * @module
 */

import { codePointLength } from "../ot/code_points.ts";
import { commonEnds } from "./common_ends.ts";
import { TextOperation } from "../ot/operation.ts";

/**
 * An operation that turns `text` into `newText`, keeping their common
 * prefix and suffix (so cursors there stay put).
 *
 * @param text The current text.
 * @param newText The text wanted.
 * @returns One operation on `text`.
 *
 * @example
 * ```ts
 * import { replaceAllOperation } from "../mod.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(replaceAllOperation("hello world", "hello there").toJSON(), [6, "there", -5]);
 * ```
 */
export function replaceAllOperation(
  text: string,
  newText: string,
): TextOperation {
  const { prefix, suffix } = commonEnds(text, newText);
  return new TextOperation()
    .retain(codePointLength(text.slice(0, prefix)))
    .delete(codePointLength(text.slice(prefix, text.length - suffix)))
    .insert(newText.slice(prefix, newText.length - suffix))
    .retain(codePointLength(text.slice(text.length - suffix)));
}

/**
 * An operation that inserts `addition` at the end of a text.
 *
 * @param length The current text's length in code points.
 * @param addition The text to append verbatim.
 * @returns One operation on the text.
 *
 * @example
 * ```ts
 * import { appendOperation } from "../mod.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(appendOperation(2, "b").apply("a🎉"), "a🎉b");
 * ```
 */
export function appendOperation(
  length: number,
  addition: string,
): TextOperation {
  return new TextOperation().retain(length).insert(addition);
}

/**
 * Where `search` occurs in `text`, left to right without overlaps (as
 * `String.prototype.replaceAll` finds them), as UTF-16 offsets.
 *
 * @param text The text to search.
 * @param search A non-empty string.
 * @param max The most occurrences to find; the search stops there, so a
 * caller bounding its work never holds more.
 * @returns The UTF-16 offset of each occurrence, at most `max` of them.
 * @throws {RangeError} If `search` is empty.
 *
 * @example
 * ```ts
 * import { findOccurrences } from "../mod.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(findOccurrences("aaaa", "aa"), [0, 2]);
 * assert.deepEqual(findOccurrences("aaaa", "a", 3), [0, 1, 2]);
 * ```
 */
export function findOccurrences(
  text: string,
  search: string,
  max = Infinity,
): number[] {
  if (search === "") {
    throw new RangeError(
      "Cannot search for the empty string as it occurs everywhere: current value is empty",
    );
  }
  const found: number[] = [];
  for (
    let at = text.indexOf(search);
    at !== -1 && found.length < max;
    at = text.indexOf(search, at + search.length)
  ) {
    found.push(at);
  }
  return found;
}

/**
 * An operation replacing each occurrence of `search` at `offsets` (UTF-16
 * offsets from {@linkcode findOccurrences}) with `replace`, leaving the rest
 * of `text` retained. What `search` and `replace` share at either end is
 * retained too (compared by code points), so only the middle that differs
 * is deleted and inserted.
 *
 * @param text The text the offsets were found in.
 * @param search The string found.
 * @param replace Its replacement.
 * @param offsets The UTF-16 offsets of the occurrences, ascending.
 * @returns One operation on `text`.
 *
 * @example
 * ```ts
 * import { findOccurrences, replaceOperation } from "../mod.ts";
 * import assert from "node:assert/strict";
 *
 * const text = "🎉 cat, cat";
 * const op = replaceOperation(text, "cat", "dog", findOccurrences(text, "cat"));
 * assert.equal(op.apply(text), "🎉 dog, dog");
 * // "cat" -> "cart" inserts only the "r".
 * const cart = replaceOperation(text, "cat", "cart", findOccurrences(text, "cat"));
 * assert.deepEqual(cart.toJSON(), [4, "r", 5, "r", 1]);
 * ```
 */
export function replaceOperation(
  text: string,
  search: string,
  replace: string,
  offsets: readonly number[],
): TextOperation {
  // Only what differs: what search and replace share at either end is kept.
  const { prefix, suffix } = commonEnds(search, replace);
  const prefixLength = codePointLength(search.slice(0, prefix));
  const removed = codePointLength(search.slice(prefix, search.length - suffix));
  const inserted = replace.slice(prefix, replace.length - suffix);
  const op = new TextOperation();
  let done = 0;
  for (const offset of offsets) {
    op.retain(codePointLength(text.slice(done, offset)) + prefixLength)
      .delete(removed)
      .insert(inserted);
    done = offset + search.length - suffix;
  }
  return op.retain(codePointLength(text.slice(done)));
}
