/**
 * The page's undo and redo, as ot.js's UndoManager keeps them: a stack of
 * inverses of the person's own edits; other people's operations transform
 * both stacks, so undo takes back only what this person typed, wherever it
 * has moved to.
 *
 * @module
 */

import type { TextOperation } from "../../ot/operation.ts";

/** Edits typed this close together undo as one. */
const GROUP_MS = 800;

/**
 * Undo and redo stacks of inverses.
 *
 * @example Undo survives someone else's edit before it
 * ```ts
 * import { TextOperation } from "../../ot/operation.ts";
 * import { UndoStack } from "./undo_stack.ts";
 * import assert from "node:assert/strict";
 *
 * const undo = new UndoStack();
 * let text = "ab";
 * const mine = TextOperation.fromJSON([2, "!"]);
 * undo.record(mine, text);
 * text = mine.apply(text);
 * const theirs = TextOperation.fromJSON(["> ", 3]);
 * undo.transform(theirs);
 * text = theirs.apply(text);
 * assert.equal(undo.undo()?.apply(text), "> ab");
 * ```
 */
export class UndoStack {
  readonly #undo: TextOperation[] = [];
  readonly #redo: TextOperation[] = [];
  #lastAt = -Infinity;
  readonly #now: () => number;

  /**
   * An empty pair of stacks.
   *
   * @param now The clock that groups quick edits.
   */
  constructor(now: () => number = () => Date.now()) {
    this.#now = now;
  }

  /**
   * A local edit, about to be applied to `text`: its inverse goes on the
   * undo stack (merged with the previous one if typed just after it) and
   * the redo stack is emptied.
   *
   * @param operation The edit, based on `text`.
   * @param text The text before the edit.
   *
   * @example
   * ```ts
   * import { TextOperation } from "../../ot/operation.ts";
   * import { UndoStack } from "./undo_stack.ts";
   * import assert from "node:assert/strict";
   *
   * const undo = new UndoStack();
   * undo.record(TextOperation.fromJSON(["a"]), "");
   * assert.equal(undo.canUndo, true);
   * ```
   */
  record(operation: TextOperation, text: string): void {
    const inverse = operation.invert(text);
    const now = this.#now();
    const top = this.#undo.at(-1);
    if (top !== undefined && now - this.#lastAt < GROUP_MS) {
      // The new inverse comes first: it undoes the later edit.
      this.#undo[this.#undo.length - 1] = inverse.compose(top);
    } else this.#undo.push(inverse);
    this.#lastAt = now;
    this.#redo.length = 0;
  }

  /**
   * Someone else's operation was applied: both stacks move over it.
   *
   * @param operation The operation, based on the text every entry applies
   * to now.
   *
   * @example
   * ```ts
   * import { TextOperation } from "../../ot/operation.ts";
   * import { UndoStack } from "./undo_stack.ts";
   * import assert from "node:assert/strict";
   *
   * const undo = new UndoStack();
   * undo.record(TextOperation.fromJSON(["a"]), "");
   * undo.transform(TextOperation.fromJSON([1, "b"]));
   * assert.deepEqual(undo.undo()?.toJSON(), [-1, 1]);
   * ```
   */
  transform(operation: TextOperation): void {
    for (const stack of [this.#undo, this.#redo]) {
      let other = operation;
      // Newest first: each entry applies to the text with those above undone.
      for (let i = stack.length - 1; i >= 0; i--) {
        const [entry, next] = stack[i]!.transform(other);
        stack[i] = entry;
        other = next;
      }
    }
    // Typing goes on grouping across others' edits, as in ot.js: the top
    // entry now applies to the current text, so the next inverse composes.
  }

  /**
   * Whether there is something to undo.
   *
   * @example
   * ```ts
   * import { UndoStack } from "./undo_stack.ts";
   * import assert from "node:assert/strict";
   *
   * assert.equal(new UndoStack().canUndo, false);
   * ```
   */
  get canUndo(): boolean {
    return this.#undo.length > 0;
  }

  /**
   * Take the newest inverse to apply as a local edit; its own inverse goes
   * on the redo stack once applied (see {@linkcode UndoStack.pushRedo}).
   *
   * @returns The operation to apply, or `undefined` if nothing is left.
   *
   * @example
   * ```ts
   * import { UndoStack } from "./undo_stack.ts";
   * import assert from "node:assert/strict";
   *
   * assert.equal(new UndoStack().undo(), undefined);
   * ```
   */
  undo(): TextOperation | undefined {
    this.#lastAt = -Infinity;
    return this.#undo.pop();
  }

  /**
   * Take the newest redo to apply as a local edit.
   *
   * @returns The operation to apply, or `undefined` if nothing is left.
   *
   * @example
   * ```ts
   * import { UndoStack } from "./undo_stack.ts";
   * import assert from "node:assert/strict";
   *
   * assert.equal(new UndoStack().redo(), undefined);
   * ```
   */
  redo(): TextOperation | undefined {
    this.#lastAt = -Infinity;
    return this.#redo.pop();
  }

  /**
   * An undo was applied to `text`: its inverse can be redone.
   *
   * @param operation The undo operation, based on `text`.
   * @param text The text before it.
   *
   * @example
   * ```ts
   * import { TextOperation } from "../../ot/operation.ts";
   * import { UndoStack } from "./undo_stack.ts";
   * import assert from "node:assert/strict";
   *
   * const undo = new UndoStack();
   * undo.pushRedo(TextOperation.fromJSON([-1]), "a");
   * assert.deepEqual(undo.redo()?.toJSON(), ["a"]);
   * ```
   */
  pushRedo(operation: TextOperation, text: string): void {
    this.#redo.push(operation.invert(text));
  }

  /**
   * A redo was applied to `text`: it can be undone again, without emptying
   * the redo stack.
   *
   * @param operation The redo operation, based on `text`.
   * @param text The text before it.
   *
   * @example
   * ```ts
   * import { TextOperation } from "../../ot/operation.ts";
   * import { UndoStack } from "./undo_stack.ts";
   * import assert from "node:assert/strict";
   *
   * const undo = new UndoStack();
   * undo.pushUndo(TextOperation.fromJSON(["a"]), "");
   * assert.deepEqual(undo.undo()?.toJSON(), [-1]);
   * ```
   */
  pushUndo(operation: TextOperation, text: string): void {
    this.#undo.push(operation.invert(text));
    this.#lastAt = -Infinity;
  }
}
