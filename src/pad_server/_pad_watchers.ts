// Who watches a pad's suggestions (the people's event streams, agents'
// long polls), a count of each pad's changes for the long polls, and,
// while a pad is watched, a look each second its revision moved.

/** How often a watched pad whose revision moved is looked at. */
const LOOK_MS = 1000;
/** At most this many pads' change counts are remembered. */
const MAX_COUNTED_PADS = 100_000;

/** The watchers of every pad of one keeper. */
export class PadWatchers {
  readonly #revision: (pad: string) => number;
  readonly #look: (pad: string) => void;
  readonly #watchers = new Map<string, Set<() => void>>();
  readonly #timers = new Map<string, ReturnType<typeof setInterval>>();
  readonly #changes = new Map<string, number>();
  #count = 1;

  /**
   * @param revision The pad's revision now (-1 when not in memory).
   * @param look Settle the pad: its revision moved while watched.
   */
  constructor(revision: (pad: string) => number, look: (pad: string) => void) {
    this.#revision = revision;
    this.#look = look;
  }

  /** Watch `pad`; returns the unsubscribe. */
  add(pad: string, listener: () => void): () => void {
    let watchers = this.#watchers.get(pad);
    if (watchers === undefined) {
      this.#watchers.set(pad, watchers = new Set());
      let seen = this.#revision(pad);
      this.#timers.set(
        pad,
        setInterval(() => {
          const revision = this.#revision(pad);
          if (revision === seen) return;
          seen = revision;
          this.#look(pad);
        }, LOOK_MS),
      );
    }
    watchers.add(listener);
    return () => {
      watchers.delete(listener);
      if (watchers.size > 0 || this.#watchers.get(pad) !== watchers) return;
      clearInterval(this.#timers.get(pad));
      this.#timers.delete(pad);
      this.#watchers.delete(pad);
    };
  }

  /** How many changes `pad` has had, as a long poll compares them. */
  changes(pad: string): number {
    return this.#changes.get(pad) ?? 0;
  }

  /** Count a change of `pad` and tell its watchers. */
  tell(pad: string): void {
    this.#changes.delete(pad);
    this.#changes.set(pad, this.#count++);
    if (this.#changes.size > MAX_COUNTED_PADS) {
      this.#changes.delete(this.#changes.keys().next().value!);
    }
    for (const listener of [...this.#watchers.get(pad) ?? []]) listener();
  }

  /** Stop every timer. */
  close(): void {
    for (const timer of this.#timers.values()) clearInterval(timer);
    this.#timers.clear();
    this.#watchers.clear();
  }
}
