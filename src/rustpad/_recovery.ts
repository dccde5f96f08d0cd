// Whether an edit that was sent but never acknowledged landed, decided on a
// new connection to the pad. While the server still handles the old
// connection (after our own timeout the edit may still be in transit), the
// history may not show it yet. Rustpad announces a departure (`UserInfo` with
// `info: null`) only after the departing connection's last message was
// handled, and a departed announced user is absent from the users it replays
// to a new connection: once the old id is gone, the server's history is final
// for it. The departure may overtake the history that holds the edit (the two
// travel by different paths), so a round trip then brings the history to us.

import type { UserId } from "./protocol.ts";
import type { PadSession } from "./session.ts";
import { EditNotAcknowledgedError } from "./session_error.ts";

/** What the decision needs to know of the pool. */
export interface SettleOptions {
  /** Whether the lost connection announced itself (else its departure is invisible). */
  announced: boolean;
  /** How long to wait for the old connection's departure. */
  departureWaitMs: number;
  /**
   * The digest of the sending connection's history up to the edit's
   * revision (`PadSession.lineageAt`), if known: another one on the new
   * connection means the pad restarted, and the history cannot tell.
   */
  lineage?: string | undefined;
}

/** As `PadSession.open`. */
const DEFAULT_TIMEOUT_MS = 15_000;
/** A departure is awaited for this many timeouts. */
const DEPARTURE_WAIT_TIMEOUTS = 3;

/** How a pool made with `options` settles lost edits. */
export function settleOptions(
  options: { user?: unknown; timeoutMs?: number },
): SettleOptions {
  return {
    announced: options.user !== undefined,
    departureWaitMs: DEPARTURE_WAIT_TIMEOUTS *
      (options.timeoutMs ?? DEFAULT_TIMEOUT_MS),
  };
}

/** The error for a lost edit that did not land: safe to retry. */
function notLanded(error: EditNotAcknowledgedError): EditNotAcknowledgedError {
  return new EditNotAcknowledgedError(
    error.kind,
    `${
      error.cause instanceof Error ? error.cause.message : error.message
    }. The edit did not land (the pad's history has no trace of it), so nothing changed; it is safe to try again`,
    error,
    { cause: error },
  );
}

/**
 * Whether the edit that `error` describes is in `fresh`'s history
 * (`landed`) or, the old connection gone, is not (`absent`).
 *
 * @throws {EditNotAcknowledgedError} If the server did not let us find out:
 * the history no longer reaches back, or the departure never came.
 */
export async function decideLostEdit(
  fresh: PadSession,
  error: EditNotAcknowledgedError,
  options: SettleOptions,
): Promise<"landed" | "absent"> {
  const unknown = (why: string, cause?: Error) =>
    new EditNotAcknowledgedError(
      error.kind,
      `${error.message}. ${why}, so whether the edit landed is unknown: read the pad before trying again`,
      error,
      { cause: cause ?? error },
    );
  // Revisions and user ids of another history name other edits.
  const { lineage } = options;
  if (lineage !== undefined && fresh.lineageAt(error.revision) !== lineage) {
    throw unknown(
      `The pad restarted since the edit was sent (its history no longer begins as it did; it is at revision ${fresh.revision} now)`,
    );
  }
  // Already in the history: it landed, whatever the departure says.
  if (landed(fresh, error)) return "landed";
  if (error.revision < fresh.oldestRevision) {
    throw unknown(
      `The history kept no longer reaches back to revision ${error.revision}`,
    );
  }
  if (!await departed(fresh, error.userId, options)) {
    throw unknown(
      `Rustpad did not confirm within ${options.departureWaitMs} ms that it finished with the old connection`,
    );
  }
  try {
    await fresh.roundTrip();
  } catch (roundTripError) {
    throw unknown(
      `Reading the history again failed too (${
        (roundTripError as Error).message
      })`,
    );
  }
  return landed(fresh, error) ? "landed" : "absent";
}

/** A lost edit of another process's connection, as our own would be. */
export function foreignEdit(
  padId: string,
  sent: { userId: UserId; revision: number },
): EditNotAcknowledgedError {
  return new EditNotAcknowledgedError(
    "closed",
    `The replica that sent an edit to pad "${padId}" stopped before it recorded the outcome`,
    { sent: true, ...sent },
  );
}

/** The error for a lost edit whose pad could not be opened again to check. */
export function reconnectFailed(
  error: EditNotAcknowledgedError,
  reconnectError: unknown,
): EditNotAcknowledgedError {
  return new EditNotAcknowledgedError(
    error.kind,
    `${error.message}. Reconnecting to check failed too (${
      (reconnectError as Error).message
    }), so whether the edit landed is unknown: read the pad before trying again`,
    error,
    { cause: error },
  );
}

/** Whether `session`'s history holds an operation by the lost connection. */
function landed(session: PadSession, error: EditNotAcknowledgedError): boolean {
  for (let revision = error.revision; revision < session.revision; revision++) {
    if (session.authorOf(revision) === error.userId) return true;
  }
  return false;
}

/**
 * Wait until user `userId` is no longer in the pad as `session` sees it, or
 * its edit shows up. Only announced users are listed, so without an
 * announcement the departure cannot be seen and this answers `false`.
 */
async function departed(
  session: PadSession,
  userId: UserId,
  options: SettleOptions,
): Promise<boolean> {
  // A server that gave the lost id to this connection has forgotten the
  // old one: it restarted (a live server never reuses an id).
  if (userId === session.userId) return true;
  if (!options.announced) return false;
  if (!session.users.has(userId)) return true;
  const { promise, resolve } = Promise.withResolvers<boolean>();
  const unsubscribe = session.subscribe((event) => {
    if (event.type === "users" && !session.users.has(userId)) resolve(true);
    if (event.type === "operation" && event.entry.author === userId) {
      resolve(true);
    }
    if (event.type === "closed") resolve(false);
  });
  const timer = setTimeout(() => resolve(false), options.departureWaitMs);
  try {
    return await promise;
  } finally {
    clearTimeout(timer);
    unsubscribe();
  }
}

/**
 * Reopen the pad (`open`) and settle our own lost edit on the new session:
 * `landed` if the edit is in its history; `absent` if it is not and
 * `resendable(fresh)` says it may be sent again; otherwise throws saying it
 * did not land (safe to retry), or that the outcome is unknown when even
 * reopening fails.
 */
export async function reopenAndSettle(
  open: () => Promise<PadSession>,
  error: EditNotAcknowledgedError,
  options: SettleOptions,
  resendable: (fresh: PadSession) => boolean,
): Promise<{ fresh: PadSession; landed: boolean }> {
  const fresh = await open().catch((reconnectError) => {
    throw reconnectFailed(error, reconnectError);
  });
  if (await decideLostEdit(fresh, error, options) === "landed") {
    return { fresh, landed: true };
  }
  if (resendable(fresh)) return { fresh, landed: false };
  throw notLanded(error);
}

/**
 * Whether an edit another process sent on connection `sent.userId`, built
 * on `sent.revision`, landed, decided on the session `open` gives: that
 * session if it did, `undefined` if not.
 */
export async function settleForeign(
  open: () => Promise<PadSession>,
  padId: string,
  sent: { userId: UserId; revision: number; lineage?: string | undefined },
  options: SettleOptions,
): Promise<PadSession | undefined> {
  const fresh = await open();
  const decided = await decideLostEdit(
    fresh,
    foreignEdit(padId, sent),
    { ...options, lineage: sent.lineage },
  );
  return decided === "absent" ? undefined : fresh;
}
