/**
 * A text that many operations are applied to, such as a pad's history replayed
 * on connect. Applying to a plain string copies the whole text per
 * operation; this keeps the text in small chunks and replaces, in place,
 * only the chunks an operation changes, so an edit costs about what it
 * changes plus a walk over the chunk list. Each chunk counts its line
 * breaks, so a window of lines around a change (for a diff) is found
 * without reading the whole text.
 *
 * @module
 */

import { type Chunk, ChunkCursor, chunksOf } from "./_chunks.ts";
import { foldOperations, foldPlan } from "./_code_point_fold.ts";
import { DeferredInverses } from "./deferred_inverses.ts";
import { codePointLength } from "./code_points.ts";
import { TextOperation } from "./operation.ts";
import { TextLines } from "./text_lines.ts";
import { TextLocator } from "./text_locator.ts";

/** Lines of a text around a change, from {@linkcode TextBuffer.window}. */
export interface TextWindow {
  /** The text of the lines, each with its line break. */
  text: string;
  /** Where it starts in the whole text, in code points. */
  start: number;
  /** The line number (1-based) of its first line. */
  firstLine: number;
  /** Lines of the whole text, as `read_lines` counts them. */
  totalLines: number;
}

/**
 * A text in code points that operations apply to in place.
 *
 * @example Replay a history
 * ```ts
 * import { TextBuffer, TextOperation } from "../mod.ts";
 * import assert from "node:assert/strict";
 *
 * const buffer = new TextBuffer("hello");
 * buffer.apply(TextOperation.fromJSON([5, " world"]));
 * buffer.apply(TextOperation.fromJSON([-1, "H", 10]));
 * assert.deepEqual(buffer.toString(), "Hello world");
 * assert.deepEqual(buffer.length, 11);
 * ```
 */
export class TextBuffer {
  #chunks: Chunk[];
  #length: number;
  #joined: string | undefined;

  /**
   * Create a buffer holding `text`.
   *
   * @param text The initial text.
   */
  constructor(text = "") {
    this.#chunks = chunksOf(text);
    this.#length = this.#chunks.reduce((sum, chunk) => sum + chunk.length, 0);
    this.#joined = text;
  }

  /** Length in code points. */
  get length(): number {
    return this.#length;
  }

  /**
   * Apply `operation` to the text.
   *
   * @param operation An operation whose base length is this text's length.
   * @throws {RangeError} If the operation does not fit; the text is then
   * unchanged.
   */
  apply(operation: TextOperation): void {
    this.#apply(operation, undefined);
  }

  /**
   * Apply `operation` and return its inverse, as
   * {@linkcode TextOperation.invert} on the text before would, at the cost
   * of the operation rather than of the whole text.
   *
   * @param operation An operation whose base length is this text's length.
   * @returns The operation that takes the new text back to the old one.
   * @throws {RangeError} If the operation does not fit; the text is then
   * unchanged.
   *
   * @example
   * ```ts
   * import { TextBuffer, TextOperation } from "../mod.ts";
   * import assert from "node:assert/strict";
   *
   * const buffer = new TextBuffer("hello");
   * const inverse = buffer.applyAndInvert(TextOperation.fromJSON([-1, "J", 4]));
   * assert.equal(buffer.toString(), "Jello");
   * buffer.apply(inverse);
   * assert.equal(buffer.toString(), "hello");
   * ```
   */
  applyAndInvert(operation: TextOperation): TextOperation {
    const inverse = new TextOperation();
    this.#apply(operation, inverse);
    return inverse;
  }

