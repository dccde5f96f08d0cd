// The undo stack UndoHistory rebuilds (`undo.ts`): inverses of an agent's
// edits, transformed top-down over everyone else's operations as ot.js's
// UndoManager does.

import type { TextOperation } from "../ot/operation.ts";

/** An entry of the rebuilt stack: the inverse of the edit at `revision`. */
export interface StackEntry {
  revision: number;
  inverse: TextOperation;
}

/**
 * Transform the `count` top entries of `stack` over `operation` (based on
 * the text the top entry is based on), top-down as ot.js's transformStack:
 * each entry's transformed partner goes on to the entry below.
 */
export function transformStack(
  stack: StackEntry[],
  count: number,
  operation: TextOperation,
): TextOperation {
  let passing = operation;
  for (let index = stack.length - 1; index >= stack.length - count; index--) {
    const entry = stack[index]!;
    [entry.inverse, passing] = entry.inverse.transform(passing);
  }
  return passing;
}

/**
 * Our undo of the edit at `revision` landed as `operation`: pop it. Were
 * own edits above it (an edit landed between building and applying the
 * undo), they are transformed over the undo and the entries below stay, as
 * the undo takes them back to the text they are based on.
 */
export function undoIn(
  stack: StackEntry[],
  revision: number,
  operation: TextOperation,
): void {
  const index = stack.findLastIndex((entry) => entry.revision === revision);
  if (index === -1) return void transformStack(stack, stack.length, operation);
  transformStack(stack, stack.length - 1 - index, operation);
  stack.splice(index, 1);
}

/** Take the entry for the edit at `revision` off the stack. */
export function remove(stack: StackEntry[], revision: number): void {
  const index = stack.findLastIndex((entry) => entry.revision === revision);
  if (index !== -1) stack.splice(index, 1);
}
