/**
 * The state that replicas of one team server must share, behind one
 * interface: redeemed confirmation tokens, idempotency records and which
 * identity each pad connection belongs to. {@linkcode MemoryState} keeps it
 * in this process (one replica, as without `RUSTPAD_STATE_URL`); the Redis
 * store (`openStateStore` with a `redis://` URL) keeps it where every
 * replica sees it. Nothing below the backend imports a store: the guard gets
 * its {@linkcode UsedTokens}, the tools get the ledgers through the backend.
 *
 * @module
 */

import type { UserId } from "../rustpad/protocol.ts";
import {
  SuggestionsInMemory,
  type SuggestionStore,
} from "./suggestion_store.ts";
import type { UsedTokens } from "../safety/confirmation.ts";
import { UsedTokensInMemory } from "../safety/used_tokens.ts";
import {
  IdempotencyKeyReusedError,
  IdempotencyStore,
  type IdempotentOutcome,
} from "../safety/idempotency.ts";

/** Where a keyed call sent its edit: recorded just before it is sent. */
export interface SentEdit {
  /** The pad. */
  readonly pad: string;
  /** The user id of the connection that sends it. */
  readonly userId: UserId;
  /** The pad's revision on that connection then; the edit builds on it or later. */
  readonly revision: number;
  /**
   * The digest of the pad's history up to `revision` then
   * (`PadSession.lineageAt`): another one later means the pad restarted.
   */
  readonly lineage?: string | undefined;
}

/** What a keyed call may tell the ledger while it runs. */
export interface KeyedCall {
  /**
   * Record, before sending, where the edit goes; a replica that retries
   * after this one stopped reads the pad's history by it.
   *
   * @throws {StateUnreachableError} If it cannot be recorded: send nothing.
   */
  sending(edit: SentEdit): Promise<void>;
}

/** How {@linkcode IdempotencyLedger.run} treats one call. */
export interface KeyedRunOptions<T> {
  /** Whether a settled outcome is remembered for later calls. */
  keep(outcome: { value: T } | { error: unknown }): boolean;
  /**
   * For a call whose replica stopped after recording {@linkcode SentEdit}:
   * the value to answer if that edit landed, or `undefined` if it did not
   * (the call then runs here).
   */
  settle(sent: SentEdit): Promise<T | undefined>;
  /** How long to wait for a first call still running elsewhere. */
  waitMs: number;
}

/**
 * Idempotency records, per scope (an identity) and key: a call runs once;
 * a repeat with the same fingerprint gets its outcome, waiting for it while
 * it runs (on any replica sharing the ledger); another fingerprint is
 * refused with `IdempotencyKeyReusedError`.
 */
export interface IdempotencyLedger {
  /**
   * Run `work` under `key` of `scope`, or answer with the first outcome.
   *
   * @throws {StateUnreachableError} If the records cannot be reached;
   * `work` did not run.
   */
  run<T>(
    scope: string,
    key: string,
    fingerprint: string,
    work: (call: KeyedCall) => Promise<T>,
    options: KeyedRunOptions<T>,
  ): Promise<IdempotentOutcome<T>>;
}

/**
 * Which identity each of our pad connections belongs to, so that every
 * replica can name an identity's edits (authors, conflicts) by the user id
 * in the pad's history. Best effort: it never fails a call.
 */
export interface AuthorLedger {
  /** Connection `userId` of pad `pad` is identity `identity` (`""`: unnamed). */
  record(pad: string, userId: UserId, identity: string): void;
  /** Load what other replicas recorded for these user ids, if not known yet. */
  learn(pad: string, userIds: readonly UserId[]): Promise<void>;
  /** The identity of `userId` in `pad`, if recorded (and learnt). */
  identityOf(pad: string, userId: UserId): string | undefined;
}

/** Whether the store answers: `memory` never fails. */
export type StateHealth = "memory" | "ok" | "unreachable";

/** The shared state of one team server: its replicas share one. */
export interface StateStore extends AsyncDisposable {
  /** `memory` or `redis`. */
  readonly kind: "memory" | "redis";
  /** Where it is, without credentials (`redis://host:6379/0`), or `memory`. */
  readonly location: string;
  /** Redeemed confirmation tokens. */
  readonly usedTokens: UsedTokens;
  /** Idempotency records. */
  readonly idempotency: IdempotencyLedger;
  /** Which identity each pad connection is. */
  readonly authors: AuthorLedger;
  /** Suggestions held for people to decide. */
  readonly suggestions: SuggestionStore;
  /** Whether it answers now. */
  health(): StateHealth;
  /** Disconnect. */
  close(): Promise<void>;
}

