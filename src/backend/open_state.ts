/**
 * Opening the state store a configuration names: in memory without
 * `RUSTPAD_STATE_URL`, else Redis, whose client is loaded only then.
 *
 * @module
 */

import { MemoryState, type StateStore } from "./state_store.ts";

/** Options for {@linkcode openStateStore}. */
export interface StateStoreOptions {
  /** `RUSTPAD_STATE_URL`: `redis://` or `rediss://`; memory when unset. */
  url?: URL | undefined;
  /** `RUSTPAD_STATE_PASSWORD`, when the URL has none. */
  password?: string | undefined;
  /** Bound on connecting and on every command; also a keyed call's lease. */
  timeoutMs: number;
  /** The Rustpad server, part of every author record's key. */
  rustpadUrl: URL;
}

/**
 * The state store for `url`: {@linkcode MemoryState} without one, else a
 * connected Redis store (its client is loaded only then).
 *
 * @param options Where, and the timeout.
 * @returns The store; close it after the backend.
 * @throws {StateUnreachableError} If Redis does not answer within the
 * timeout.
 *
 * @example Without a URL, state stays in memory
 * ```ts
 * import { openStateStore } from "./open_state.ts";
 * import assert from "node:assert/strict";
 *
 * await using state = await openStateStore({
 *   timeoutMs: 1000,
 *   rustpadUrl: new URL("http://127.0.0.1:3030/"),
 * });
 * assert.equal(state.kind, "memory");
 * ```
 */
export async function openStateStore(
  options: StateStoreOptions,
): Promise<StateStore> {
  if (options.url === undefined) return new MemoryState();
  const { openRedisState } = await import("./_redis_state.ts");
  return await openRedisState({ ...options, url: options.url });
}
