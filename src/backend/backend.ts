/**
 * What one process shares among all its MCP sessions: the pad connections
 * (one per pad, however many clients use it), the HTTP client and the
 * confirmation guard. Over stdio there is one session and one backend; over
 * HTTP every session gets its own MCP server on the one backend, so a
 * hundred agents in one pad are one editor to the people there, not a
 * hundred.
 *
 * @module
 */

import type { Config } from "../config/config.ts";
import { ConfirmationGuard } from "../safety/confirmation.ts";
import { IdempotencyStore } from "../safety/idempotency.ts";
import { RustpadHttpClient } from "../rustpad/http_client.ts";
import { SessionPool } from "../rustpad/session_pool.ts";

/** Options for {@linkcode createBackend}, for tests and embedding. */
export interface BackendOptions {
  /**
   * The clock that confirmation tokens expire by, in milliseconds since the
   * epoch.
   *
   * @default {Date.now}
   */
  now?: () => number;
  /**
   * The key confirmation tokens are signed with, at least 32 bytes. Replicas
   * that share it accept each other's tokens.
   *
   * @default {the configured confirmSecret, else 32 random bytes}
   */
  secret?: Uint8Array;
}

/**
 * The process-wide state behind every MCP session: make one with
 * {@linkcode createBackend}, pass it to each `createServer` call, and close
 * it once when the last session is gone.
 *
 * @example Two MCP servers on one backend share the pad connection
 * ```ts
 * import { createBackend, createServer, loadConfig } from "@rustpad-mcp/server";
 * import { startPadServer } from "@rustpad-mcp/server/testing";
 * import assert from "node:assert/strict";
 *
 * await using pads = await startPadServer();
 * await using backend = createBackend(loadConfig({ RUSTPAD_URL: pads.url }));
 * const first = createServer(backend.config, { backend });
 * const second = createServer(backend.config, { backend });
 * assert.equal(await backend.sessions.get("notes"), await backend.sessions.get("notes"));
 * await first.close();
 * await second.close();
 * assert.equal(backend.closed, false);
 * ```
 */
export class Backend implements AsyncDisposable {
  /** The configuration every session runs with. */
  readonly config: Config;
  /** One live pad connection per pad, shared by every session. */
  readonly sessions: SessionPool;
  /** Reads over Rustpad's HTTP API. */
  readonly http: RustpadHttpClient;
  /** Issues and redeems confirmation tokens for every session. */
  readonly guard: ConfirmationGuard;
  /** The idempotency keys of every session's writes. */
  readonly idempotency: IdempotencyStore = new IdempotencyStore();
  #closing: Promise<void> | undefined;

  /**
   * Make the shared state; nothing connects until a tool needs a pad.
   *
   * @param config The configuration.
   * @param options A clock and a token secret.
   */
  constructor(config: Config, options: BackendOptions = {}) {
    this.config = config;
    this.sessions = new SessionPool(config.rustpadUrl, {
      timeoutMs: config.timeoutMs,
      user: { name: config.userName, hue: config.userHue },
      maxOpen: config.maxOpenPads,
    });
    this.http = new RustpadHttpClient(config.rustpadUrl, {
      timeoutMs: config.timeoutMs,
    });
    const secret = options.secret ?? config.confirmSecret;
    this.guard = new ConfirmationGuard({
      ...(options.now !== undefined && { now: options.now }),
      ...(secret !== undefined && { secret }),
    });
  }

  /** Whether {@linkcode Backend.close} has been called. */
  get closed(): boolean {
    return this.#closing !== undefined;
  }

  /**
   * Close every pad connection. Idempotent: every call waits for the one
   * close.
   *
   * @returns When everything is closed.
   */
  close(): Promise<void> {
    this.#closing ??= this.sessions.close();
    return this.#closing;
  }

  /** Close; for `await using`. */
  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }
}

/**
 * Make the shared state for one process.
 *
 * @param config The configuration.
 * @param options A clock and a token secret.
 * @returns The backend; close it once, after its sessions.
 *
 * @example
 * ```ts
 * import { createBackend, loadConfig } from "@rustpad-mcp/server";
 * import assert from "node:assert/strict";
 *
 * const backend = createBackend(loadConfig({}));
 * assert.equal(backend.config.rustpadUrl.href, "https://rustpad.io/");
 * await backend.close();
 * ```
 */
export function createBackend(
  config: Config,
  options: BackendOptions = {},
): Backend {
  return new Backend(config, options);
}
