// What a SessionPool is made with and what its edits answer, apart from
// the pool so its module holds only the pool.

import type { UserInfo } from "./protocol.ts";
import type { Acknowledgement, PadSession } from "./session.ts";
import type { PadSlots } from "./pad_slots.ts";

/** Options for a `SessionPool`. */
export interface SessionPoolOptions {
  /**
   * Bound on every network wait of a session.
   *
   * @default {15000}
   */
  timeoutMs?: number;
  /** How the sessions appear to the people in the pad. */
  user?: UserInfo;
  /** As `PadSessionOptions.agentSecret`, for every session. */
  agentSecret?: string;
  /** Close a session after it has been unused this long. @default {120000} */
  idleMs?: number;
  /**
   * The most sessions open (or opening) at once: one upstream socket each.
   * Ignored with `slots`.
   *
   * @default {100}
   */
  maxOpen?: number;
  /** A budget of sockets shared with other pools (one per identity). */
  slots?: PadSlots;
  /**
   * After the server refused a connection: resolves `true` once it may be
   * tried again (a pad server being started again), `false` to fail now.
   * A pad opened meanwhile waits for it. @default {fail at once}
   */
  upstreamBack?: () => Promise<boolean>;
}

/**
 * What tells an edit apart from whatever a restart puts at its revision:
 * the history it belongs to and the operation itself.
 */
export interface EditMark {
  /** `PadSession.lineageAt` the revision after the edit. */
  readonly lineage: string;
  /** `PadSession.operationDigest` of the edit. */
  readonly operation: string;
}

/** The outcome of `SessionPool.edit`. */
export interface EditOutcome extends Acknowledgement {
  /** The pad's length in code points after the edit. */
  length: number;
  /** The connection dropped before the ack, and the history shows it landed. */
  recovered: boolean;
  /**
   * What names the edit across restarts; `undefined` for a recovered edit
   * (its place in the history is found by its author).
   */
  mark?: EditMark | undefined;
}

/**
 * The mark of the edit at history index `at` of `session`, if the session's
 * log holds it.
 */
export function editMark(
  session: Pick<PadSession, "lineageAt" | "operationDigest">,
  at: number,
): EditMark | undefined {
  const lineage = session.lineageAt(at + 1);
  const operation = session.operationDigest(at);
  return lineage === undefined || operation === undefined
    ? undefined
    : { lineage, operation };
}

/** The outcome of an edit `session` sent and the server acknowledged. */
export function acknowledged(
  session: PadSession,
  ack: Acknowledgement,
): EditOutcome {
  return {
    revision: ack.revision,
    // Read only when asked: joining a long pad's text costs.
    get text(): string {
      return ack.text;
    },
    length: session.length,
    recovered: false,
    mark: editMark(session, ack.revision - 1),
  };
}

/** The outcome of an edit found landed on `session`, a new connection. */
export function recovered(session: PadSession): EditOutcome {
  const { revision, length } = session;
  return {
    revision,
    get text(): string {
      return session.text;
    },
    length,
    recovered: true,
  };
}
