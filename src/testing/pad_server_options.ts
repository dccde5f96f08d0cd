/**
 * How to start a pad server: where it listens, what it persists, and the
 * seed of its connections' choices.
 *
 * @module
 */

import type { PadStorage } from "./pad_database.ts";

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
   * Where pads persist: pads not in memory are read from it, and changed
   * pads are snapshotted into it. A `PadDatabase` keeps them in memory (a
   * restart is a second server on the same one), a `SqlitePadDatabase` in
   * a file, as the real server does. Without it (and without `pads`)
   * nothing is persisted and `database_size` is 0.
   */
  database?: PadStorage;
  /**
   * How often to snapshot pads whose revision changed into the database, in
   * milliseconds; `0` snapshots only when `PadServer.snapshot` is
   * called. The real server waits 3 to 4 seconds.
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
   * Seeds the choices each connection makes, as the real server's
   * `tokio::select!` does at random, between reading its client's next
   * message and forwarding the next metadata message, when both are ready.
   *
   * @default {1}
   */
  seed?: number;
}
