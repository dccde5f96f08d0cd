/**
 * How to start a pad server: where it listens, what it persists, when pads
 * expire, and the seed of its connections' choices.
 *
 * @module
 */

import type { WebSocketLimits } from "../http/mod.ts";
import type { PadStorage } from "./pad_database.ts";
import type { StoreFailure } from "./pad_store.ts";
import type { SuggestionDesk } from "./suggestion_desk.ts";
import type { AgentStore } from "./agent_store.ts";

/** What closing a `PadServer` left unstored. */
export interface CloseReport {
  /**
   * The pads whose last write failed (a pad store), or whose changes since
   * the last snapshot were not written (a snapshot storage), with why.
   * Empty when everything is stored, or nothing was to be.
   */
  readonly unstored: readonly StoreFailure[];
}

/** How to start a `PadServer`. */
export interface PadServerOptions {
  /**
   * The address to listen on.
   *
   * @default {"127.0.0.1"}
   */
  hostname?: string;
  /**
   * The port to listen on; `0` picks a free one.
   *
   * @default {0}
   */
  port?: number;
  /**
   * Pads in the database when the server starts, by pad id (a missing
   * language is `null`). As on the real server they are not in memory
   * until a socket opens them: `num_documents` counts them only then,
   * `database_size` at once. Written into `database` if one is given, else
   * into a new `PadDatabase`.
   */
  pads?: Record<string, { text: string; language?: string | null }>;
  /**
   * Where pads persist; pads not in memory are read from it. A pad store
   * (`SqlitePadDatabase` in a file, `MemoryPadStore` in memory) keeps each
   * pad's whole operation log: every operation is stored before anyone
   * hears of it, and replayed when the pad is opened again, so revisions
   * and authors go on across restarts. A snapshot storage (`PadDatabase`)
   * gets changed pads' text and language every `snapshotIntervalMs`, and
   * a restart starts each pad over at revision 1, as the real server does
   * (a restart is a second server on the same one). Without it (and
   * without `pads`) nothing is persisted and `database_size` is 0.
   */
  database?: PadStorage;
  /**
   * Who holds agents' suggestions for the pads, served at
   * `/api/suggestions/` (see `suggestion_desk.ts`); `--embedded` gives the
   * MCP server's. Without it the lists are empty.
   */
  suggestions?: SuggestionDesk;
  /**
   * The secret agents present as `Authorization: Bearer <secret>` (see
   * `agent_secret.ts`). A pad socket opened with it is marked as an agent,
   * with `"agent": true` in the `UserInfo` the server sends for it. The
   * agent API (`/api/agent/`, see `_agent_api.ts`) takes it too: the pad
   * server then holds agents' suggestions and authors itself (in
   * `agentStore`), for every agent process, and serves them to people in
   * place of `suggestions`. Without it no connection is marked and the
   * agent API answers 404, as Rustpad.
   */
  agentSecret?: string;
  /**
   * Where the agent API keeps suggestions and authors: a
   * `SqliteAgentStore` so they survive the server.
   *
   * @default {a MemoryAgentStore}
   */
  agentStore?: AgentStore;
  /**
   * The bounds on pending suggestions of the agent API, each shared fairly
   * among the identities holding them.
   *
   * @default {{ perPad: 100, total: 1000 }}
   */
  suggestionLimits?: { perPad: number; total: number };
  /**
   * How often to snapshot pads whose revision changed into a snapshot
   * storage (a `PadDatabase`), in milliseconds; `0` snapshots only when
   * `PadServer.snapshot` is called. The real server waits 3 to 4 seconds.
   * A pad store needs no snapshot: it has every operation already.
   *
   * @default {3000}
   */
  snapshotIntervalMs?: number;
  /**
   * Days without a socket opening a pad before it leaves memory, as the
   * real server's `EXPIRY_DAYS`: its sockets are closed, and with
   * persistence it is written once more and read back when opened again;
   * without it, it is gone. Fractions are allowed (for tests).
   *
   * @default {1}
   */
  expiryDays?: number;
  /**
   * How often expired pads are looked for, in milliseconds; the real
   * server looks hourly.
   *
   * @default {3600000}
   */
  cleanupIntervalMs?: number;
  /**
   * The `start_time` reported by `/api/stats`, in seconds since the Unix
   * epoch.
   *
   * @default {Math.floor(Date.now() / 1000)}
   */
  startTime?: number;
  /**
   * The most connections open at once (HTTP and sockets); more are closed
   * as soon as accepted. Lowered to three quarters of the process's file
   * limit if that is lower.
   *
   * @default {1024}
   */
  maxConnections?: number;
  /**
   * The most sockets open on one pad; one more is accepted and closed at
   * once with code 1013 and the reason. The real server sets no limit.
   *
   * @default {256}
   */
  maxSocketsPerPad?: number;
  /**
   * Bounds of each socket: the largest message taken, and what may wait to
   * be written to a client that does not read (past it, it is dropped).
   *
   * @default {{ maxMessageBytes: 16 MiB, maxQueuedMessages: 4096, maxQueuedBytes: 64 MiB }}
   */
  socketLimits?: WebSocketLimits;
  /**
   * How long a request's head may take to arrive, in milliseconds.
   *
   * @default {10000}
   */
  requestTimeoutMs?: number;
  /**
   * How long an idle keep-alive connection stays open, in milliseconds.
   *
   * @default {5000}
   */
  keepAliveTimeoutMs?: number;
  /**
   * The host name the server is reached by beyond loopback. A request
   * whose Host is another name (not an IP address or `localhost`) gets 403.
   */
  publicHost?: string;
  /**
   * Origins besides the server's own whose pages may use it (open a
   * socket, read a pad, frame the editor), such as `https://app.example`.
   */
  allowedOrigins?: readonly string[];
  /**
   * Where lines about refused connections and failed snapshots go.
   *
   * @default {console.error}
   */
  log?: (line: string) => void;
  /**
   * With a pad store (a `SqlitePadDatabase`, a `MemoryPadStore`): the most
   * operations a pad's log keeps. Past it, the pad starts over at revision
   * 1 with its text as one insert (as a real Rustpad restart does) and its
   * sockets are closed, so clients reconnect and see the restart. See
   * docs/architecture.md for why this bound.
   *
   * @default {10000}
   */
  maxLogOperations?: number;
  /**
   * Seeds the choices each connection makes, as the real server's
   * `tokio::select!` does at random, between reading its client's next
   * message and forwarding the next metadata message, when both are ready.
   *
   * @default {1}
   */
  seed?: number;
}

