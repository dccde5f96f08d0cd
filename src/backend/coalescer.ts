// Rate limiting that never swallows the last event: the first poke after a
// quiet spell fires at once, pokes within the interval collapse into one
// trailing fire at the interval's end. Used for resource notifications
// (about 4 per second) and cursor updates (at most 5 per second), since
// Rustpad drops connections that flood metadata.

/** Fires `fire` at most once per `intervalMs`, always after the last poke. */
export class Coalescer {
  #intervalMs: number;
  #fire: () => void;
  #lastFire = -Infinity;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #closed = false;

  constructor(intervalMs: number, fire: () => void) {
    this.#intervalMs = intervalMs;
    this.#fire = fire;
  }

  /** Something happened: fire now, or once the interval allows. */
  poke(): void {
    if (this.#closed || this.#timer !== undefined) return;
    const wait = this.#lastFire + this.#intervalMs - performance.now();
    if (wait <= 0) return this.#run();
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.#run();
    }, wait);
  }

  /** Whether a trailing fire is scheduled. */
  get pending(): boolean {
    return this.#timer !== undefined;
  }

  /** Stop; a scheduled fire is dropped. */
  close(): void {
    this.#closed = true;
    clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  #run(): void {
    this.#lastFire = performance.now();
    try {
      this.#fire();
    } catch {
      // The callback's failure is its own; later pokes still fire.
    }
  }
}
