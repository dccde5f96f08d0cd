/**
 * What one process shares among all its MCP sessions: the pad connections
 * (one per pad and identity, however many clients use it), the HTTP client,
 * the confirmation guard and the state store. Over stdio there is one
 * session and one backend; over HTTP every session gets its own MCP server
 * on the one backend, so a hundred agents of one identity in one pad are
 * one editor to the people there, not a hundred; each identity (a named
 * bearer token) is its own editor, `rustpad-mcp (alice)`.
 *
 * @module
 */

import type { Config } from "../config/config.ts";
import { ConfirmationGuard } from "../safety/confirmation.ts";
import { EditIds } from "../safety/edit_ids.ts";
import { RustpadHttpClient } from "../rustpad/http_client.ts";
import { PadSlots } from "../rustpad/pad_slots.ts";
import { SessionPool } from "../rustpad/session_pool.ts";
import { LivePads } from "./live_pads.ts";
import { RecentPads } from "./recent_pads.ts";
import { UpstreamHealth } from "./upstream_health.ts";
import { MemoryState, type StateStore } from "./state_store.ts";
import { SuggestionBook, type Suggestions } from "./suggestions.ts";
import { ChosenSuggestions } from "./_suggestion_keeping.ts";
import { AgentLink, configuredAgentSecret } from "./_agent_link.ts";
import { RemoteSuggestions } from "./_remote_suggestions.ts";
import { SharedAuthors } from "./_shared_authors.ts";
import { claimAccepted } from "./_suggestion_apply.ts";
import type { AuthorLedger } from "./state_store.ts";

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
  /**
   * The state replicas share (used tokens, idempotency records, author
   * records), from `openStateStore`; the caller closes it after the backend.
   *
   * @default {a MemoryState of this process}
   */
  state?: StateStore;
  /**
   * How many identities share `RUSTPAD_MAX_OPEN_PADS` (the named bearer
   * tokens, and the unnamed one if it is in use): each may hold its fair
   * share of the pads open at once, `ceil(max / identities)`.
   *
   * @default {1}
   */
  identities?: number;
  /**
   * The secret of the pad server's agent API (its `agent.secret`): when
   * the pad server offers the API, suggestions and authors are kept there,
   * shared by every agent process on it; else (a real Rustpad answers 404)
   * in `state`, as before.
   *
   * @default {RUSTPAD_AGENT_SECRET, else the file RUSTPAD_AGENT_SECRET_FILE names, else none}
   */
  agentSecret?: string;
  /**
   * As `SessionPoolOptions.upstreamBack`, for every pool: how a call waits
   * for a pad server being started again (`--embedded`).
   */
  upstreamBack?: () => Promise<boolean>;
}

