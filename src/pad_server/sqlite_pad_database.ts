/**
 * Pads persisted in a SQLite file, as the real Rustpad server persists them
 * (`SQLITE_URI`): one table `document (id, text, language)`, the same
 * schema as the real server's migration. It uses Deno's built-in
 * `node:sqlite`, so it needs no dependency.
 *
 * @module
 */

import { DatabaseSync, type StatementSync } from "node:sqlite";
import { checkPadId } from "../rustpad/pad_id.ts";
import type { PadStorage, PersistedPad } from "./pad_database.ts";

const SCHEMA = `CREATE TABLE IF NOT EXISTS document(
    id TEXT PRIMARY KEY,
    text TEXT NOT NULL,
    language TEXT
)`;

/**
 * How long a statement waits for another connection's lock, in
 * milliseconds. Short: the wait blocks the event loop, and a failed
 * snapshot is retried at the next one.
 */
const BUSY_TIMEOUT_MS = 50;
const UTF8 = new TextDecoder();

/**
 * Readers never block the writer, as with the real server (sqlx opens
 * SQLite in WAL mode). A file another process holds locked stays in its
 * mode: the busy timeout and the retries cover it.
 */
function useWriteAheadLog(database: DatabaseSync): void {
  try {
    database.exec("PRAGMA journal_mode = WAL");
    // In WAL a commit survives the process being killed without an fsync
    // of its own; only a power cut may lose the last ones.
    database.exec("PRAGMA synchronous = NORMAL");
  } catch {
    // Locked by another connection now: keep the file's journal mode.
  }
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
 * const path = await Deno.makeTempFile({ suffix: ".sqlite" });
 * {
 *   using database = new SqlitePadDatabase(path);
 *   await using server = await startPadServer({ database });
 *   database.set("notes", { text: "kept", language: null });
 * }
 * using database = new SqlitePadDatabase(path);
 * await using server = await startPadServer({ database });
 * assert.equal(server.text("notes"), "kept");
 * await Deno.remove(path);
 * ```
 */
export class SqlitePadDatabase implements PadStorage, Disposable {
  /** The file, as given. */
  readonly path: string;
  readonly #database: DatabaseSync;
  readonly #select: StatementSync;
  readonly #upsert: StatementSync;
  readonly #count: StatementSync;

  /**
   * Open the file, creating it and its table if missing.
   *
   * @param path The SQLite file (`":memory:"` for none).
   * @throws {Error} If the file cannot be opened as a SQLite database.
   */
  constructor(path: string) {
    this.path = path;
    this.#database = new DatabaseSync(path, { timeout: BUSY_TIMEOUT_MS });
    try {
      this.#database.exec(SCHEMA);
      useWriteAheadLog(this.#database);
    } catch (error) {
      this.#database.close();
      throw new Error(
        `Cannot persist pads in ${path} as it is not a usable SQLite database: ${
          (error as Error).message
        }`,
      );
    }
    // Read as bytes: node:sqlite reads TEXT up to its first NUL.
    this.#select = this.#database.prepare(
      "SELECT CAST(text AS BLOB) AS text, language FROM document WHERE id = ?",
    );
    this.#upsert = this.#database.prepare(
      `INSERT INTO document (id, text, language) VALUES (?, ?, ?)
       ON CONFLICT(id) DO UPDATE SET text = excluded.text, language = excluded.language`,
    );
    this.#count = this.#database.prepare(
      "SELECT count(*) AS size FROM document",
    );
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
    const row = this.#run("count pads", () => this.#count.get()) as {
      size: number | bigint;
    };
    return Number(row.size);
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
    const row = this.#run(
      "read pad",
      () =>
        this.#select.get(padId) as
          | { text: Uint8Array; language: string | null }
          | undefined,
    );
    if (row === undefined) return undefined;
    return Object.freeze({
      text: UTF8.decode(row.text),
      language: row.language ?? null,
    });
  }

  /**
   * Store a pad, replacing what was stored under its id.
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
   * Store several pads in one transaction: all of them, or none if it
   * fails (the database is locked by another writer for more than the busy
   * timeout, the disk is full).
   *
   * @param pads Pad ids and pads.
   * @throws {TypeError} If a pad id is not a valid pad id.
   * @throws {Error} If the transaction fails; nothing was stored.
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
    this.#run(`store ${pads.length} pads`, () => {
      this.#database.exec("BEGIN IMMEDIATE");
      try {
        for (const [padId, pad] of pads) {
          this.#upsert.run(padId, pad.text, pad.language);
        }
        this.#database.exec("COMMIT");
      } catch (error) {
        if (this.#database.isTransaction) this.#database.exec("ROLLBACK");
        throw error;
      }
    });
  }

  #run<T>(what: string, statement: () => T): T {
    try {
      return statement();
    } catch (error) {
      throw new Error(
        `Cannot ${what} in ${this.path} as SQLite failed: ${
          (error as Error).message
        }; it is retried at the next snapshot`,
      );
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
