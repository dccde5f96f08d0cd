// A pool's session on one pad: how it opens (through a pad server being
// started again) and how it closes when idle.

import { PadSession } from "./session.ts";
import { openPatiently } from "./_patient_open.ts";
import type { SessionPoolOptions } from "./_pool_types.ts";

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
  /** Whether opening it was refused and waited for the server to come back. */
  waited?: boolean;
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

/**
 * The entry of `padId` on the server at `baseUrl`, opening once `room` (a
 * socket closed to make room for it) settles; a refused connection is
 * tried again while `options.upstreamBack` says the server is back, and the
 * entry notes that it `waited`.
 */
export function openEntry(
  baseUrl: string | URL,
  padId: string,
  options: SessionPoolOptions,
  room: Promise<unknown> | undefined,
  usedAt: number,
): Entry {
  const { timeoutMs, user, agentSecret, upstreamBack } = options;
  // Called only after a refusal, so `entry` exists by then.
  const back = upstreamBack && (() => {
    entry.waited = true;
    return upstreamBack();
  });
  const open = () =>
    openPatiently(() =>
      PadSession.open(baseUrl, padId, {
        ...timeoutMs !== undefined && { timeoutMs },
        ...user !== undefined && { user },
        ...agentSecret !== undefined && { agentSecret },
      }), back);
  const entry: Entry = { session: room?.then(open, open) ?? open(), usedAt };
  return entry;
}