/** At most this many pads are remembered as read, per identity. */
export const MAX_READ_PADS = 10_000;

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
  /**
   * One live pad connection per pad for the unnamed identity (the one
   * `RUSTPAD_MCP_TOKEN`, or none), shared by its sessions.
   */
  readonly sessions: SessionPool;
  /** Reads over Rustpad's HTTP API. */
  readonly http: RustpadHttpClient;
  /** Issues and redeems confirmation tokens for every session. */
  readonly guard: ConfirmationGuard;
  /** What replicas share: used tokens, idempotency and author records. */
  readonly state: StateStore;
  /** The upstream sockets of every identity's pool: `RUSTPAD_MAX_OPEN_PADS`. */
  readonly slots: PadSlots;
  /**
   * Writes held for people to accept or reject: on the pad server when it
   * offers its agent API, else in `state`.
   */
  readonly suggestions: Suggestions;
  /** Which identity each pad connection is, told to the pad server too. */
  readonly authors: AuthorLedger;
  /** Issues and reads the `edit_id` of every write, with the token secret. */
  readonly editIds: EditIds;
  /** Whether the Rustpad server answers, probed at most every 10 s. */
  readonly upstream: UpstreamHealth;
  #pools = new Map<string, SessionPool>();
  #reads = new Map<string, RecentPads>();
  #closing: Promise<void> | undefined;
  #probe: Promise<AgentLink | undefined> | undefined;
  readonly #upstreamBack: (() => Promise<boolean>) | undefined;

  /**
   * Make the shared state; nothing connects until a tool needs a pad.
   *
   * @param config The configuration.
   * @param options A clock and a token secret.
   */
  constructor(config: Config, options: BackendOptions = {}) {
    this.config = config;
    this.#upstreamBack = options.upstreamBack;
    this.state = options.state ?? new MemoryState();
    this.slots = new PadSlots(config.maxOpenPads, {
      identities: options.identities ?? 1,
    });
    const agentSecret = options.agentSecret ?? config.agentSecret ??
      configuredAgentSecret(config);
    const link = new AgentLink(
      config.rustpadUrl,
      agentSecret,
      config.timeoutMs,
    );
    this.authors = new SharedAuthors(
      this.state.authors,
      // Without a secret, names stay this process's: no probe per pad.
      () =>
        agentSecret === undefined
          ? Promise.resolve(undefined)
          : this.#agentApi(link),
      (identity) => this.#userOf(identity).name,
    );
    this.sessions = this.pool("");
    const local = new SuggestionBook({
      store: this.state.suggestions,
      pool: (identity) => this.pool(identity),
      pools: () => this.#pools.values(),
      ttlMs: config.suggestTtlS * 1000,
      identities: options.identities ?? 1,
    });
    this.suggestions = new ChosenSuggestions(async () => {
      const api = await this.#agentApi(link);
      if (api === undefined) return local;
      local.close();
      return new RemoteSuggestions(api, {
        ttlMs: config.suggestTtlS * 1000,
        identities: options.identities ?? 1,
        claim: async (record) => {
          const pool = this.#pools.get(record.identity);
          if (pool === undefined) return;
          await claimAccepted(pool, record).catch(
            () => {/* Its pad is away: the next list claims it. */},
          );
        },
      });
    });
    this.http = new RustpadHttpClient(config.rustpadUrl, {
      timeoutMs: config.timeoutMs,
      ...options.upstreamBack !== undefined &&
        { upstreamBack: options.upstreamBack },
    });
    // One secret for confirm tokens and edit ids, random when none is set.
    const secret = options.secret ?? config.confirmSecret ??
      crypto.getRandomValues(new Uint8Array(32));
    this.guard = new ConfirmationGuard({
      ...(options.now !== undefined && { now: options.now }),
      secret,
      usedTokens: this.state.usedTokens,
    });
    this.editIds = new EditIds(secret);
    this.upstream = new UpstreamHealth(() => this.http.getStats());
  }

  /**
   * The pad server's agent API if it offers one (probed once; again after
   * a failure), else `undefined`: a real Rustpad answers 404.
   */
  #agentApi(link: AgentLink): Promise<AgentLink | undefined> {
    const probe = this.#probe ??= link.offered().then((on) =>
      on ? link : undefined
    );
    probe.catch(() => {
      if (this.#probe === probe) this.#probe = undefined;
    });
    return probe;
  }

  /** The pad name and colour of `identity`'s connections. */
  #userOf(identity: string): { name: string; hue: number } {
    const { config } = this;
    return identity === ""
      ? { name: config.userName, hue: config.userHue }
      : { name: `${config.userName} (${identity})`, hue: hueOf(identity) };
  }

  /**
   * The pads `identity` has read, for `RUSTPAD_REQUIRE_READ`: one record
   * per identity, whatever session or request (or none) its calls came in
   * on; the most recent {@linkcode MAX_READ_PADS}.
   *
   * @param identity The identity's name, `""` for the unnamed one.
   * @returns Its record.
   *
   * @example A read counts for every call of the identity
   * ```ts
   * import { createBackend, loadConfig } from "@rustpad-mcp/server";
   * import assert from "node:assert/strict";
   *
   * await using backend = createBackend(loadConfig({}));
   * backend.readPads("alice").add("notes");
   * assert.equal(backend.readPads("alice").has("notes"), true);
   * assert.equal(backend.readPads("bob").has("notes"), false);
   * ```
   */
  readPads(identity: string): RecentPads {
    let reads = this.#reads.get(identity);
    if (reads === undefined) {
      reads = new RecentPads(MAX_READ_PADS);
      this.#reads.set(identity, reads);
    }
    return reads;
  }

  /**
   * The pad connections of one identity, made on first use: it appears in
   * pads as `RUSTPAD_USER_NAME (name)` with a hue derived from the name
   * (the unnamed identity `""` as `RUSTPAD_USER_NAME` in
   * `RUSTPAD_USER_HUE`). Every pool counts against the one
   * `RUSTPAD_MAX_OPEN_PADS`.
   *
   * @param identity The identity's name, `""` for the unnamed one.
   * @returns Its pool.
   *
   * @example Two identities are two collaborators
   * ```ts
   * import { createBackend, loadConfig } from "@rustpad-mcp/server";
   * import { startPadServer } from "@rustpad-mcp/server/testing";
   * import assert from "node:assert/strict";
   *
   * await using pads = await startPadServer();
   * await using backend = createBackend(loadConfig({ RUSTPAD_URL: pads.url }));
   * const alice = await backend.pool("alice").get("notes");
   * const bob = await backend.pool("bob").get("notes");
   * assert.notEqual(alice.userId, bob.userId);
   * assert.equal(backend.slots.openCount, 2);
   * ```
   */
  pool(identity: string): SessionPool {
    let pool = this.#pools.get(identity);
    if (pool === undefined) {
      const { config } = this;
      pool = new SessionPool(config.rustpadUrl, {
        timeoutMs: config.timeoutMs,
        user: this.#userOf(identity),
        slots: this.slots,
        ...config.agentSecret !== undefined &&
          { agentSecret: config.agentSecret },
        ...this.#upstreamBack !== undefined &&
          { upstreamBack: this.#upstreamBack },
      });
      this.#pools.set(identity, pool);
      // Before the pool opens a pad, so that no session goes untracked.
      LivePads.of(pool, { identity, authors: this.authors });
      if (this.closed) void pool.close();
    }
    return pool;
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
    this.suggestions.close();
    this.#closing ??= Promise.all(
      [...this.#pools.values()].map((pool) => pool.close()),
    ).then(() => {});
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

/**
 * A hue from 0 to 359 for an identity's name, the same on every replica:
 * FNV-1a over its UTF-8 bytes.
 */
function hueOf(name: string): number {
  let hash = 0x811c9dc5;
  for (const byte of new TextEncoder().encode(name)) {
    hash = Math.imul(hash ^ byte, 0x01000193) >>> 0;
  }
  return hash % 360;
}
