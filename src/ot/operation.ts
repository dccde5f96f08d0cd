/**
 * Rustpad's text operation: the `OperationSeq` of the operational-transform
 * crate at its 0.6.1 release, which the Rustpad server and its browser client
 * build with. Lengths and positions count Unicode code points.
 *
 * The builders' normal form lives in `_normal_form.ts`, the algorithms in
 * `_operation_algebra.ts`; most lines left here are the JSDoc example each
 * method carries.
 *
 * @module
 */

import type { Component } from "./component.ts";
import { NormalForm } from "./_normal_form.ts";
import {
  applyComponents,
  composeInto,
  invertInto,
  readComponents,
  transformInto,
  transformPosition,
} from "./_operation_algebra.ts";

/** Reads an operation, the list taken as it is when `owned`. */
let read: (value: unknown, owned: boolean) => TextOperation;

/**
 * A text operation in normal form: no zero-length components, neighbours of
 * the same kind merged, and an insert never directly after a delete. Build one
 * with {@linkcode TextOperation.retain}, {@linkcode TextOperation.delete} and
 * {@linkcode TextOperation.insert}, which keep that form as they go, so two
 * operations with the same effect are equal as JSON.
 *
 * @example Insert a word into a pad's text
 * ```ts
 * import { TextOperation } from "@rustpad-mcp/server";
 * import assert from "node:assert/strict";
 *
 * const op = new TextOperation().retain(5).insert(" there").retain(6);
 * assert.deepEqual(op.apply("hello world"), "hello there world");
 * assert.deepEqual(op.toJSON(), [5, " there", 6]);
 * ```
 */
export class TextOperation {
  #form = new NormalForm();

  /**
   * Read an operation from its JSON form the way the Rustpad server reads an
   * incoming one: as if its components were added one by one, so zero-length
   * parts are dropped and the result is in normal form.
   *
   * @param value The parsed JSON: an array of integers and strings.
   * @returns The operation in normal form.
   * @throws {TypeError} If `value` is not an array of integers and strings.
   *
   * @example Normalise a raw component list
   * ```ts
   * import { TextOperation } from "@rustpad-mcp/server";
   * import assert from "node:assert/strict";
   *
   * const op = TextOperation.fromJSON([2, -1, "n", 0, 2]);
   * assert.deepEqual(op.toJSON(), [2, "n", -1, 2]);
   * ```
   */
  static fromJSON(value: unknown): TextOperation {
    return read(value, false);
  }

