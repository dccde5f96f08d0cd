/**
 * The record of redeemed confirmation tokens kept in this process: a
 * single-use check for one replica (a shared store, such as Redis, serves
 * several).
 *
 * @module
 */

import type { UsedTokens } from "./_confirm_types.ts";

/**
 * Redeemed nonces in this process, with their expiry, pruned once expired.
 *
 * @example
 * ```ts
 * import { UsedTokensInMemory } from "../mod.ts";
 * import assert from "node:assert/strict";
 *
 * const used = new UsedTokensInMemory(Date.now);
 * assert.equal(used.use("n", Date.now() + 1000), true);
 * assert.equal(used.use("n", Date.now() + 1000), false);
 * ```
 */
export class UsedTokensInMemory implements UsedTokens {
  readonly #used = new Map<string, number>();
  readonly #now: () => number;

  /**
   * Make an empty record.
   *
   * @param now The clock expiries are compared with, in ms since the epoch.
   */
  constructor(now: () => number) {
    this.#now = now;
  }

  /** Whether `nonce` was redeemed and has not expired. */
  has(nonce: string): boolean {
    const now = this.#now();
    for (const [nonce, expiry] of this.#used) {
      if (expiry <= now) this.#used.delete(nonce);
    }
    return this.#used.has(nonce);
  }

  /** Mark `nonce` used until `expiresAt`; `false` if it already was. */
  use(nonce: string, expiresAt: number): boolean {
    if (this.has(nonce)) return false;
    this.#used.set(nonce, expiresAt);
    return true;
  }
}