/** The intervals a pad server runs on, in milliseconds, checked. */
export interface Timings {
  /** Between snapshots; 0: only when asked. */
  readonly interval: number;
  /** Idle time after which a pad leaves memory. */
  readonly maxIdleMs: number;
  /** Between looks for expired pads. */
  readonly cleanupMs: number;
}

/**
 * The intervals of `options`, with their defaults.
 *
 * @param options The options.
 * @returns The intervals.
 * @throws {RangeError} If `snapshotIntervalMs` is negative or not finite,
 * or `expiryDays` or `cleanupIntervalMs` not a positive number.
 *
 * @example
 * ```ts
 * import { timings } from "./pad_server_options.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(timings({ expiryDays: 2 }), {
 *   interval: 3000,
 *   maxIdleMs: 172_800_000,
 *   cleanupMs: 3_600_000,
 * });
 * ```
 */
export function timings(options: PadServerOptions): Timings {
  const interval = options.snapshotIntervalMs ?? 3000;
  if (!Number.isFinite(interval) || interval < 0) {
    throw new RangeError(
      `Cannot snapshot pads as the interval is not a non-negative number of milliseconds: current value is ${interval}`,
    );
  }
  const expiryDays = options.expiryDays ?? 1;
  const cleanupMs = options.cleanupIntervalMs ?? 3_600_000;
  const positive: [string, number][] = [
    ["expiry days", expiryDays],
    ["cleanup interval in milliseconds", cleanupMs],
  ];
  for (const [what, value] of positive) {
    if (!(value > 0) || !Number.isFinite(value)) {
      throw new RangeError(
        `Cannot expire pads as the ${what} is not a positive number: current value is ${value}`,
      );
    }
  }
  return { interval, maxIdleMs: expiryDays * 86_400_000, cleanupMs };
}

/** The operations a pad's log keeps before it starts over (see docs). */
const DEFAULT_MAX_LOG = 10_000;

/** The bounds a pad server runs within, with their defaults. */
export interface PadServerBounds {
  readonly maxConnections: number;
  readonly maxSocketsPerPad: number;
  readonly requestTimeoutMs: number;
  readonly keepAliveMs: number;
  readonly maxLogOperations: number;
  readonly socketLimits: WebSocketLimits;
}

/**
 * The bounds of `options`, with their defaults.
 *
 * @param options The options.
 * @returns The bounds.
 * @throws {RangeError} If a count or a timeout is not a positive integer.
 *
 * @example
 * ```ts
 * import { bounds } from "./pad_server_options.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(bounds({}).maxSocketsPerPad, 256);
 * assert.equal(bounds({ maxConnections: 10 }).maxConnections, 10);
 * ```
 */
export function bounds(options: PadServerOptions): PadServerBounds {
  const chosen = {
    maxConnections: options.maxConnections ?? 1024,
    maxSocketsPerPad: options.maxSocketsPerPad ?? 256,
    requestTimeoutMs: options.requestTimeoutMs ?? 10_000,
    keepAliveMs: options.keepAliveTimeoutMs ?? 5000,
    maxLogOperations: options.maxLogOperations ?? DEFAULT_MAX_LOG,
  };
  for (const [what, value] of Object.entries(chosen)) {
    if (!Number.isSafeInteger(value) || value < 1) {
      throw new RangeError(
        `Cannot start the pad server as ${what} is not a positive integer: current value is ${value}`,
      );
    }
  }
  return { ...chosen, socketLimits: options.socketLimits ?? {} };
}
