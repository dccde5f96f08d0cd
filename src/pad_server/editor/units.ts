/**
 * Between the wire and the browser's editor: Rustpad counts positions in
 * Unicode code points, the editor in UTF-16 units. These conversions turn an
 * operation into editor changes and back, and move single positions, so an
 * emoji (two units, one code point) lands where it was typed.
 *
 * @module
 */

import { TextOperation } from "../../ot/operation.ts";
import { advanceCodePoints, codePointLength } from "../../ot/code_points.ts";

/** One change in the editor's units: replace `from`..`to` with `insert`. */
export interface Utf16Change {
  /** Start, in UTF-16 units of the text before the change. */
  readonly from: number;
  /** End, in UTF-16 units of the text before the change. */
  readonly to: number;
  /** The inserted text. */
  readonly insert: string;
}

/**
 * The UTF-16 offset of code point `position` of `text`, clamped to the end.
 *
 * @param text The text.
 * @param position A code point offset.
 * @returns The UTF-16 offset.
 *
 * @example
 * ```ts
 * import { toUtf16Offset } from "./units.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(toUtf16Offset("🎉a", 1), 2);
 * ```
 */
export function toUtf16Offset(text: string, position: number): number {
  return advanceCodePoints(text, 0, position);
}

/**
 * The code point offset of UTF-16 offset `offset` of `text`; an offset in
 * the middle of a surrogate pair counts the whole pair as before it.
 *
 * @param text The text.
 * @param offset A UTF-16 offset.
 * @returns The code point offset.
 *
 * @example
 * ```ts
 * import { toCodePointOffset } from "./units.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(toCodePointOffset("🎉a", 2), 1);
 * ```
 */
export function toCodePointOffset(text: string, offset: number): number {
  return codePointLength(text.slice(0, Math.min(offset, text.length)));
}

/**
 * An operation as editor changes, all in units of the text before it, in
 * order and not overlapping, as CodeMirror's change specs expect.
 *
 * @param operation The operation, based on `text`.
 * @param text The text the operation applies to.
 * @returns The changes.
 *
 * @example
 * ```ts
 * import { TextOperation } from "../../ot/operation.ts";
 * import { toUtf16Changes } from "./units.ts";
 * import assert from "node:assert/strict";
 *
 * const op = TextOperation.fromJSON([1, -1, "x"]);
 * assert.deepEqual(toUtf16Changes(op, "🎉🎈"), [{ from: 2, to: 4, insert: "x" }]);
 * ```
 */
export function toUtf16Changes(
  operation: TextOperation,
  text: string,
): Utf16Change[] {
  const changes: Utf16Change[] = [];
  let index = 0;
  for (const component of operation.components) {
    if (typeof component === "string") {
      const last = changes.at(-1);
      // A delete then an insert at one place is one replacement.
      if (last !== undefined && last.to === index) {
        changes[changes.length - 1] = {
          ...last,
          insert: last.insert + component,
        };
      } else changes.push({ from: index, to: index, insert: component });
    } else if (component > 0) {
      index = advanceCodePoints(text, index, component);
    } else {
      const to = advanceCodePoints(text, index, -component);
      const last = changes.at(-1);
      if (last !== undefined && last.to === index) {
        changes[changes.length - 1] = { ...last, to };
      } else changes.push({ from: index, to, insert: "" });
      index = to;
    }
  }
  return changes;
}

/**
 * Editor changes as one operation: the changes are in units of `text`, in
 * order and not overlapping.
 *
 * @param text The text before the changes.
 * @param changes The changes, sorted by position.
 * @returns The operation, in code points.
 *
 * @example
 * ```ts
 * import { fromUtf16Changes } from "./units.ts";
 * import assert from "node:assert/strict";
 *
 * const op = fromUtf16Changes("🎉🎈", [{ from: 2, to: 2, insert: "!" }]);
 * assert.deepEqual(op.toJSON(), [1, "!", 1]);
 * ```
 */
export function fromUtf16Changes(
  text: string,
  changes: readonly Utf16Change[],
): TextOperation {
  const operation = new TextOperation();
  let index = 0;
  for (const { from, to, insert } of changes) {
    operation.retain(codePointLength(text.slice(index, from)));
    operation.delete(codePointLength(text.slice(from, to)));
    operation.insert(insert);
    index = to;
  }
  return operation.retain(codePointLength(text.slice(index)));
}

/**
 * The operation that turns `before` into `after`: the text both share at
 * each end is kept, the middle replaced.
 *
 * @param before The old text.
 * @param after The new text.
 * @returns An operation based on `before` whose result is `after`.
 *
 * @example
 * ```ts
 * import { diffOperation } from "./units.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(diffOperation("a🎉c", "a🎈c").toJSON(), [1, "🎈", -1, 1]);
 * ```
 */
export function diffOperation(before: string, after: string): TextOperation {
  let start = 0;
  const shorter = Math.min(before.length, after.length);
  while (start < shorter && before[start] === after[start]) start++;
  let end = 0;
  while (
    end < shorter - start &&
    before[before.length - 1 - end] === after[after.length - 1 - end]
  ) end++;
  // Never split a surrogate pair: widen the middle to whole code points.
  if (isPairEnd(before, start) || isPairEnd(after, start)) start--;
  if (
    isPairEnd(before, before.length - end) ||
    isPairEnd(after, after.length - end)
  ) end--;
  return fromUtf16Changes(before, [{
    from: start,
    to: before.length - end,
    insert: after.slice(start, after.length - end),
  }]);
}

/** Whether `index` falls between the two halves of a surrogate pair. */
function isPairEnd(text: string, index: number): boolean {
  if (index <= 0 || index >= text.length) return false;
  const unit = text.charCodeAt(index);
  const previous = text.charCodeAt(index - 1);
  return unit >= 0xdc00 && unit <= 0xdfff && previous >= 0xd800 &&
    previous <= 0xdbff;
}
