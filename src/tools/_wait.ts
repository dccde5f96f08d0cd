// Waiting for a pad to change, for `wait_for_change`: on the pad's shared
// connection (held open while waiting, reconnected if it drops), ended by
// the first change, by quiet after changes, by the timeout or by the
// request's cancellation, which releases the pad and the session's hold at
// once. A wait counts toward the session's subscriptions and waits.

import type { LivePads } from "../backend/live_pads.ts";
import type { PadSession } from "../rustpad/session.ts";
import type { SessionHolds } from "./session_holds.ts";

export interface WaitOptions {
  padId: string;
  sinceRevision: number;
  until: "change" | "quiet";
  quietMs: number;
  timeoutMs: number;
  /** Aborted when the client cancels the request or goes away. */
  signal: AbortSignal;
  /** The MCP session's subscriptions and waits; this wait takes one. */
  holds: SessionHolds;
  /**
   * Subscribe to something else that ends the wait (a decision on one of
   * the agent's suggestions); returns the unsubscribe.
   */
  also?: ((wake: () => void) => () => void) | undefined;
  /**
   * End the wait at once, as at a change, when the pad restarted since
   * `sinceRevision` or is behind it (a view that shows the pad anew),
   * rather than refusing with what to do (an agent).
   */
  restartEnds?: boolean | undefined;
  /** Told how long the wait has run, when the client asked for progress. */
  progress?:
    | ((progress: number, total: number, message: string) => void)
    | undefined;
}

export interface WaitOutcome {
  /** The pad's session when the wait ended (a new one after a reconnect). */
  session: PadSession;
  changed: boolean;
  timedOut: boolean;
}

/** Progress every this often, at most; short waits report more often. */
const MAX_PROGRESS_INTERVAL_MS = 5000;

export async function waitForChange(
  live: LivePads,
  options: WaitOptions,
): Promise<WaitOutcome> {
  options.signal.throwIfAborted();
  const release = options.holds.take(`wait on pad "${options.padId}"`);
  try {
    return await waitHeld(live, options);
  } finally {
    release();
  }
}

async function waitHeld(
  live: LivePads,
  options: WaitOptions,
): Promise<WaitOutcome> {
  const { padId, sinceRevision, until, quietMs, timeoutMs, signal } = options;
  const done = Promise.withResolvers<"change" | "timeout">();
  // Rejected on cancel even if a refusal below ends the wait first.
  done.promise.catch(() => {});
  let quietTimer: ReturnType<typeof setTimeout> | undefined;
  let current: PadSession | undefined;
  const check = () => {
    if (!current || current.revision <= sinceRevision) return;
    if (until === "change") return done.resolve("change");
    clearTimeout(quietTimer);
    quietTimer = setTimeout(() => done.resolve("change"), quietMs);
  };
  const restarted = (session: PadSession) => {
    const restart = live.pool.staleRevision(session, sinceRevision);
    if (restart === undefined) return false;
    if (options.restartEnds) {
      done.resolve("change");
      return true;
    }
    done.reject(
      new RangeError(
        `Cannot wait on pad "${padId}" for changes since revision ${sinceRevision} as the pad restarted at revision ${restart.revision} since that revision was read (its history no longer begins with the one read, which reached revision ${restart.before}): current revision is ${session.revision}. Nothing changed for you to see there; read the pad again and wait since the revision that read gives`,
      ),
    );
    return true;
  };
  const { session, unwatch } = await live.watch(padId, (session, event) => {
    current = session;
    if (event.type === "reconnected" && restarted(session)) return;
    if (event.type === "operation" || event.type === "reconnected") check();
  });
  current = session;
  const stopAlso = options.also?.(() => done.resolve("change"));
  const started = performance.now();
  const timeout = setTimeout(() => done.resolve("timeout"), timeoutMs);
  const onAbort = () =>
    done.reject(
      new Error(
        `Cannot finish waiting on pad "${padId}" as the request was cancelled`,
      ),
    );
  signal.addEventListener("abort", onAbort, { once: true });
  // Cancelled while the pad was opening: end now, not at the timeout.
  if (signal.aborted) onAbort();
  let progressTimer: ReturnType<typeof setInterval> | undefined;
  const progress = options.progress;
  if (progress) {
    const every = Math.min(
      MAX_PROGRESS_INTERVAL_MS,
      Math.max(200, timeoutMs / 10),
    );
    progressTimer = setInterval(() => {
      const elapsed = performance.now() - started;
      const changes = Math.max(0, (current?.revision ?? 0) - sinceRevision);
      progress(
        Math.round(elapsed),
        timeoutMs,
        `Waiting on pad "${padId}": ${changes} change${
          changes === 1 ? "" : "s"
        } so far`,
      );
    }, every);
  }
  try {
    if (restarted(session)) {
      // Refused or ended above.
    } else if (session.revision < sinceRevision && options.restartEnds) {
      done.resolve("change");
    } else if (session.revision < sinceRevision) {
      throw new RangeError(
        `Cannot wait on pad "${padId}" as since_revision ${sinceRevision} is ahead of the pad (or the pad restarted since it was read): current revision is ${session.revision}. Read the pad again and take since_revision from that read`,
      );
    } else check();
    const reason = await done.promise;
    const end = current ?? session;
    live.pool.noteShown(padId, end.revision);
    return {
      session: end,
      changed: end.revision > sinceRevision,
      timedOut: reason === "timeout",
    };
  } finally {
    clearTimeout(timeout);
    clearTimeout(quietTimer);
    clearInterval(progressTimer);
    signal.removeEventListener("abort", onAbort);
    stopAlso?.();
    unwatch();
  }
}
