// One pad's live state as LivePads keeps it, and reconnecting a watched pad
// whose connection dropped, with a growing delay, reporting a server that
// stays down about once a minute.

import type { SessionEvent } from "../rustpad/pad_state.ts";
import type { PadSession } from "../rustpad/session.ts";
import type { SessionPool } from "../rustpad/session_pool.ts";
import type { OperatorLog } from "./logging.ts";
import { EditOwners, OwnIds } from "./_own_ids.ts";
import type { PadPresence } from "./_pad_presence.ts";

/** A session event, or the news that a dropped pad is connected again. */
export type LiveEvent = SessionEvent | { readonly type: "reconnected" };

/** Told of every event on a watched pad, with the session it came from. */
export type PadWatcher = (session: PadSession, event: LiveEvent) => void;

/** Delays between attempts to reconnect a watched pad. */
const RECONNECT_DELAYS_MS = [100, 500, 1000, 2000, 5000];

export interface PadLive {
  readonly padId: string;
  session: PadSession | undefined;
  failed: boolean;
  presence: PadPresence;
  /** This process's user ids on the pad, across its connections. */
  ownIds: OwnIds;
  /** Which agent made each of this process's recent edits. */
  owners: EditOwners;
  watchers: Set<PadWatcher>;
  release: (() => void) | undefined;
  reconnectTimer: ReturnType<typeof setTimeout> | undefined;
  attempts: number;
}

/** A pad not yet connected, whose people `presence` follows. */
export function newPadLive(padId: string, presence: PadPresence): PadLive {
  return {
    padId,
    session: undefined,
    failed: false,
    presence,
    ownIds: new OwnIds(),
    owners: new EditOwners(),
    watchers: new Set(),
    release: undefined,
    reconnectTimer: undefined,
    attempts: 0,
  };
}

/**
 * Try `reconnect` again after the next delay, while `pad` is still watched;
 * a failure schedules the next try.
 */
export function scheduleReconnect(
  pad: PadLive,
  reconnect: () => Promise<unknown>,
  log: OperatorLog,
): void {
  if (pad.watchers.size === 0 || pad.reconnectTimer !== undefined) return;
  const delay = RECONNECT_DELAYS_MS[
    Math.min(pad.attempts, RECONNECT_DELAYS_MS.length - 1)
  ]!;
  pad.attempts++;
  pad.reconnectTimer = setTimeout(() => {
    pad.reconnectTimer = undefined;
    if (pad.watchers.size === 0) return;
    reconnect().catch((error: Error) => {
      if (error instanceof TypeError) return; // The pool is closed.
      // A server that stays down is reported about once a minute.
      if (pad.attempts > 2 && pad.attempts % 12 !== 0) {
        return scheduleReconnect(pad, reconnect, log);
      }
      log.send(
        "warning",
        `Cannot reconnect to pad "${pad.padId}" yet (attempt ${pad.attempts}): ${error.message}`,
        { pad: pad.padId },
      );
      scheduleReconnect(pad, reconnect, log);
    });
  }, delay);
}

/**
 * Keep `padId` open in `pool` and tell `watcher` of its events (the pad's
 * live state from `padOf`), until the returned `unwatch` is called.
 */
export async function watchPad(
  pool: SessionPool,
  padId: string,
  padOf: () => PadLive,
  watcher: PadWatcher,
): Promise<{ session: PadSession; unwatch: () => void }> {
  const release = pool.retain(padId);
  let session: PadSession;
  try {
    session = await pool.get(padId);
  } catch (error) {
    release();
    throw error;
  }
  const pad = padOf();
  pad.watchers.add(watcher);
  pad.release ??= release;
  if (pad.release !== release) release();
  let watching = true;
  const unwatch = () => {
    if (!watching) return;
    watching = false;
    pad.watchers.delete(watcher);
    if (pad.watchers.size > 0) return;
    clearTimeout(pad.reconnectTimer);
    pad.reconnectTimer = undefined;
    pad.release?.();
    pad.release = undefined;
  };
  return { session, unwatch };
}
