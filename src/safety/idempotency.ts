/**
 * Retries that land once: a call made again with the same idempotency key
 * and the same arguments gets the first call's outcome instead of running
 * again, even while the first is still running. Keys live in memory, bounded
 * in number and in time, for the life of the process.
 *
 * @module
 */

/** Options for {@linkcode IdempotencyStore}. */
export interface IdempotencyStoreOptions {
  /**
   * How many keys are kept; the oldest are forgotten first.
   *
   * @default {10000}
   */
  capacity?: number;
  /**
   * How long a key is kept, in milliseconds.
   *
   * @default {600000}
   */
  ttlMs?: number;
  /**
   * The clock, in milliseconds.
   *
   * @default {Date.now}
   */
  now?: () => number;
}

/** The outcome of {@linkcode IdempotencyStore.run}. */
export interface IdempotentOutcome<T> {
  /** The first call's value. */
  value: T;
  /** Whether it came from an earlier call with the same key. */
  replayed: boolean;
}

/**
 * The same key came back with other arguments.
 *
 * @example
 * ```ts
 * import { IdempotencyKeyReusedError, IdempotencyStore } from "./idempotency.ts";
 * import assert from "node:assert/strict";
 *
 * const store = new IdempotencyStore();
 * await store.run("k", "first", () => Promise.resolve(1));
 * await assert.rejects(
 *   store.run("k", "second", () => Promise.resolve(2)),
 *   IdempotencyKeyReusedError,
 * );
 * ```
 */
export class IdempotencyKeyReusedError extends Error {
  /**
   * Make the error for one key.
   *
   * @param key The key.
   */
  constructor(key: string) {
    super(
      `Cannot use idempotency_key "${key}" as it was used in the last 10 minutes with other arguments: nothing was changed. Use a new key for a new change, or repeat the first call's arguments exactly`,
    );
    this.name = "IdempotencyKeyReusedError";
  }
}

interface Entry {
  fingerprint: string;
  outcome: Promise<unknown>;
  expires: number;
}

const DEFAULT_CAPACITY = 10_000;
const DEFAULT_TTL_MS = 10 * 60 * 1000;

/**
 * Remembers the outcome of each keyed call.
 *
 * @example A retry gets the first outcome
 * ```ts
 * import { IdempotencyStore } from "./idempotency.ts";
 * import assert from "node:assert/strict";
 *
 * const store = new IdempotencyStore();
 * let runs = 0;
 * const work = () => Promise.resolve(++runs);
 * assert.deepEqual(await store.run("k", "args", work), { value: 1, replayed: false });
 * assert.deepEqual(await store.run("k", "args", work), { value: 1, replayed: true });
 * await assert.rejects(store.run("k", "other", work));
 * ```
 */
export class IdempotencyStore {
  readonly #capacity: number;
  readonly #ttlMs: number;
  readonly #now: () => number;
  /** In insertion order, so the first entries are the oldest. */
  readonly #entries = new Map<string, Entry>();

  /**
   * Make an empty store.
   *
   * @param options Capacity, lifetime and clock.
   */
  constructor(options: IdempotencyStoreOptions = {}) {
    this.#capacity = options.capacity ?? DEFAULT_CAPACITY;
    this.#ttlMs = options.ttlMs ?? DEFAULT_TTL_MS;
    this.#now = options.now ?? Date.now;
  }

  /** How many keys are kept now. */
  get size(): number {
    return this.#entries.size;
  }

  /**
   * Run `work` once per key: a later call with the same key and
   * fingerprint waits for and returns the first outcome (a thrown error
   * included), without running `work`.
   *
   * @param key The caller's idempotency key.
   * @param fingerprint What identifies the arguments, from
   * {@linkcode fingerprint}.
   * @param work The call.
   * @param keep Whether to remember a settled outcome for later calls; an
   * outcome not kept is still shared with calls that waited for it.
   * @returns The value and whether it was replayed.
   * @throws {IdempotencyKeyReusedError} If the key was used with another
   * fingerprint.
   */
  async run<T>(
    key: string,
    fingerprint: string,
    work: () => Promise<T>,
    keep: (outcome: { value: T } | { error: unknown }) => boolean = () => true,
  ): Promise<IdempotentOutcome<T>> {
    const now = this.#now();
    this.#prune(now);
    const known = this.#entries.get(key);
    if (known !== undefined) {
      if (known.fingerprint !== fingerprint) {
        throw new IdempotencyKeyReusedError(key);
      }
      return { value: await known.outcome as T, replayed: true };
    }
    const outcome = work();
    const entry = { fingerprint, outcome, expires: now + this.#ttlMs };
    this.#entries.set(key, entry);
    if (this.#entries.size > this.#capacity) {
      this.#entries.delete(this.#entries.keys().next().value as string);
    }
    const forget = () => {
      if (this.#entries.get(key) === entry) this.#entries.delete(key);
    };
    try {
      const value = await outcome;
      if (!keep({ value })) forget();
      return { value, replayed: false };
    } catch (error) {
      if (!keep({ error })) forget();
      throw error;
    }
  }

  #prune(now: number): void {
    for (const [key, entry] of this.#entries) {
      if (entry.expires > now) break;
      this.#entries.delete(key);
    }
  }
}

/**
 * A SHA-256 of the canonical JSON of `value` (object keys sorted,
 * `undefined` properties left out), as lowercase hex.
 *
 * @param value Plain JSON data.
 * @returns The hex digest.
 *
 * @example Key order does not matter
 * ```ts
 * import { fingerprint } from "./idempotency.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(await fingerprint({ a: 1, b: [2] }), await fingerprint({ b: [2], a: 1 }));
 * ```
 */
export async function fingerprint(value: unknown): Promise<string> {
  const digest = await crypto.subtle.digest(
    "SHA-256",
    new TextEncoder().encode(canonical(value)),
  );
  return Array.from(
    new Uint8Array(digest),
    (byte) => byte.toString(16).padStart(2, "0"),
  ).join("");
}

function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value)
      .filter(([, item]) => item !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${
      entries.map(([key, item]) => `${JSON.stringify(key)}:${canonical(item)}`)
        .join(",")
    }}`;
  }
  return JSON.stringify(value) ?? "null";
}
