/**
 * The budget of upstream sockets that several {@linkcode SessionPool}s
 * share: a process that shows each identity as its own collaborator has one
 * pool per identity, yet `RUSTPAD_MAX_OPEN_PADS` bounds the sockets of all
 * of them together. To open one more past the budget, the idle session used
 * least recently in any pool is closed.
 *
 * @module
 */

import { OpenPadLimitError } from "./session_error.ts";

/** As {@linkcode PadSlots.max}, and `SessionPoolOptions.maxOpen`. */
export const DEFAULT_MAX_OPEN_PADS = 100;

/** What the budget needs of one pool. */
export interface SlotHolder {
  /** Sockets the pool holds now: sessions open or opening. */
  readonly openCount: number;
  /**
   * The pool's idle session used least recently, which may be closed to
   * make room, with its use stamp from {@linkcode PadSlots.stamp}.
   */
  oldestIdle(): { usedAt: number; close: () => Promise<void> } | undefined;
}

/**
 * A shared bound on open pad sessions across pools.
 *
 * @example Two pools, one budget of one socket
 * ```ts
 * import { PadSlots } from "./pad_slots.ts";
 * import { SessionPool } from "./session_pool.ts";
 * import { startPadServer } from "../testing/mod.ts";
 * import assert from "node:assert/strict";
 *
 * await using server = await startPadServer();
 * const slots = new PadSlots(1);
 * await using alice = new SessionPool(server.url, { slots });
 * await using bob = new SessionPool(server.url, { slots });
 * const first = await alice.get("notes");
 * await bob.get("notes");
 * assert.equal(first.isOpen, false);
 * assert.equal(slots.openCount, 1);
 * ```
 */
export class PadSlots {
  /** The most sessions open at once, across every pool. */
  readonly max: number;
  #holders = new Set<SlotHolder>();
  #clock = 0;

  /**
   * Make a budget.
   *
   * @param max The most sessions open (or opening) at once.
   */
  constructor(max: number = DEFAULT_MAX_OPEN_PADS) {
    this.max = max;
  }

  /**
   * Count `holder`'s sockets against this budget until the returned
   * function is called.
   *
   * @param holder A pool.
   * @returns Leaves the budget.
   */
  join(holder: SlotHolder): () => void {
    this.#holders.add(holder);
    return () => void this.#holders.delete(holder);
  }

  /**
   * A use stamp, later than every one before: pools order their sessions'
   * last use by it, so the least recent across pools can be found.
   *
   * @returns The stamp.
   */
  stamp(): number {
    return ++this.#clock;
  }

  /** Sockets held now, across every pool. */
  get openCount(): number {
    let count = 0;
    for (const holder of this.#holders) count += holder.openCount;
    return count;
  }

  /**
   * If the budget is spent, close the idle session used least recently in
   * any pool; the new one should connect once that socket is closed.
   *
   * @param padId The pad about to open, for the error.
   * @returns When the socket closed, or `undefined` if there was room.
   * @throws {OpenPadLimitError} If every open session is in use.
   */
  makeRoom(padId: string): Promise<void> | undefined {
    if (this.openCount < this.max) return undefined;
    let oldest: ReturnType<SlotHolder["oldestIdle"]>;
    for (const holder of this.#holders) {
      const idle = holder.oldestIdle();
      if (idle && (oldest === undefined || idle.usedAt < oldest.usedAt)) {
        oldest = idle;
      }
    }
    if (oldest === undefined) throw new OpenPadLimitError(padId, this.max);
    return oldest.close();
  }
}
