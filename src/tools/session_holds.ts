/**
 * What one MCP session holds open at once: its resource subscriptions and
 * its running `wait_for_change` calls, together at most
 * {@linkcode MAX_SESSION_HOLDS}. Each keeps a pad's connection open, so
 * without a bound one client could hold every pad the process may open.
 *
 * @module
 */

/** The most subscriptions and waits one MCP session holds together. */
export const MAX_SESSION_HOLDS = 20;

/**
 * A count of one session's subscriptions and waits, refusing past its limit.
 *
 * @example
 * ```ts
 * import { SessionHolds } from "./session_holds.ts";
 * import assert from "node:assert/strict";
 *
 * const holds = new SessionHolds(1);
 * const release = holds.take('subscribe to pad "a"');
 * assert.throws(() => holds.take('wait on pad "b"'), /current count is 1/);
 * release();
 * holds.take('wait on pad "b"');
 * assert.equal(holds.count, 1);
 * ```
 */
export class SessionHolds {
  /** The most held at once. */
  readonly limit: number;
  #count = 0;

  /**
   * Make an empty count.
   *
   * @param limit The most held at once.
   */
  constructor(limit: number = MAX_SESSION_HOLDS) {
    this.limit = limit;
  }

  /** How many are held now. */
  get count(): number {
    return this.#count;
  }

  /**
   * Hold one more, or refuse.
   *
   * @param what What the hold is for, as "subscribe to pad \"a\"".
   * @returns Releases it (idempotent).
   * @throws {RangeError} If the session already holds `limit`.
   */
  take(what: string): () => void {
    if (this.#count >= this.limit) {
      throw new RangeError(
        `Cannot ${what} as this MCP session already holds the most subscriptions and waits one session may (${this.limit}): current count is ${this.#count}. Nothing was changed; unsubscribe from a pad or let a wait end, then try again`,
      );
    }
    this.#count++;
    let held = true;
    return () => {
      if (!held) return;
      held = false;
      this.#count--;
    };
  }
}
