/**
 * Searches run one at a time, so the event loop answers other calls
 * between them. A search is synchronous (RE2 in this process, at most about
 * a second by its work bound); a hundred started at once would otherwise
 * run back to back in one turn of the event loop, and every other call
 * would wait for all of them.
 *
 * Only a timer makes Deno poll I/O between two pieces of work (a message
 * port's task or an async op's completion can run many times before a
 * waiting read is seen), and a timer of 0 ms waits about 2 ms. So a search
 * queued behind another waits for a timer, and a search asked for while
 * none runs or waits runs at once, unless searches have lately been
 * running nearly back to back (more than {@linkcode BACK_TO_BACK_MS} of
 * search time not yet paid back by as much time without one): a client
 * that searches, reads the answer and searches again does not pay 2 ms a
 * search.
 *
 * @module
 */

/**
 * How much search time may run without a timer between, counting each
 * search's time and subtracting the time between searches.
 */
const BACK_TO_BACK_MS = 10;

/** The most searches that may wait their turn in one queue. */
export const MAX_WAITING_SEARCHES = 100;

/**
 * A queue of synchronous searches, run in order, with a turn of the event
 * loop before each one that waited for another.
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
  /** Search time not yet paid back by time without one, in ms, at `#busyAt`. */
  #busy = 0;
  #busyAt = 0;

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
   * Run `search` after those already queued: after a timer if it waits
   * for another or searches have run nearly back to back, else at once in
   * a microtask.
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
    this.#next(false);
    return promise;
  }

  /** Start the next search, if none runs; `afterSearch` when one just ended. */
  #next(afterSearch: boolean): void {
    if (this.#running) return;
    const search = this.#waiting.shift();
    if (search === undefined) return;
    this.#running = true;
    const run = () => {
      const start = performance.now();
      const owed = this.#owed(start);
      try {
        search();
      } finally {
        this.#running = false;
        this.#busyAt = performance.now();
        this.#busy = owed + (this.#busyAt - start);
        this.#next(true);
      }
    };
    if (afterSearch || this.#owed(performance.now()) > BACK_TO_BACK_MS) {
      setTimeout(run, 0);
    } else {
      queueMicrotask(run);
    }
  }

  /** Search time not yet paid back at `now`. */
  #owed(now: number): number {
    return Math.max(0, this.#busy - (now - this.#busyAt));
  }
}
