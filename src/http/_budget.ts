// The request-body bytes all connections of a listener may hold at once.
// A body reserves its declared length (or the cap, if chunked) before its
// first byte is read, and gives it back once the handler has answered; a
// body that does not fit waits, within its request deadline. A body that
// arrives slower than a minimum rate is cut, so a few slow uploads cannot
// hold the budget for the length of the request deadline.

import { type ConnectionReader, HttpBodyError } from "./_reader.ts";

/**
 * The default minimum rate of a request body (`minBodyBytesPerSecond`): on
 * average 16 KiB/s from its start, once its first second is past.
 */
export const DEFAULT_MIN_BODY_BYTES_PER_SECOND = 16_384;
/** How long a body may take before the minimum rate applies. */
const BODY_RATE_GRACE_MS = 1000;
/** How often a body's rate is checked. */
const BODY_RATE_CHECK_MS = 250;

/** Bytes of request bodies that may be in memory at once, shared. */
export class ByteBudget {
  #free: number;
  readonly #waiting: { bytes: number; grant: () => void }[] = [];

  constructor(total: number) {
    this.#free = total;
  }

  /** Wait until `bytes` fit, or until `interrupted` rejects. */
  async reserve(bytes: number, interrupted: Promise<never>): Promise<void> {
    if (this.tryReserve(bytes)) return;
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

  /** Take `bytes` now if they fit and nobody waits; whether they were. */
  tryReserve(bytes: number): boolean {
    if (this.#waiting.length > 0 || bytes > this.#free) return false;
    this.#free -= bytes;
    return true;
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

/**
 * A request body's arrival rate, checked while it is read: one that falls
 * behind the minimum interrupts the reader with a 408, so the connection
 * closes and the body's share of the budget comes back.
 */
export class BodyRate {
  readonly #reader: ConnectionReader;
  readonly #bytesPerSecond: number;
  #timer: ReturnType<typeof setInterval> | undefined;
  /** Bytes of the body arrived so far, each chunk's overhead counted. */
  received = 0;

  constructor(reader: ConnectionReader, bytesPerSecond: number) {
    this.#reader = reader;
    this.#bytesPerSecond = bytesPerSecond;
  }

  start(): void {
    const started = performance.now();
    this.#timer = setInterval(() => {
      const elapsed = performance.now() - started;
      const due = this.#bytesPerSecond * (elapsed - BODY_RATE_GRACE_MS) /
        1000;
      if (this.received >= due) return;
      this.stop();
      this.#reader.interrupt(
        new HttpBodyError(
          408,
          `Cannot read the request as its body arrived slower than ${this.#bytesPerSecond} bytes/s: current count is ${this.received} bytes in ${
            Math.round(elapsed)
          } ms; send the body at once; nothing was done`,
        ),
      );
    }, BODY_RATE_CHECK_MS);
  }

  stop(): void {
    clearInterval(this.#timer);
    this.#timer = undefined;
  }
}
