// One watch on a pad's text for a subscriber, in either era (a 2025
// `resources/subscribe`, a 2026 `subscriptions/listen`): it holds one of the
// caller's subscriptions and waits (at most 20 together), keeps the pad's
// connection open, and reports changes coalesced to about four a second,
// the last change never swallowed.

import { Coalescer } from "../backend/coalescer.ts";
import type { LivePads } from "../backend/live_pads.ts";
import type { SessionHolds } from "../tools/mod.ts";

/** At most this many update notifications per second per pad and client. */
const UPDATES_PER_SECOND = 4;

/** A live watch; `stop` it to let go of the pad and the hold. */
export interface PadWatch {
  /** Stop reporting; idempotent. */
  stop(): void;
}

/**
 * Watch pad `id`, calling `changed` when its text changes.
 *
 * @throws {RangeError} If `holds` is full (nothing is held then).
 */
export async function watchPad(
  live: LivePads,
  holds: SessionHolds,
  id: string,
  changed: () => void,
): Promise<PadWatch> {
  const release = holds.take(`subscribe to pad "${id}"`);
  const coalescer = new Coalescer(1000 / UPDATES_PER_SECOND, changed);
  let unwatch: (() => void) | undefined;
  let stopped = false;
  const watch: PadWatch = {
    stop() {
      if (stopped) return;
      stopped = true;
      coalescer.close();
      unwatch?.();
      release();
    },
  };
  try {
    const watching = await live.watch(id, (_session, event) => {
      if (event.type === "operation" || event.type === "reconnected") {
        coalescer.poke();
      }
    });
    // Stopped while the pad was opening: let go of it at once.
    if (stopped) watching.unwatch();
    else unwatch = watching.unwatch;
  } catch (error) {
    watch.stop();
    throw error;
  }
  return watch;
}
