/**
 * Searches run one at a time, each in a task of its own, so the event loop
 * answers other calls between two of them. A search is synchronous (RE2 in
 * this process, at most about a second by its work bound); a hundred
 * started at once would otherwise run back to back in one turn of the
 * event loop, and every other call would wait for all of them.
 *
 * @module
 */

/** How long since the last search one may run without yielding first. */
const QUIET_MS = 10;

/** The most searches that may wait their turn in one queue. */
export const MAX_WAITING_SEARCHES = 100;

/**
 * A queue of synchronous searches, run in order with a turn of the event
 * loop before each.
 *
 * @example
 * ```ts
 * import { SearchQueue } from "./search_queue.ts";
 * import assert from "node:assert/strict";
 *
 * const queue = new SearchQueue();
 * const order: number[] = [];
 * await Promise.all([1, 2].map((n) => queue.run(() => order.push(n))));
 * assert.deepEqual(order, [1, 2]);
 * ```
 */
export class SearchQueue {
  /** The most searches waiting at once. */
  readonly maxWaiting: number;
  #waiting: (() => void)[] = [];
  #running = false;
  /** When the last search ended, by `performance.now()`. */
  #lastEnd = -Infinity;

  /**
   * Make an empty queue.
   *
   * @param maxWaiting The most searches waiting at once.
   */
  constructor(maxWaiting: number = MAX_WAITING_SEARCHES) {
    this.maxWaiting = maxWaiting;
  }

  /** How many searches wait their turn now. */
  get waiting(): number {
    return this.#waiting.length;
  }

  /**
   * Run `search` after those already queued, in a task of its own.
   *
   * @param search The synchronous search.
   * @returns Its result, or its error.
   * @throws {RangeError} If {@linkcode SearchQueue.maxWaiting} searches
   * already wait; nothing is run.
   */
  run<T>(search: () => T): Promise<T> {
    if (this.#waiting.length >= this.maxWaiting) {
      return Promise.reject(
        new RangeError(
          `Cannot search now as the most searches that may wait at once are waiting (${this.maxWaiting}): current count is ${this.#waiting.length}. Nothing was searched; try again when earlier searches have answered`,
        ),
      );
    }
    const { promise, resolve, reject } = Promise.withResolvers<T>();
    this.#waiting.push(() => {
      try {
        resolve(search());
      } catch (error) {
        reject(error);
      }
    });
    this.#next();
    return promise;
  }

  #next(): void {
    if (this.#running) return;
    const search = this.#waiting.shift();
    if (search === undefined) return;
    this.#running = true;
    const run = () => {
      try {
        search();
      } finally {
        this.#running = false;
        this.#lastEnd = performance.now();
        this.#next();
      }
    };
    // After a quiet spell a search runs at once (a timer costs about 2 ms);
    // one right behind another waits for a timer, not a microtask, so I/O
    // is polled between them.
    if (performance.now() - this.#lastEnd > QUIET_MS) queueMicrotask(run);
    else setTimeout(run, 0);
  }
}
