// One timer per pad holding pending suggestions, set for the nearest of
// their expiries, so that an expiry is noticed (and told as a decision)
// when it falls due rather than when the pad's suggestions are next read.

/** Longest delay a timer takes; a later expiry is re-armed on the way. */
const MAX_DELAY_MS = 2 ** 31 - 1;

type Timer = ReturnType<typeof setTimeout>;

/** A timer per pad at its nearest pending expiry. */
export class ExpiryAlarms {
  readonly #timers = new Map<string, { at: number; id: Timer }>();
  readonly #now: () => number;
  readonly #due: (pad: string) => void;
  #closed = false;

  /** Call `due(pad)` when the nearest expiry armed for `pad` falls due. */
  constructor(now: () => number, due: (pad: string) => void) {
    this.#now = now;
    this.#due = due;
  }

  /** Arm `pad` for `at` (ms since the epoch) unless an earlier one is set. */
  arm(pad: string, at: number): void {
    const set = this.#timers.get(pad);
    if (this.#closed || (set !== undefined && set.at <= at)) return;
    this.#set(pad, at);
  }

  /** Arm `pad` for the nearest expiry of its pending `records`, if any. */
  rearm(
    pad: string,
    records: readonly { status: string; expiresAt: number }[],
  ): void {
    const expiries = records.filter((record) => record.status === "pending")
      .map((record) => record.expiresAt);
    const at = expiries.length === 0 ? undefined : Math.min(...expiries);
    const set = this.#timers.get(pad);
    if (set?.at === at) return;
    if (set !== undefined) clearTimeout(set.id);
    this.#timers.delete(pad);
    if (at !== undefined && !this.#closed) this.#set(pad, at);
  }

  /** Stop every timer; nothing is armed from now on. */
  close(): void {
    this.#closed = true;
    for (const { id } of this.#timers.values()) clearTimeout(id);
    this.#timers.clear();
  }

  #set(pad: string, at: number): void {
    const previous = this.#timers.get(pad);
    if (previous !== undefined) clearTimeout(previous.id);
    const delay = Math.min(Math.max(0, at - this.#now()), MAX_DELAY_MS);
    const id = setTimeout(() => {
      if (this.#timers.get(pad)?.id !== id) return;
      this.#timers.delete(pad);
      this.#due(pad);
    }, delay);
    // A pending expiry never keeps the process alive.
    Deno.unrefTimer(id as unknown as number);
    this.#timers.set(pad, { at, id });
  }
}
