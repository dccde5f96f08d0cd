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
}

/** The outcome of `SessionPool.edit`. */
export interface EditOutcome extends Acknowledgement {
  /** The pad's length in code points after the edit. */
  length: number;
  /** The connection dropped before the ack, and the history shows it landed. */
  recovered: boolean;
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
