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

/** A pool's session on one pad. */
export interface Entry {
  session: Promise<PadSession>;
  /** The session once open; `undefined` while connecting or after failing. */
  ready?: PadSession;
  failed?: boolean;
  idleTimer?: ReturnType<typeof setTimeout> | undefined;
  /** When it was last used, by the slots' stamps. */
  usedAt: number;
  /** When it was last used, by `performance.now()`. */
  lastUsed?: number;
}

/**
 * Call `onIdle` once `entry` has gone unused for `idleMs`, by one timer
 * checked when it fires (re-armed while it was used meanwhile), which does
 * not keep the process alive.
 */
export function armIdle(
  entry: Entry,
  idleMs: number,
  onIdle: () => Promise<void>,
): void {
  const wait = Math.max(0, (entry.lastUsed ?? 0) + idleMs - performance.now());
  entry.idleTimer = setTimeout(() => {
    entry.idleTimer = undefined;
    if (performance.now() - (entry.lastUsed ?? 0) < idleMs) {
      return armIdle(entry, idleMs, onIdle);
    }
    void onIdle();
  }, wait);
  Deno.unrefTimer(entry.idleTimer as unknown as number);
}