  static {
    read = (value, owned) => {
      const op = new TextOperation();
      if (!op.#form.adopt(value, owned)) readComponents(value, op);
      return op;
    };
  }

  /** The components in normal form, in Rustpad's wire form. */
  get components(): readonly Component[] {
    return this.#form.components;
  }

  /** Length in code points of the text the operation applies to. */
  get baseLength(): number {
    return this.#form.baseLength;
  }

  /** Length in code points of the text the operation produces. */
  get targetLength(): number {
    return this.#form.targetLength;
  }

  /**
   * Keep the next `count` code points.
   *
   * @param count How many code points to keep; zero adds nothing.
   * @returns This operation, for chaining.
   * @throws {RangeError} If `count` is negative or not an integer.
   *
   * @example Retain merges with a retain before it
   * ```ts
   * import { TextOperation } from "@rustpad-mcp/server";
   * import assert from "node:assert/strict";
   *
   * assert.deepEqual(new TextOperation().retain(2).retain(3).toJSON(), [5]);
   * ```
   */
  retain(count: number): this {
    this.#form.retain(count);
    return this;
  }

  /**
   * Delete the next `count` code points.
   *
   * @param count How many code points to delete; zero adds nothing.
   * @returns This operation, for chaining.
   * @throws {RangeError} If `count` is negative or not an integer.
   *
   * @example Deletes are negative integers on the wire
   * ```ts
   * import { TextOperation } from "@rustpad-mcp/server";
   * import assert from "node:assert/strict";
   *
   * assert.deepEqual(new TextOperation().delete(2).retain(1).toJSON(), [-2, 1]);
   * ```
   */
  delete(count: number): this {
    this.#form.delete(count);
    return this;
  }

  /**
   * Insert `text` at the cursor. An insert right after a delete goes in front
   * of it, as the crate writes it.
   *
   * @param text The text to insert; the empty string adds nothing.
   * @returns This operation, for chaining.
   *
   * @example An insert after a delete moves in front of it
   * ```ts
   * import { TextOperation } from "@rustpad-mcp/server";
   * import assert from "node:assert/strict";
   *
   * const op = new TextOperation().retain(2).delete(1).insert("n").retain(2);
   * assert.deepEqual(op.toJSON(), [2, "n", -1, 2]);
   * ```
   */
  insert(text: string): this {
    this.#form.insert(text);
    return this;
  }

  /**
   * Whether applying the operation changes nothing: it is empty or a single
   * retain.
   *
   * @returns `true` for a no-op.
   *
   * @example
   * ```ts
   * import { TextOperation } from "@rustpad-mcp/server";
   * import assert from "node:assert/strict";
   *
   * assert.ok(new TextOperation().retain(4).isNoop());
   * ```
   */
  isNoop(): boolean {
    return this.#form.isNoop();
  }

  /**
   * Apply the operation to `text`.
   *
   * For long texts that receive many operations, use
   * {@linkcode TextBuffer} instead: this copies the whole text each time.
   *
   * @param text The text, whose length in code points must be the base length.
   * @returns The new text.
   * @throws {RangeError} If the operation does not fit `text`.
   *
   * @example
   * ```ts
   * import { TextOperation } from "@rustpad-mcp/server";
   * import assert from "node:assert/strict";
   *
   * assert.deepEqual(TextOperation.fromJSON([1, -1, 12]).apply("h🎉e🎉l👨‍👨‍👦‍👦lo"), "he🎉l👨‍👨‍👦‍👦lo");
   * ```
   */
  apply(text: string): string {
    this.#form.checkFits("apply", text);
    return applyComponents(this.#form.components, text);
  }

  /**
   * The operation that undoes this one on `text`, the text it applied to.
   *
   * Law: `invert(S).apply(apply(S)) === S`.
   *
   * @param text The text this operation was applied to.
   * @returns The inverse operation.
   * @throws {RangeError} If the operation does not fit `text`.
   *
   * @example
   * ```ts
   * import { TextOperation } from "@rustpad-mcp/server";
   * import assert from "node:assert/strict";
   *
   * const op = TextOperation.fromJSON([1, -2, "X"]);
   * assert.deepEqual(op.invert("abc").apply(op.apply("abc")), "abc");
   * ```
   */
  invert(text: string): TextOperation {
    this.#form.checkFits("invert", text);
    const inverse = new TextOperation();
    invertInto(this.#form.components, text, inverse);
    return inverse;
  }

  /**
   * One operation with the effect of this one followed by `other`.
   *
   * Law: `compose(a, b).apply(S) === b.apply(a.apply(S))`.
   *
   * @param other An operation whose base length is this one's target length.
   * @returns The composed operation.
   * @throws {RangeError} If `other` does not fit after this operation.
   *
   * @example
   * ```ts
   * import { TextOperation } from "@rustpad-mcp/server";
   * import assert from "node:assert/strict";
   *
   * const a = TextOperation.fromJSON(["ab"]);
   * const b = TextOperation.fromJSON([2, "c"]);
   * assert.deepEqual(a.compose(b).toJSON(), ["abc"]);
   * ```
   */
  compose(other: TextOperation): TextOperation {
    const first = this.#form;
    const second = other.#form;
    if (first.targetLength !== second.baseLength) {
      throw new RangeError(
        `Cannot compose operations as the second one's base length ${second.baseLength} differs from the first one's target length: current target length is ${first.targetLength}`,
      );
    }
    const composed = new TextOperation();
    composeInto(first.components, second.components, composed);
    return composed;
  }

  /**
   * Transform this operation and `other`, made concurrently on the same text,
   * into `[thisPrime, otherPrime]`: `thisPrime` applies after `other`,
   * `otherPrime` after this one, and both orders reach the same text.
   *
   * ```text
   *        S
   *  this / \ other
   *      /   \
   *      \   /
   * otherPrime \ / thisPrime
   *        S'
   * ```
   *
   * When both insert at the same position, THIS operation's insert goes
   * first. The Rustpad server calls `incoming.transform(historyOp)` and keeps
   * the first result, so a client must put its own operation first too.
   *
   * @param other An operation with the same base length.
   * @returns The pair `[thisPrime, otherPrime]`.
   * @throws {RangeError} If the base lengths differ.
   *
   * @example The first operation's insert goes first at a tie
   * ```ts
   * import { TextOperation } from "@rustpad-mcp/server";
   * import assert from "node:assert/strict";
   *
   * const mine = TextOperation.fromJSON([5, "B"]);
   * const theirs = TextOperation.fromJSON([5, "A"]);
   * const [minePrime] = mine.transform(theirs);
   * assert.deepEqual(minePrime.apply(theirs.apply("hello")), "helloBA");
   * ```
   */
  transform(other: TextOperation): [TextOperation, TextOperation] {
    const a = this.#form;
    const b = other.#form;
    if (a.baseLength !== b.baseLength) {
      throw new RangeError(
        `Cannot transform operations as their base lengths differ: current lengths are ${a.baseLength} and ${b.baseLength}`,
      );
    }
    const thisPrime = new TextOperation();
    const otherPrime = new TextOperation();
    transformInto(a.components, b.components, thisPrime, otherPrime);
    return [thisPrime, otherPrime];
  }

  /**
   * Where a cursor at `position` moves when this operation is applied, as
   * the Rustpad server moves stored cursors: right by each insert at or
   * before it, left by the deleted amount before it.
   *
   * @param position A code point offset in the base text.
   * @returns The offset in the target text.
   *
   * @example
   * ```ts
   * import { TextOperation } from "@rustpad-mcp/server";
   * import assert from "node:assert/strict";
   *
   * assert.deepEqual(TextOperation.fromJSON([2, "XY", -2, 2]).transformIndex(4), 4);
   * ```
   */
  transformIndex(position: number): number {
    return transformPosition(this.#form.components, position);
  }

  /**
   * Whether `other` has the same components.
   *
   * @param other The operation to compare with.
   * @returns `true` when both are the same in normal form.
   *
   * @example
   * ```ts
   * import { TextOperation } from "@rustpad-mcp/server";
   * import assert from "node:assert/strict";
   *
   * assert.ok(TextOperation.fromJSON([1, 0, 1]).equals(TextOperation.fromJSON([2])));
   * ```
   */
  equals(other: TextOperation): boolean {
    return this.#form.equals(other.#form);
  }

  /**
   * The operation in Rustpad's wire form, for `JSON.stringify`.
   *
   * @returns A copy of the components.
   *
   * @example
   * ```ts
   * import { TextOperation } from "@rustpad-mcp/server";
   * import assert from "node:assert/strict";
   *
   * assert.deepEqual(JSON.stringify(new TextOperation().insert("hi")), '["hi"]');
   * ```
   */
  toJSON(): Component[] {
    return [...this.#form.components];
  }
}

/**
 * As {@linkcode TextOperation.fromJSON}, for a list that no one else holds
 * (one just parsed from a message): kept as the operation's components when
 * it is already in normal form, not copied. A long history read in a fresh
 * process spends much of its time collecting garbage; a copy of each of its
 * 10,000 lists was a third of the parse.
 *
 * @param value The parsed JSON, which the operation may keep: do not change
 * it afterwards.
 * @returns The operation in normal form.
 * @throws {TypeError} If `value` is not an array of integers and strings.
 *
 * @example
 * ```ts
 * import { fromOwnedJSON } from "./operation.ts";
 * import assert from "node:assert/strict";
 *
 * const op = fromOwnedJSON(JSON.parse('[2, "n", -1, 2]'));
 * assert.equal(op.apply("doggy"), "dongy");
 * ```
 */
export function fromOwnedJSON(value: unknown): TextOperation {
  return read(value, true);
}
