/**
 * Where held suggestions are kept: per pad, each a JSON record under its
 * id, changed only by compare-and-swap so that two replicas deciding one
 * at once see one winner. {@linkcode SuggestionsInMemory} keeps them in
 * this process; the Redis store keeps them where every replica sees them.
 * What a record means is `suggestions.ts`'s; a store counts only which are
 * pending, for the bounds.
 *
 * @module
 */

/** The bounds on pending suggestions. */
export interface SuggestionLimits {
  /** Pending ones per pad. */
  readonly perPad: number;
  /** Pending ones in the whole store. */
  readonly total: number;
}

/** What {@linkcode SuggestionStore.add} did: stored, or which bound held. */
export type AddOutcome = "added" | "pad-full" | "full";

/** The records of held suggestions, by pad and id. */
export interface SuggestionStore {
  /** Every record of `pad`, by id. */
  all(pad: string): Promise<Map<string, string>>;
  /** One record, or `undefined`. */
  get(pad: string, id: string): Promise<string | undefined>;
  /** Store a new pending record, unless a bound is reached. */
  add(
    pad: string,
    id: string,
    record: string,
    limits: SuggestionLimits,
  ): Promise<AddOutcome>;
  /**
   * Replace the record if it is still `expected`; `pending` says whether
   * the new one is. Returns whether it was replaced.
   */
  swap(
    pad: string,
    id: string,
    expected: string,
    next: string,
    pending: boolean,
  ): Promise<boolean>;
  /** Forget a decided record. */
  remove(pad: string, id: string): Promise<void>;
}

/**
 * Suggestions in this process.
 *
 * @example
 * ```ts
 * import { SuggestionsInMemory } from "./suggestion_store.ts";
 * import assert from "node:assert/strict";
 *
 * const store = new SuggestionsInMemory();
 * const limits = { perPad: 1, total: 10 };
 * assert.equal(await store.add("notes", "a", "{}", limits), "added");
 * assert.equal(await store.add("notes", "b", "{}", limits), "pad-full");
 * assert.equal(await store.swap("notes", "a", "{}", "[]", false), true);
 * assert.equal(await store.add("notes", "b", "{}", limits), "added");
 * ```
 */
export class SuggestionsInMemory implements SuggestionStore {
  #pads = new Map<string, Map<string, string>>();
  /** `pad\nid` of every pending record. */
  #pending = new Set<string>();
  #pendingPerPad = new Map<string, number>();

  /** Every record of a pad. */
  all(pad: string): Promise<Map<string, string>> {
    return Promise.resolve(new Map(this.#pads.get(pad)));
  }

  /** One record. */
  get(pad: string, id: string): Promise<string | undefined> {
    return Promise.resolve(this.#pads.get(pad)?.get(id));
  }

  /** Store a new pending record within the bounds. */
  add(
    pad: string,
    id: string,
    record: string,
    limits: SuggestionLimits,
  ): Promise<AddOutcome> {
    if (this.#pending.size >= limits.total) return Promise.resolve("full");
    if ((this.#pendingPerPad.get(pad) ?? 0) >= limits.perPad) {
      return Promise.resolve("pad-full");
    }
    let records = this.#pads.get(pad);
    if (records === undefined) this.#pads.set(pad, records = new Map());
    records.set(id, record);
    this.#setPending(pad, id, true);
    return Promise.resolve("added");
  }

  /** Compare and swap one record. */
  swap(
    pad: string,
    id: string,
    expected: string,
    next: string,
    pending: boolean,
  ): Promise<boolean> {
    const records = this.#pads.get(pad);
    if (records?.get(id) !== expected) return Promise.resolve(false);
    records.set(id, next);
    this.#setPending(pad, id, pending);
    return Promise.resolve(true);
  }

  /** Forget one record. */
  remove(pad: string, id: string): Promise<void> {
    const records = this.#pads.get(pad);
    records?.delete(id);
    this.#setPending(pad, id, false);
    if (records?.size === 0) this.#pads.delete(pad);
    return Promise.resolve();
  }

  #setPending(pad: string, id: string, pending: boolean): void {
    const key = `${pad}\n${id}`;
    if (this.#pending.has(key) === pending) return;
    const count = (this.#pendingPerPad.get(pad) ?? 0) + (pending ? 1 : -1);
    if (pending) this.#pending.add(key);
    else this.#pending.delete(key);
    if (count === 0) this.#pendingPerPad.delete(pad);
    else this.#pendingPerPad.set(pad, count);
  }
}
