/**
 * A bounded record of pad ids, the most recent kept: what an agent opened,
 * what an identity read.
 *
 * @module
 */

/**
 * The most recent `capacity` pad ids added.
 *
 * @example
 * ```ts
 * import { RecentPads } from "./recent_pads.ts";
 * import assert from "node:assert/strict";
 *
 * const pads = new RecentPads(2);
 * pads.add("a");
 * pads.add("b");
 * pads.add("c");
 * assert.equal(pads.has("a"), false);
 * assert.equal(pads.has("c"), true);
 * ```
 */
export class RecentPads {
  readonly #capacity: number;
  #pads = new Set<string>();

  /**
   * Make an empty record.
   *
   * @param capacity How many ids are kept.
   */
  constructor(capacity: number) {
    this.#capacity = capacity;
  }

  /** Note `padId`, the most recent now. */
  add(padId: string): void {
    this.#pads.delete(padId);
    this.#pads.add(padId);
    if (this.#pads.size > this.#capacity) {
      this.#pads.delete(this.#pads.values().next().value as string);
    }
  }

  /** Whether `padId` is kept. */
  has(padId: string): boolean {
    return this.#pads.has(padId);
  }
}
