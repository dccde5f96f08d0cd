/**
 * This process's own edits per pad, newest last, so `undo_last_edit` can
 * take them back one by one: each entry's inverse, rebased over everything
 * written since, keeps what people typed afterwards.
 *
 * @module
 */

import type { TextOperation } from "./operation.ts";
import type { LoggedOperation } from "./revision_log.ts";
import type { PadSession } from "./session.ts";

/** How many own edits per pad can be undone, newest first. */
export const UNDO_DEPTH = 100;

/**
 * A stack of own edits per pad.
 *
 * @example Record, then take back, skipping the undo's own edit
 * ```ts
 * import { UndoHistory } from "./undo.ts";
 * import { TextOperation } from "./operation.ts";
 * import assert from "node:assert/strict";
 *
 * const history = new UndoHistory();
 * const operation = TextOperation.fromJSON(["hi"]);
 * const inverse = TextOperation.fromJSON([-2]);
 * history.record("notes", { revision: 0, author: 1, operation, inverse });
 * assert.equal(history.latest("notes")?.revision, 0);
 * history.pop("notes", 0);
 * history.skip("notes", 1);
 * history.record("notes", { revision: 1, author: 1, operation: inverse, inverse: operation });
 * assert.equal(history.latest("notes"), undefined);
 * ```
 */
export class UndoHistory {
  #edits = new Map<string, LoggedOperation[]>();
  #skipped = new Map<string, Set<number>>();
  #depth: number;

  /**
   * Make an empty history.
   *
   * @param depth Edits kept per pad.
   */
  constructor(depth: number = UNDO_DEPTH) {
    this.#depth = depth;
  }

  /**
   * Remember an own edit as the server applied it. No-ops and edits marked
   * with {@linkcode UndoHistory.skip} are not kept.
   *
   * @param padId The pad.
   * @param entry The history entry, authored by this process.
   */
  record(padId: string, entry: LoggedOperation): void {
    const skipped = this.#skipped.get(padId);
    if (skipped?.delete(entry.revision)) return;
    if (entry.operation.isNoop()) return;
    const edits = this.#edits.get(padId) ?? [];
    edits.push(entry);
    if (edits.length > this.#depth) edits.shift();
    this.#edits.set(padId, edits);
  }

  /**
   * Never keep the own edit at `revision` (an undo is not itself undone);
   * forgets it if already kept.
   *
   * @param padId The pad.
   * @param revision The edit's revision.
   */
  skip(padId: string, revision: number): void {
    const edits = this.#edits.get(padId) ?? [];
    const index = edits.findIndex((entry) => entry.revision === revision);
    if (index !== -1) {
      edits.splice(index, 1);
      return;
    }
    const skipped = this.#skipped.get(padId) ?? new Set();
    skipped.add(revision);
    this.#skipped.set(padId, skipped);
  }

  /**
   * The newest own edit on `padId`.
   *
   * @param padId The pad.
   * @returns The entry, or `undefined` when nothing is left.
   */
  latest(padId: string): LoggedOperation | undefined {
    return this.#edits.get(padId)?.at(-1);
  }

  /** How many own edits on `padId` can be undone. */
  count(padId: string): number {
    return this.#edits.get(padId)?.length ?? 0;
  }

  /**
   * Drop the edit at `revision` once it is undone.
   *
   * @param padId The pad.
   * @param revision The undone edit's revision.
   */
  pop(padId: string, revision: number): void {
    const edits = this.#edits.get(padId) ?? [];
    const index = edits.findIndex((entry) => entry.revision === revision);
    if (index !== -1) edits.splice(index, 1);
  }
}

/**
 * The operation that undoes `entry` now: its inverse rebased over every
 * operation since, by `rebase` (a session's).
 *
 * @param entry The own edit to undo.
 * @param rebase Turns an operation on an older revision into one on the
 * current text.
 * @returns The operation to submit.
 * @throws {RangeError} If the history since is no longer kept.
 *
 * @example
 * ```ts
 * import { undoOperation } from "./undo.ts";
 * import { TextOperation } from "./operation.ts";
 * import assert from "node:assert/strict";
 *
 * const entry = {
 *   revision: 0,
 *   author: 1,
 *   operation: TextOperation.fromJSON(["hi"]),
 *   inverse: TextOperation.fromJSON([-2]),
 * };
 * const op = undoOperation(entry, (operation) => operation);
 * assert.deepEqual(op.toJSON(), [-2]);
 * ```
 */
export function undoOperation(
  entry: LoggedOperation,
  rebase: (operation: TextOperation, baseRevision: number) => TextOperation,
): TextOperation {
  return rebase(entry.inverse, entry.revision + 1);
}

/**
 * Refuse to undo an edit the pad's history no longer holds as it was made:
 * older than the kept window, or gone because the Rustpad server restarted
 * and its history started over, where the inverse would hit other text.
 *
 * @param session The pad's session now.
 * @param padId The pad id, for the message.
 * @param entry The own edit to undo.
 * @throws {Error} Saying why, and that nothing was changed.
 *
 * @example
 * ```ts
 * import { checkUndoable } from "./undo.ts";
 * import { TextOperation } from "./operation.ts";
 * import assert from "node:assert/strict";
 *
 * const entry = {
 *   revision: 3,
 *   author: 1,
 *   operation: TextOperation.fromJSON(["hi"]),
 *   inverse: TextOperation.fromJSON([-2]),
 * };
 * const restarted = { oldestRevision: 0, revision: 1, operationsSince: () => [] };
 * assert.throws(() => checkUndoable(restarted, "notes", entry), /no longer holds it/);
 * ```
 */
export function checkUndoable(
  session: Pick<PadSession, "oldestRevision" | "revision" | "operationsSince">,
  padId: string,
  entry: LoggedOperation,
): void {
  if (entry.revision < session.oldestRevision) {
    throw new Error(
      `Cannot undo the edit at revision ${entry.revision} on pad "${padId}" as the history kept starts later: current oldest revision is ${session.oldestRevision}. Nothing was changed; edit the pad directly`,
    );
  }
  const logged = entry.revision < session.revision
    ? session.operationsSince(entry.revision)[0]
    : undefined;
  if (
    !logged || logged.author !== entry.author ||
    !logged.operation.equals(entry.operation)
  ) {
    throw new Error(
      `Cannot undo the edit at revision ${entry.revision} on pad "${padId}" as the pad's history no longer holds it (the Rustpad server may have restarted): current revision is ${session.revision}. Nothing was changed; edit the pad directly`,
    );
  }
}
