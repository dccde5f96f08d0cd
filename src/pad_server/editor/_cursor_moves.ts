// How positions follow the text: others' cursors through an operation,
// the server's cursors over our unacknowledged edits, and our pending
// edits over what a restarted server lost.

import type { TextOperation } from "../../ot/operation.ts";
import type { ClientState } from "../../ot/client_state.ts";
import type { CursorData } from "../../rustpad/protocol.ts";

/** Cursors and selections moved through `operation`, as the server moves them. */
export function moveCursor(
  data: CursorData,
  operation: TextOperation,
): CursorData {
  return moveBy(data, (at) => operation.transformIndex(at));
}

/**
 * A cursor from the server, in the text as the server has it, moved over
 * our edits it has not seen yet (an insert of ours before it pushes it).
 */
export function overPending(data: CursorData, state: ClientState): CursorData {
  if (state.kind === "synchronized") return data;
  const pending = state.kind === "awaitingConfirm"
    ? [state.outstanding]
    : [state.outstanding, state.buffer];
  return moveBy(
    data,
    (position) =>
      pending.reduce((at, operation) => operation.transformIndex(at), position),
  );
}

/**
 * Our pending edits moved over `lost`, the change from the text we had
 * confirmed to the text a restarted server has, now at `revision`: the new
 * state, and what to apply to the local text.
 */
export function rebaseOver(
  state: ClientState,
  lost: TextOperation,
  revision: number,
): { state: ClientState; local: TextOperation } {
  if (state.kind === "synchronized") {
    return { state: { kind: "synchronized", revision }, local: lost };
  }
  const [outstanding, afterOutstanding] = state.outstanding.transform(lost);
  if (state.kind === "awaitingConfirm") {
    return {
      state: { kind: "awaitingConfirm", revision, outstanding },
      local: afterOutstanding,
    };
  }
  const [buffer, local] = state.buffer.transform(afterOutstanding);
  return { state: { ...state, revision, outstanding, buffer }, local };
}

function moveBy(data: CursorData, move: (at: number) => number): CursorData {
  return {
    cursors: data.cursors.map(move),
    selections: data.selections.map(([start, end]) => [move(start), move(end)]),
  };
}
