/**
 * The budget of upstream sockets that several {@linkcode SessionPool}s
 * share: a process that shows each identity as its own collaborator has one
 * pool per identity, yet `RUSTPAD_MAX_OPEN_PADS` bounds the sockets of all
 * of them together. To open one more past the budget, the idle session used
 * least recently in any pool is closed. Each identity may hold its fair
 * share of the budget, `floor(max / identities)` (at least one), so one
 * identity's subscriptions never leave the others without a pad.
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
  /** How many identities (pools) share the budget. */
  readonly identities: number;
  /** The most sessions one pool may hold: its fair share. */
  readonly share: number;
  #holders = new Set<SlotHolder>();
  #clock = 0;

  /**
   * Make a budget.
   *
   * @param max The most sessions open (or opening) at once.
   * @param options How many identities share it (default 1: all of it is
   * one pool's).
   */
  constructor(
    max: number = DEFAULT_MAX_OPEN_PADS,
    options: { identities?: number } = {},
  ) {
    this.max = max;
    this.identities = Math.max(1, options.identities ?? 1);
    this.share = Math.max(1, Math.floor(max / this.identities));
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
   * If `holder` holds its share, close its own idle session used least
   * recently; else if the budget is spent, the idle session used least
   * recently in any pool. The new one should connect once that socket is
   * closed.
   *
   * @param padId The pad about to open, for the error.
   * @param holder The pool that opens it.
   * @returns When the socket closed, or `undefined` if there was room.
   * @throws {OpenPadLimitError} If every open session that could make room
   * is in use.
   */
  makeRoom(padId: string, holder?: SlotHolder): Promise<void> | undefined {
    if (
      holder !== undefined && this.identities > 1 &&
      holder.openCount >= this.share
    ) {
      const idle = holder.oldestIdle();
      if (idle === undefined) {
        throw new OpenPadLimitError(padId, this.max, {
          share: this.share,
          identities: this.identities,
        });
      }
      return idle.close();
    }
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
