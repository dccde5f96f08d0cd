// What keeps frames from going out while operations are not yet stored:
// the journal holds the gate from the first operation of a turn until its
// group commit, and every outbox writes nothing while it is held, so no
// one hears of an operation (its author's acknowledgement included) before
// it is in the store, and every socket's frames keep their order.

/** Held while operations wait for their commit. */
export class Gate {
  #held = false;
  readonly #waiting = new Set<() => void>();

  /** Whether frames must wait. */
  get held(): boolean {
    return this.#held;
  }

  /** Make frames wait until {@linkcode open}. */
  hold(): void {
    this.#held = true;
  }

  /** Call `flush` once the gate opens (once, however often asked). */
  whenOpen(flush: () => void): void {
    this.#waiting.add(flush);
  }

  /** Let frames go: every waiting outbox flushes, in the order it asked. */
  open(): void {
    this.#held = false;
    const waiting = [...this.#waiting];
    this.#waiting.clear();
    for (const flush of waiting) flush();
  }
}
