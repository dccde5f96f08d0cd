// The request-body bytes all connections of a listener may hold at once.
// A body reserves its declared length (or the cap, if chunked) before its
// first byte is read, and gives it back once the handler has answered; a
// body that does not fit waits, within its request deadline.

/** Bytes of request bodies that may be in memory at once, shared. */
export class ByteBudget {
  #free: number;
  readonly #waiting: { bytes: number; grant: () => void }[] = [];

  constructor(total: number) {
    this.#free = total;
  }

  /** Wait until `bytes` fit, or until `interrupted` rejects. */
  async reserve(bytes: number, interrupted: Promise<never>): Promise<void> {
    if (this.#waiting.length === 0 && bytes <= this.#free) {
      this.#free -= bytes;
      return;
    }
    const granted = Promise.withResolvers<void>();
    const entry = { bytes, grant: granted.resolve };
    this.#waiting.push(entry);
    try {
      await Promise.race([granted.promise, interrupted]);
    } catch (error) {
      const index = this.#waiting.indexOf(entry);
      if (index === -1) this.release(bytes);
      else this.#waiting.splice(index, 1);
      throw error;
    }
  }

  /** Give back `bytes` and wake the waiters that now fit. */
  release(bytes: number): void {
    this.#free += bytes;
    for (let i = 0; i < this.#waiting.length;) {
      const entry = this.#waiting[i]!;
      if (entry.bytes <= this.#free) {
        this.#free -= entry.bytes;
        this.#waiting.splice(i, 1);
        entry.grant();
      } else i++;
    }
  }
}
