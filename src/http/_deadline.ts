// A deadline that moves on every request at the cost of a field write. A
// connection sets one for each request and each write it makes, and under
// load a timer made and cleared each time costs more than the rest of its
// bookkeeping; here the one timer is re-armed only when it fires before
// the deadline or the deadline moves earlier than it.

/** At most one pending deadline, kept by one timer re-armed lazily. */
export class Deadline {
  /** When the pending deadline falls; Infinity when none is pending. */
  #at = Infinity;
  #fire: (() => void) | undefined;
  #timer: ReturnType<typeof setTimeout> | undefined;
  /** When the armed timer fires; Infinity when none is armed. */
  #timerAt = Infinity;
  #stopped = false;

  /** Call `fire` in `ms`, in place of whatever was pending. */
  set(ms: number, fire: () => void): void {
    if (this.#stopped) return;
    const at = performance.now() + ms;
    this.#at = at;
    this.#fire = fire;
    if (at < this.#timerAt) this.#arm(at);
  }

  /** Let nothing be pending; an armed timer then finds nothing to do. */
  clear(): void {
    this.#at = Infinity;
    this.#fire = undefined;
  }

  /** Clear, and stop the timer for good: later deadlines are not kept. */
  stop(): void {
    this.clear();
    this.#stopped = true;
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#timerAt = Infinity;
  }

  #arm(at: number): void {
    clearTimeout(this.#timer);
    this.#timerAt = at;
    this.#timer = setTimeout(
      () => this.#expire(),
      Math.max(0, at - performance.now()),
    );
  }

  #expire(): void {
    this.#timer = undefined;
    this.#timerAt = Infinity;
    const fire = this.#fire;
    if (fire === undefined) return;
    if (performance.now() < this.#at) {
      this.#arm(this.#at);
      return;
    }
    this.clear();
    fire();
  }
}
