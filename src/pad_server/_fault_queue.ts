// The queue that hands out each injected fault once, and the set of faults
// a pad server has pending.

import type {
  CloseNextConnectOptions,
  DelayOptions,
  DropNextEditOptions,
  StallNextEditOptions,
} from "./faults.ts";
import type { Connection } from "./_connection.ts";

/** Pending faults of one kind, first in first out. */
export class FaultQueue<T extends { pad?: string }> {
  readonly #faults: T[] = [];

  /**
   * Queue a fault.
   *
   * @param fault The fault; copied.
   */
  push(fault: T): void {
    this.#faults.push({ ...fault });
  }

  /**
   * Remove and return the first fault that applies to `padId`.
   *
   * @param padId The pad the event happens on.
   * @returns The fault, or `undefined` if none applies.
   */
  take(padId: string): T | undefined {
    const index = this.#faults.findIndex((fault) =>
      fault.pad === undefined || fault.pad === padId
    );
    return index === -1 ? undefined : this.#faults.splice(index, 1)[0];
  }
}

/** Every fault a pad server has pending, by kind. */
export interface Faults {
  readonly editDrops: FaultQueue<DropNextEditOptions>;
  readonly editStalls: FaultQueue<StallNextEditOptions>;
  readonly editSlows: FaultQueue<DelayOptions>;
  readonly connectCuts: FaultQueue<CloseNextConnectOptions>;
  readonly ackDelays: FaultQueue<DelayOptions>;
  readonly historyDelays: FaultQueue<DelayOptions>;
  readonly departureDelays: FaultQueue<DelayOptions>;
  /** Extra hold-back of every frame written, in milliseconds. */
  frameDelayMs: number;
}

/** No fault pending, no frame delay. */
export function noFaults(): Faults {
  return {
    editDrops: new FaultQueue(),
    editStalls: new FaultQueue(),
    editSlows: new FaultQueue(),
    connectCuts: new FaultQueue(),
    ackDelays: new FaultQueue(),
    historyDelays: new FaultQueue(),
    departureDelays: new FaultQueue(),
    frameDelayMs: 0,
  };
}

/** Throw unless `ms` is a usable delay. */
export function checkDelay(ms: number, what: string): void {
  if (!Number.isFinite(ms) || ms < 0) {
    throw new RangeError(
      `Cannot ${what} as the delay is not a non-negative number of milliseconds: current value is ${ms}`,
    );
  }
}

/**
 * What the fault-injection methods reach of a pad in memory (a `Room` of
 * _room.ts, which imports this module): its connections and counts.
 */
export interface RoomView {
  /** The connections open on the pad. */
  readonly connections: ReadonlySet<Connection>;
  /** What each user id has sent, open or closed. */
  readonly counts: ReadonlyMap<number, { readonly metadata: number }>;
}

/** What a pad server shares with its fault-injection methods. */
export interface ServerState {
  readonly faults: Faults;
  /** The pads in memory, by pad id. */
  readonly rooms: ReadonlyMap<string, RoomView>;
}

// Kept out of the classes' public shape: the types are private.
const states = new WeakMap<object, ServerState>();

/** Give `owner` its state; called once by the pad server's constructor. */
export function attachState(owner: object, state: ServerState): void {
  states.set(owner, state);
}

/** The state given to `owner`. */
export function stateOf(owner: object): ServerState {
  const state = states.get(owner);
  if (state === undefined) {
    throw new TypeError(
      "Cannot inject faults as this object is not a started pad server: current state is missing",
    );
  }
  return state;
}
