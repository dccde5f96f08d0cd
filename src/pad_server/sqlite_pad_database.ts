/**
 * Pads persisted in a SQLite file: each pad's whole operation log with its
 * authors (a {@linkcode PadStore}), in WAL mode, checked at open, and
 * migrated in place from the previous version's `document (id, text,
 * language)` table, the real server's schema. It uses Deno's built-in
 * `node:sqlite`, so it needs no dependency.
 *
 * @module
 */

import { DatabaseSync } from "node:sqlite";
import { SqliteAgentStore } from "./sqlite_agent_store.ts";
import { checkPadId } from "../rustpad/pad_id.ts";
import type { PersistedPad } from "./pad_database.ts";
import {
  type PadStore,
  type PadWrite,
  replayLog,
  restartLog,
  type StoredPad,
  type StoreFailure,
} from "./pad_store.ts";
import { SqliteLog } from "./_sqlite_log.ts";
import { prepareSchema } from "./_sqlite_schema.ts";
import { type SyncMode, syncModeOf } from "./_sync_mode.ts";

export type { SyncMode } from "./_sync_mode.ts";

/**
 * How long a statement waits for another connection's lock, in
 * milliseconds. Short: the wait blocks the event loop, and an edit whose
 * write fails is never acknowledged.
 */
const BUSY_TIMEOUT_MS = 50;

/** How to open a {@linkcode SqlitePadDatabase}. */
export interface SqlitePadDatabaseOptions {
  /**
   * SQLite's `synchronous` in WAL mode. `"normal"`: a commit survives the
   * process being killed at any moment; a power cut or an operating
   * system crash may lose the commits since the WAL was last synced (at
   * each checkpoint, every 1000 pages or so). `"full"`: each commit is on
   * the disk before its edit is acknowledged, so a power cut loses nothing
   * acknowledged, at several times the cost of a commit.
   *
   * @default {RUSTPAD_EMBEDDED_SYNC, else "normal"}
   */
  synchronous?: SyncMode;
  /**
   * Let other processes open the file while this one has it (a `sqlite3`
   * shell reading it, a backup), at about twice the cost of a commit.
   * Without it the file is held in SQLite's exclusive locking mode from
   * the open on: a second pad server, or any other process, is refused
   * the file (this one, at open, is refused a file another holds).
   *
   * @default {false}
   */
  shared?: boolean;
}

/**
 * Readers never block the writer, as with the real server (sqlx opens
 * SQLite in WAL mode), and commits are synced as `mode` says. A file
 * another process holds locked stays in its journal mode.
 */
function useWriteAheadLog(database: DatabaseSync, mode: SyncMode): void {
  try {
    database.exec("PRAGMA journal_mode = WAL");
  } catch {
    // Locked by another connection now: keep the file's journal mode.
  }
  database.exec(`PRAGMA synchronous = ${mode === "full" ? "FULL" : "NORMAL"}`);
}

/**
 * A pad database in a SQLite file: give it to a pad server as `database`
 * and its pads survive the process.
 *
 * @example Pads survive a restart of the server
 * ```ts
 * import {
 *   SqlitePadDatabase,
 *   startPadServer,
 * } from "@rustpad-mcp/server/testing";
 * import assert from "node:assert/strict";
 *
 * const dir = await Deno.makeTempDir();
 * const path = `${dir}/pads.sqlite`;
 * {
 *   using database = new SqlitePadDatabase(path);
 *   await using server = await startPadServer({ database });
 *   database.set("notes", { text: "kept", language: null });
 * }
 * using database = new SqlitePadDatabase(path);
 * await using server = await startPadServer({ database });
 * assert.equal(server.text("notes"), "kept");
 * await Deno.remove(dir, { recursive: true }); // with its WAL file
 * ```
 */
