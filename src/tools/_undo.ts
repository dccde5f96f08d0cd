// What undo_last_edit undoes: the caller's last edit on the pad (its undo
// stack), or exactly the edit an edit_id names, rebased over everything
// after it; and the words for asking a person about it.

import type { LivePads } from "../backend/live_pads.ts";
import type { TextOperation } from "../ot/operation.ts";
import type { PadSession } from "../rustpad/session.ts";
import { undoOfEdit } from "../rustpad/undo_edit.ts";
import type { EditRef } from "../safety/edit_ids.ts";
import type { ToolContext } from "./tool.ts";

/** The edit one undo call takes back, and how to build its undo. */
export interface UndoTarget {
  /** The edit's index in the pad's history. */
  readonly undone: number;
  /** The agent whose undo stack holds it, if this process knows one. */
  readonly owner: string | undefined;
  /**
   * The undo on `session`'s text now; throws if what it undoes changed
   * meanwhile. May be a no-op.
   */
  build(session: PadSession): TextOperation;
  /** The refusal for an undo found to change nothing, at `revision`. */
  emptied(revision: number): Error;
}

/**
 * The caller's last own edit on `padId`: refuses (nothing left, history
 * gone, or a caller that cannot be told apart) before anyone is asked.
 */
export function lastOwnEdit(
  context: ToolContext,
  live: LivePads,
  padId: string,
  session: PadSession,
): UndoTarget {
  const { agent } = context;
  if (!context.agentKnown) {
    throw new Error(
      `Cannot undo on pad "${padId}" without edit_id as this caller is the one unnamed token that any number of callers share, without a session: current edit_id is none. Nothing was changed; pass the edit_id of the write to undo (every write result has one)`,
    );
  }
  // Refuses (nothing left, history gone) before asking anyone.
  live.undo.rebuild(agent, padId, session);
  const undone = live.undo.latest(agent, padId)!;
  return {
    undone,
    owner: agent,
    build(session) {
      const latest = live.undo.latest(agent, padId);
      if (latest !== undone) {
        throw new Error(
          `Cannot undo your edit of revision ${
            undone + 1
          } on pad "${padId}" as your undo list changed meanwhile: current latest edit is of revision ${
            latest === undefined ? "none" : latest + 1
          }. Nothing was changed; call again`,
        );
      }
      return session.rebase(
        live.undo.rebuild(agent, padId, session),
        session.revision,
      );
    },
    emptied(revision) {
      live.undo.drop(agent, padId, undone, revision);
      return new Error(
        `Cannot undo your edit of revision ${
          undone + 1
        } on pad "${padId}" as all it wrote has since been deleted: current revision is ${revision}. Nothing was changed; the edit is off your undo list, so calling again undoes the one before it (${
          live.undo.count(agent, padId)
        } left)`,
      );
    },
  };
}

/**
 * The edit `editId` names: checked to be the caller identity's and on
 * `padId`; `build` checks it is still in the pad's history.
 */
export async function namedEdit(
  context: ToolContext,
  live: LivePads,
  padId: string,
  editId: string,
): Promise<UndoTarget> {
  const ref = await context.backend.editIds.open(editId, {
    identity: context.identity,
    padId,
  });
  const undone = ref.revision - 1;
  const build = (session: PadSession): TextOperation => {
    checkSameHistory(session, ref);
    return session.rebase(
      undoOfEdit(session, padId, undone, ref.author),
      session.revision,
    );
  };
  return {
    undone,
    owner: live.ownerOf(padId, undone),
    build,
    emptied: (revision) =>
      new Error(
        `Cannot undo the edit of revision ${ref.revision} on pad "${padId}" as all it changed has since been deleted or undone: current revision is ${revision}. Nothing was changed`,
      ),
  };
}

/**
 * Refuse to suggest undoing `owner`'s edit at `undone` while a suggestion
 * to undo it is pending: the people would be asked the same thing twice,
 * and the second, once the first is accepted, could not land.
 */
export async function refuseSuggestedTwice(
  context: ToolContext,
  live: LivePads,
  padId: string,
  owner: string,
  undone: number,
): Promise<void> {
  const held = live.undo.heldUndosOf(owner, undone);
  if (held.length === 0) return;
  const { records } = await context.backend.suggestions.records(padId);
  const pending = records.find((record) =>
    record.status === "pending" && held.includes(record.id)
  );
  if (pending === undefined) return;
  throw new Error(
    `Cannot suggest undoing the edit of revision ${
      undone + 1
    } on pad "${padId}" as suggestion ${pending.id} already suggests it: current status is pending. Nothing was held; wait for the person's decision (wait_for_change), withdraw it (withdraw_suggestion), or pass an earlier write's edit_id to suggest undoing that one`,
  );
}

/**
 * Refuse an edit_id whose edit is not in `session`'s history: the pad
 * restarted since (a Rustpad restart, or a pad server that compacted its
 * log), so its revision names another operation or none.
 */
function checkSameHistory(session: PadSession, ref: EditRef): void {
  const lineage = session.lineageAt(ref.revision);
  const operation = session.operationDigest(ref.revision - 1);
  // Too old to tell: undoOfEdit refuses it as such.
  if (lineage === ref.lineage && operation === undefined) return;
  if (lineage === ref.lineage && operation === ref.operation) return;
  const why = lineage === undefined
    ? "the pad's history is shorter now"
    : lineage !== ref.lineage
    ? "the pad's history no longer begins as it did when the edit was made"
    : `revision ${ref.revision} now holds another edit`;
  throw new RangeError(
    `Cannot undo the edit of revision ${ref.revision} on pad "${session.padId}" as the pad restarted since this edit (${why}), so undoing it would take back someone else's text: current revision is ${session.revision}. Nothing was changed; read the pad again and edit it directly`,
  );
}

/**
 * The question for a person: what the undo removes (what the edit wrote)
 * and what it restores (what the edit deleted, often people's text).
 */
export function undoQuestion(
  padId: string,
  undone: number,
  undo: TextOperation,
): string {
  const removes = deletedBy(undo);
  const restores = undo.targetLength - undo.baseLength + removes;
  return `Undo your edit of revision ${
    undone + 1
  } on pad "${padId}", removing the ${removes} code points it wrote and restoring the ${restores} it deleted (the pad goes from ${undo.baseLength} to ${undo.targetLength} code points)?`;
}

/** Code points `operation` deletes. */
export function deletedBy(operation: TextOperation): number {
  let deleted = 0;
  for (const component of operation.components) {
    if (typeof component === "number" && component < 0) deleted -= component;
  }
  return deleted;
}
