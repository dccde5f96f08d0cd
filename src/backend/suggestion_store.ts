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

/**
 * Who holds a new suggestion, for the fair shares: each identity may hold
 * `floor(bound / identities)` of each bound (at least one), `identities`
 * being the most of those configured and those holding pending ones with
 * this one, as open pads are shared.
 */
export interface SuggestionOwner {
  /** The identity (`""`: the unnamed one). */
  readonly identity: string;
  /** How many identities the server is configured with. */
  readonly identities: number;
}

/** An identity's fair share reached: which, how many, shared by how many. */
export interface ShareReached {
  /** The share of the per-pad bound, or of the whole store's. */
  readonly share: "pad" | "total";
  /** The share: how many the identity may hold. */
  readonly of: number;
  /** How many identities share the bound. */
  readonly identities: number;
}

/** What {@linkcode SuggestionStore.add} did: stored, or which bound held. */
export type AddOutcome = "added" | "pad-full" | "full" | ShareReached;

/**
 * Which bound or share `identity` reaches with one more pending suggestion,
 * or `"added"` if none: the rule every store applies.
 *
 * @example
 * ```ts
 * import { boundReached } from "./suggestion_store.ts";
 * import assert from "node:assert/strict";
 *
 * const limits = { perPad: 4, total: 6 };
 * const counts = { pad: 2, padMine: 2, total: 2, totalMine: 2, others: 1 };
 * assert.deepEqual(
 *   boundReached(counts, limits, { identity: "a", identities: 1 }),
 *   { share: "pad", of: 2, identities: 2 },
 * );
 * ```
 */
export function boundReached(
  counts: {
    pad: number;
    padMine: number;
    total: number;
    totalMine: number;
    /** Other identities holding pending ones. */
    others: number;
  },
  limits: SuggestionLimits,
  owner: SuggestionOwner,
): AddOutcome {
  if (counts.total >= limits.total) return "full";
  if (counts.pad >= limits.perPad) return "pad-full";
  const identities = Math.max(owner.identities, counts.others + 1);
  const padShare = Math.max(1, Math.floor(limits.perPad / identities));
  if (counts.padMine >= padShare) {
    return { share: "pad", of: padShare, identities };
  }
  const totalShare = Math.max(1, Math.floor(limits.total / identities));
  if (counts.totalMine >= totalShare) {
    return { share: "total", of: totalShare, identities };
  }
  return "added";
}

/** The records of held suggestions, by pad and id. */
export interface SuggestionStore {
  /** Every record of `pad`, by id. */
  all(pad: string): Promise<Map<string, string>>;
  /** One record, or `undefined`. */
  get(pad: string, id: string): Promise<string | undefined>;
  /** Store a new pending record, unless a bound or share is reached. */
  add(
    pad: string,
    id: string,
    record: string,
    limits: SuggestionLimits,
    owner: SuggestionOwner,
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
 * const owner = { identity: "", identities: 1 };
 * assert.equal(await store.add("notes", "a", "{}", limits, owner), "added");
 * assert.equal(await store.add("notes", "b", "{}", limits, owner), "pad-full");
 * assert.equal(await store.swap("notes", "a", "{}", "[]", false), true);
 * assert.equal(await store.add("notes", "b", "{}", limits, owner), "added");
 * ```
 */
export class SuggestionsInMemory implements SuggestionStore {
  #pads = new Map<string, Map<string, string>>();
  /** `pad\nid` of every pending record, to its identity. */
  #pending = new Map<string, string>();

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
    owner: SuggestionOwner,
  ): Promise<AddOutcome> {
    const counts = { pad: 0, padMine: 0, total: 0, totalMine: 0, others: 0 };
    const others = new Set<string>();
    for (const [key, identity] of this.#pending) {
      const mine = identity === owner.identity;
      const here = key.startsWith(`${pad}\n`);
      counts.total++;
      if (here) counts.pad++;
      if (mine) counts.totalMine++;
      if (mine && here) counts.padMine++;
      if (!mine) others.add(identity);
    }
    counts.others = others.size;
    const reached = boundReached(counts, limits, owner);
    if (reached !== "added") return Promise.resolve(reached);
    let records = this.#pads.get(pad);
    if (records === undefined) this.#pads.set(pad, records = new Map());
    records.set(id, record);
    this.#setPending(pad, id, owner.identity);
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
    if (!pending) this.#setPending(pad, id, undefined);
    return Promise.resolve(true);
  }

  /** Forget one record. */
  remove(pad: string, id: string): Promise<void> {
    const records = this.#pads.get(pad);
    records?.delete(id);
    this.#setPending(pad, id, undefined);
    if (records?.size === 0) this.#pads.delete(pad);
    return Promise.resolve();
  }

  /** Pending as `identity`'s, or no longer (`undefined`). */
  #setPending(pad: string, id: string, identity: string | undefined): void {
    const key = `${pad}\n${id}`;
    if (identity !== undefined) this.#pending.set(key, identity);
    else this.#pending.delete(key);
  }
}