export class SqlitePadDatabase implements PadStore, Disposable {
  /** The file, as given. */
  readonly path: string;
  /** How hard commits are synced. */
  readonly synchronous: SyncMode;
  readonly #database: DatabaseSync;
  readonly #log: SqliteLog;

  /**
   * Open the file, creating it if missing: check it (`PRAGMA
   * quick_check` and the tables), migrate a file of the previous version
   * in place, and turn on WAL.
   *
   * @param path The SQLite file (`":memory:"` for none).
   * @param options How hard commits are synced.
   * @throws {Error} One line naming the file and what to do, if it is not
   * a usable pads file (damaged, not SQLite, of a newer version).
   * @throws {TypeError} If RUSTPAD_EMBEDDED_SYNC is neither normal nor
   * full.
   */
  constructor(path: string, options: SqlitePadDatabaseOptions = {}) {
    this.path = path;
    this.synchronous = syncModeOf(options.synchronous);
    this.#database = new DatabaseSync(path, { timeout: BUSY_TIMEOUT_MS });
    try {
      // Before the first read, so the WAL index lives in this process's
      // memory (no shared-memory file, no lock calls per commit).
      if (!options.shared) {
        this.#database.exec("PRAGMA locking_mode = EXCLUSIVE");
      }
      prepareSchema(this.#database, path);
      useWriteAheadLog(this.#database, this.synchronous);
      this.#log = new SqliteLog(this.#database, path);
    } catch (error) {
      this.#database.close();
      throw error;
    }
  }

  /**
   * Number of pads stored: the real server's `database_size`.
   *
   * @example
   * ```ts
   * import { SqlitePadDatabase } from "@rustpad-mcp/server/testing";
   * import assert from "node:assert/strict";
   *
   * using database = new SqlitePadDatabase(":memory:");
   * database.set("a", { text: "", language: null });
   * assert.equal(database.size, 1);
   * ```
   */
  get size(): number {
    return this.#log.size;
  }

  /**
   * Read a stored pad.
   *
   * @param padId The pad id.
   * @returns The stored pad, or `undefined` if there is none.
   *
   * @example
   * ```ts
   * import { SqlitePadDatabase } from "@rustpad-mcp/server/testing";
   * import assert from "node:assert/strict";
   *
   * using database = new SqlitePadDatabase(":memory:");
   * database.set("a", { text: "hi", language: "rust" });
   * assert.deepEqual(database.get("a"), { text: "hi", language: "rust" });
   * assert.equal(database.get("b"), undefined);
   * ```
   */
  get(padId: string): PersistedPad | undefined {
    const pad = this.#log.load(padId);
    if (pad === undefined) return undefined;
    return Object.freeze({ text: replayLog(pad.log), language: pad.language });
  }

  /**
   * The pad as stored: its whole log with authors, language and next user
   * id.
   *
   * @param padId The pad id.
   * @returns The pad, or `undefined` if there is none.
   * @throws {Error} If SQLite fails to read it.
   *
   * @example
   * ```ts
   * import { SqlitePadDatabase } from "@rustpad-mcp/server/pad-server";
   * import assert from "node:assert/strict";
   *
   * using database = new SqlitePadDatabase(":memory:");
   * database.set("a", { text: "hi", language: null });
   * assert.deepEqual(database.load("a")?.log[0]?.operation.toJSON(), ["hi"]);
   * ```
   */
  load(padId: string): StoredPad | undefined {
    return this.#log.load(padId);
  }

  /**
   * Store pads' new operations in one transaction (a group commit); if it
   * fails for want of room, each pad in a transaction of its own, so a pad
   * that fits is stored even when another does not.
   *
   * @param writes What each pad asks to have stored.
   * @returns The pads not stored, each with a line saying why.
   *
   * @example
   * ```ts
   * import { restartLog, SqlitePadDatabase } from "@rustpad-mcp/server/pad-server";
   * import assert from "node:assert/strict";
   *
   * using database = new SqlitePadDatabase(":memory:");
   * const operations = restartLog("hi");
   * const failures = database.write([
   *   { padId: "a", from: 0, operations, language: null, nextUserId: 0 },
   * ]);
   * assert.deepEqual(failures, []);
   * assert.equal(database.get("a")?.text, "hi");
   * ```
   */
  write(writes: readonly PadWrite[]): StoreFailure[] {
    for (const { padId } of writes) checkPadId(padId);
    return this.#log.write(writes);
  }

  /**
   * Store a pad, replacing what was stored under its id: its log starts
   * over with its text as one insert by user 2^64-1.
   *
   * @param padId The pad id.
   * @param pad Its text and language.
   * @throws {TypeError} If `padId` is not a valid pad id.
   *
   * @example
   * ```ts
   * import { SqlitePadDatabase } from "@rustpad-mcp/server/testing";
   * import assert from "node:assert/strict";
   *
   * using database = new SqlitePadDatabase(":memory:");
   * database.set("a", { text: "one", language: null });
   * database.set("a", { text: "two", language: null });
   * assert.equal(database.get("a")?.text, "two");
   * ```
   */
  set(padId: string, pad: PersistedPad): void {
    this.setAll([[padId, pad]]);
  }

  /**
   * Start several pads' logs over, each with its text as one insert, in
   * one transaction; if that fails for want of room, each pad alone, so
   * the pads that fit are stored.
   *
   * @param pads Pad ids and pads.
   * @throws {TypeError} If a pad id is not a valid pad id.
   * @throws {Error} Naming each pad not stored and why.
   *
   * @example
   * ```ts
   * import { SqlitePadDatabase } from "@rustpad-mcp/server/testing";
   * import assert from "node:assert/strict";
   *
   * using database = new SqlitePadDatabase(":memory:");
   * database.setAll([
   *   ["a", { text: "one", language: null }],
   *   ["b", { text: "a\0b", language: "rust" }],
   * ]);
   * assert.equal(database.get("b")?.text, "a\0b");
   * ```
   */
  setAll(pads: ReadonlyArray<readonly [string, PersistedPad]>): void {
    for (const [padId] of pads) checkPadId(padId);
    const failures = this.#log.write(pads.map(([padId, pad]) => ({
      padId,
      from: 0,
      operations: restartLog(pad.text),
      language: pad.language,
      nextUserId: this.#log.load(padId)?.nextUserId ?? 0,
    })));
    if (failures.length > 0) {
      throw new Error(failures.map((failure) => failure.reason).join("; "));
    }
  }

  /**
   * Close the file. Calling it again does nothing.
   *
   * @example
   * ```ts
   * import { SqlitePadDatabase } from "@rustpad-mcp/server/testing";
   *
   * const database = new SqlitePadDatabase(":memory:");
   * database.close();
   * ```
   */
  close(): void {
    if (this.#database.isOpen) this.#database.close();
  }

  /**
   * The agents' suggestions and authors, kept in this file beside the pads
   * through this connection (the file is held exclusively by default, so a
   * second connection could not open it). Closing this database closes it.
   *
   * @example
   * ```ts
   * import { SqlitePadDatabase } from "@rustpad-mcp/server/pad-server";
   * import assert from "node:assert/strict";
   *
   * using database = new SqlitePadDatabase(":memory:");
   * const agents = database.agentStore();
   * assert.equal(agents.authors("notes").length, 0);
   * ```
   */
  agentStore(): SqliteAgentStore {
    return new SqliteAgentStore(this.#database);
  }

  /**
   * {@linkcode SqlitePadDatabase.close}, for `using`.
   *
   * @example
   * ```ts
   * import { SqlitePadDatabase } from "@rustpad-mcp/server/testing";
   *
   * {
   *   using database = new SqlitePadDatabase(":memory:");
   * } // closed here
   * ```
   */
  [Symbol.dispose](): void {
    this.close();
  }
}