/**
 * The shared state cannot be reached: a write that needs it fails with this
 * and changes nothing.
 *
 * @example
 * ```ts
 * import { StateUnreachableError } from "./state_store.ts";
 * import assert from "node:assert/strict";
 *
 * const error = new StateUnreachableError("redeem confirm_token", "redis://127.0.0.1:6379/0");
 * assert.match(error.message, /^Cannot redeem confirm_token as the shared state/);
 * ```
 */
export class StateUnreachableError extends Error {
  /** The store, without credentials. */
  readonly location: string;

  /**
   * Make the error.
   *
   * @param what What could not be done, such as `redeem confirm_token`.
   * @param location The store, without credentials.
   * @param options The cause.
   */
  constructor(what: string, location: string, options?: ErrorOptions) {
    super(
      `Cannot ${what} as the shared state (Redis at ${location}, RUSTPAD_STATE_URL) is unreachable: nothing was changed. Retry once it is back; calls without idempotency_key or confirm_token, and all reads, still work`,
      options,
    );
    this.name = "StateUnreachableError";
    this.location = location;
  }
}

/** At most this many connections' identities are kept in memory. */
export const MAX_AUTHOR_RECORDS = 10_000;

/**
 * Author records in memory, bounded: the oldest are forgotten first.
 *
 * @example
 * ```ts
 * import { AuthorsInMemory } from "./state_store.ts";
 * import assert from "node:assert/strict";
 *
 * const authors = new AuthorsInMemory();
 * authors.record("notes", 3, "alice");
 * assert.equal(authors.identityOf("notes", 3), "alice");
 * assert.equal(authors.identityOf("notes", 4), undefined);
 * ```
 */
export class AuthorsInMemory implements AuthorLedger {
  #records = new Map<string, string>();

  /** Remember one connection's identity. */
  record(pad: string, userId: UserId, identity: string): void {
    const key = `${pad}\n${userId}`;
    this.#records.delete(key);
    this.#records.set(key, identity);
    if (this.#records.size > MAX_AUTHOR_RECORDS) {
      this.#records.delete(this.#records.keys().next().value as string);
    }
  }

  /** Nothing to load: every record is here. */
  learn(): Promise<void> {
    return Promise.resolve();
  }

  /** The identity recorded for one connection. */
  identityOf(pad: string, userId: UserId): string | undefined {
    return this.#records.get(`${pad}\n${userId}`);
  }
}

/** Idempotency records in this process, over an {@linkcode IdempotencyStore}. */
class IdempotencyInMemory implements IdempotencyLedger {
  readonly #store = new IdempotencyStore();

  async run<T>(
    scope: string,
    key: string,
    fingerprint: string,
    work: (call: KeyedCall) => Promise<T>,
    options: KeyedRunOptions<T>,
  ): Promise<IdempotentOutcome<T>> {
    const call: KeyedCall = { sending: () => Promise.resolve() };
    try {
      return await this.#store.run(
        `${scope}\n${key}`,
        fingerprint,
        () => work(call),
        options.keep,
      );
    } catch (error) {
      // Named by the caller's key, not the scoped one.
      if (error instanceof IdempotencyKeyReusedError) {
        throw new IdempotencyKeyReusedError(key);
      }
      throw error;
    }
  }
}

/**
 * The shared state of one process alone: what a single server needs.
 *
 * @example
 * ```ts
 * import { MemoryState } from "./state_store.ts";
 * import assert from "node:assert/strict";
 *
 * const state = new MemoryState();
 * assert.equal(await state.usedTokens.use("nonce", Date.now() + 1000), true);
 * assert.equal(await state.usedTokens.use("nonce", Date.now() + 1000), false);
 * assert.equal(state.health(), "memory");
 * ```
 */
export class MemoryState implements StateStore {
  /** Always `memory`. */
  readonly kind = "memory" as const;
  /** Always `memory`. */
  readonly location = "memory";
  /** Redeemed tokens of this process. */
  readonly usedTokens: UsedTokens = new UsedTokensInMemory(Date.now);
  /** Idempotency records of this process. */
  readonly idempotency: IdempotencyLedger = new IdempotencyInMemory();
  /** Connections' identities in this process. */
  readonly authors: AuthorLedger = new AuthorsInMemory();
  /** Suggestions held in this process. */
  readonly suggestions: SuggestionStore = new SuggestionsInMemory();

  /** Always `memory`. */
  health(): StateHealth {
    return "memory";
  }

  /** Nothing to close. */
  close(): Promise<void> {
    return Promise.resolve();
  }

  /** Nothing to close; for `await using`. */
  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }
}
