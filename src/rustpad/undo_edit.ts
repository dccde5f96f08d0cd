/**
 * Undoing one edit named by its place in the history, whoever wrote after
 * it: what `undo_last_edit {edit_id}` sends.
 *
 * @module
 */

import type { TextOperation } from "../ot/operation.ts";
import type { UndoSession } from "./undo.ts";

/**
 * The operation that undoes exactly the edit at history index `at`, on the
 * server's text at `session.revision`: the edit's inverse transformed over
 * every operation after it (people's, other agents', our own), as
 * `undo_last_edit {edit_id}` sends it. It may be a no-op (what the edit
 * changed is gone, or was undone already).
 *
 * @param session The pad's session now.
 * @param padId The pad, for the errors.
 * @param at The edit's index in the history.
 * @param author The user id that sent it, in decimal: the history must
 * still hold that connection's operation at `at`.
 * @returns The operation, based on the text at `session.revision`.
 * @throws {RangeError} When the history kept no longer holds that edit (too
 * old, or the Rustpad server restarted); the message says nothing changed.
 *
 * @example Undo an edit after a person typed before it
 * ```ts
 * import { undoOfEdit } from "./undo_edit.ts";
 * import { RevisionLog } from "./revision_log.ts";
 * import { TextBuffer } from "../ot/text_buffer.ts";
 * import { TextOperation } from "../ot/operation.ts";
 * import assert from "node:assert/strict";
 *
 * const text = new TextBuffer("");
 * const log = new RevisionLog();
 * const write = (author: number, json: (string | number)[]) => {
 *   const operation = TextOperation.fromJSON(json);
 *   log.append({ author, operation, inverse: text.applyAndInvert(operation) });
 * };
 * write(1, ["hi"]);
 * write(2, ["> ", 2]);
 * const session = {
 *   oldestRevision: log.oldestRevision,
 *   revision: log.revision,
 *   operationsSince: (revision: number) => log.since(revision),
 * };
 * assert.equal(undoOfEdit(session, "notes", 0, "1").apply(text.toString()), "> ");
 * ```
 */
export function undoOfEdit(
  session: UndoSession,
  padId: string,
  at: number,
  author: string,
): TextOperation {
  const [edit, ...later] = at >= session.oldestRevision &&
      at < session.revision
    ? session.operationsSince(at)
    : [];
  if (edit === undefined || String(edit.author) !== author) {
    throw new RangeError(
      `Cannot undo the edit of revision ${
        at + 1
      } on pad "${padId}" as the pad's history kept no longer holds it (too old, or the Rustpad server restarted): current revisions kept are ${session.oldestRevision} to ${session.revision}. Nothing was changed; edit the pad directly`,
    );
  }
  let inverse = edit.inverse;
  for (const entry of later) [inverse] = inverse.transform(entry.operation);
  return inverse;
}