  /**
   * Apply `operations` in order, and return their inverses (as
   * {@linkcode TextBuffer.applyAndInvert} on each would give them), made
   * when one is first asked for. A long list (a pad's history on connect)
   * is applied to the text held as code points and turned back into chunks
   * once (on the busy pad's 10,000 operations, about 0.6 of the time); its
   * inverses are then a second fold, from the text before it, which is held
   * until then.
   *
   * @param operations Operations, each based on the text the ones before
   * it leave.
   * @returns Their inverses, made on first use.
   * @throws {RangeError} If one does not fit; the text is then unchanged.
   *
   * @example
   * ```ts
   * import { TextBuffer, TextOperation } from "../mod.ts";
   * import assert from "node:assert/strict";
   *
   * const buffer = new TextBuffer("hello");
   * const inverses = buffer.applyAllDeferringInverses([
   *   TextOperation.fromJSON([-1, "J", 4]),
   *   TextOperation.fromJSON([5, "y"]),
   * ]);
   * assert.equal(buffer.toString(), "Jelloy");
   * assert.deepEqual(inverses.at(0).toJSON(), ["h", -1, 4]);
   * assert.deepEqual(inverses.at(1).toJSON(), [5, -1]);
   * ```
   */
  applyAllDeferringInverses(
    operations: readonly TextOperation[],
  ): DeferredInverses {
    const { length, fold } = foldPlan(this.#length, operations);
    if (!fold) {
      return DeferredInverses.of(
        operations.map((operation) => this.applyAndInvert(operation)),
      );
    }
    const before = this.#chunks;
    const folded = foldOperations(before, operations, false);
    this.#chunks = folded.chunks;
    this.#length = length;
    this.#joined = undefined;
    return DeferredInverses.later(
      () => foldOperations(before, operations, true).inverses,
      folded.deletedUnits,
    );
  }

  /**
   * An independent copy; chunks are immutable, so this costs one array copy.
   *
   * @returns A buffer with the same text.
   *
   * @example
   * ```ts
   * import { TextBuffer } from "../mod.ts";
   * import assert from "node:assert/strict";
   *
   * const buffer = new TextBuffer("abc");
   * assert.equal(buffer.clone().toString(), "abc");
   * ```
   */
  clone(): TextBuffer {
    const copy = new TextBuffer();
    copy.#chunks = [...this.#chunks];
    copy.#length = this.#length;
    copy.#joined = this.#joined;
    return copy;
  }

  /**
   * The whole lines around code points `start` to `end`, `context` lines
   * more on each side, found by counting line breaks chunk by chunk: what a
   * diff of a change there needs, read without the rest of the text.
   *
   * @param start Where the change starts, in code points.
   * @param end Where it ends (exclusive), in code points.
   * @param context Lines to add before and after.
   * @returns The lines, where they start and their first line number.
   *
   * @example
   * ```ts
   * import { TextBuffer } from "../mod.ts";
   * import assert from "node:assert/strict";
   *
   * const buffer = new TextBuffer("one\ntwo\nthree\nfour\n");
   * assert.deepEqual(buffer.window(9, 10, 1), {
   *   text: "two\nthree\nfour\n",
   *   start: 4,
   *   firstLine: 2,
   *   totalLines: 4,
   * });
   * ```
   */
  window(start: number, end: number, context: number): TextWindow {
    // Not copied: the lines are read before this returns.
    const lines = new TextLines(this.#chunks, this.#length);
    const breaks = lines.breaks;
    const totalLines = lines.count;
    const firstLine = Math.max(1, lines.lineOf(start) - context);
    // As the diff does: the line the change ends on holds position `end`.
    const lastLine = lines.lineOf(end) + context;
    const from = lines.start(firstLine);
    const to = lastLine >= breaks + 1
      ? this.#length
      : lines.start(lastLine + 1);
    return { text: lines.slice(from, to), start: from, firstLine, totalLines };
  }

  /**
   * The lines of the text as it is now (where each starts, which holds a
   * place, a stretch of them), counted chunk by chunk: for a few lines of
   * a long text without joining it.
   *
   * @returns Lines over a copy of the chunk list.
   *
   * @example
   * ```ts
   * import { TextBuffer } from "../mod.ts";
   * import assert from "node:assert/strict";
   *
   * const lines = new TextBuffer("one\ntwo\n").lines();
   * assert.equal(lines.start(2), 4);
   * assert.equal(lines.count, 2);
   * ```
   */
  lines(): TextLines {
    return new TextLines([...this.#chunks], this.#length);
  }

  /**
   * Where code points of the text as it is now lie (UTF-16 offset, line,
   * column), asked in order: for a few places of a long text without
   * walking it.
   *
   * @returns A locator over a copy of the chunk list.
   *
   * @example
   * ```ts
   * import { TextBuffer } from "../mod.ts";
   * import assert from "node:assert/strict";
   *
   * const locator = new TextBuffer("one\ntwo").locator();
   * assert.deepEqual(locator.locate(5), { unit: 5, line: 2, column: 2 });
   * ```
   */
  locator(): TextLocator {
    return new TextLocator([...this.#chunks]);
  }

  /**
   * The whole text.
   *
   * @returns The text as a string; cached until the next change.
   */
  toString(): string {
    this.#joined ??= this.#chunks.map((chunk) => chunk.text).join("");
    return this.#joined;
  }

  #apply(operation: TextOperation, inverse: TextOperation | undefined): void {
    if (operation.baseLength !== this.#length) {
      throw new RangeError(
        `Cannot apply operation as its base length ${operation.baseLength} differs from the text length: current length is ${this.#length}`,
      );
    }
    const cursor = new ChunkCursor(this.#chunks);
    const components = operation.components;
    const last = components.length - 1;
    for (let i = 0; i <= last; i++) {
      const component = components[i]!;
      if (typeof component === "string") {
        const length = codePointLength(component);
        cursor.insert(component, length);
        inverse?.delete(length);
      } else if (component > 0) {
        // A last retain keeps the rest as it is: no need to walk it.
        if (i < last) cursor.retain(component);
        inverse?.retain(component);
      } else {
        const removed = cursor.delete(-component, inverse !== undefined);
        inverse?.insert(removed);
      }
    }
    this.#length = operation.targetLength;
    this.#joined = undefined;
  }
}
