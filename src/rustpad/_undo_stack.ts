// The undo stack UndoHistory rebuilds (`undo.ts`): inverses of an agent's
// edits, transformed top-down over everyone else's operations as ot.js's
// UndoManager does; and the record of actions it is rebuilt from.

import type { TextOperation } from "../ot/operation.ts";
import type { UserId } from "./protocol.ts";
import { REVISION_LOG_CAPACITY } from "./revision_log.ts";

/**
 * Own operations remembered per pad at most: each is one history operation,
 * so older ones are outside every session's log window anyway.
 */
export const MAX_ACTIONS = 2 * REVISION_LOG_CAPACITY;

/**
 * Suggested undos remembered at most; past it the oldest is forgotten, and
 * counts as an edit if it is accepted.
 */
export const MAX_HELD_UNDOS = 1024;

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

/**
 * Something this process did in a pad's history: an edit (pushes its
 * inverse), an undo of the edit at `undone` (pops it), or a drop of the edit
 * at `undone` with nothing sent, decided at text revision `revision`
 * (before the operation of that index) because its inverse had become empty.
 */
export type Action =
  | { kind: "edit"; revision: number; author: UserId; operation: TextOperation }
  | {
    kind: "undo";
    revision: number;
    author: UserId;
    /** Unknown until the session's event for it arrives. */
    operation: TextOperation | undefined;
    undone: number;
  }
  | { kind: "drop"; revision: number; undone: number };

/** One undo stack per owner (an agent) and pad. */
export function keyOf(owner: string, padId: string): string {
  return `${owner}\u0000${padId}`;
}

/**
 * The edit or undo recorded at `revision`, searched from the newest: an
 * edit's own record is nearly always the last one.
 */
export function knownAt(
  actions: readonly Action[],
  revision: number,
): Exclude<Action, { kind: "drop" }> | undefined {
  for (let i = actions.length - 1; i >= 0; i--) {
    const action = actions[i]!;
    if (order(action) < revision) return undefined;
    if (action.kind !== "drop" && action.revision === revision) return action;
  }
  return undefined;
}

/** Sort key: a drop at revision r comes before the operation at r. */
export function order(action: Action): number {
  return action.kind === "drop" ? action.revision - 0.5 : action.revision;
}
