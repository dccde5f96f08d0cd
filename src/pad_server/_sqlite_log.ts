// The statements of a pads file (schema in _sqlite_schema.ts): read a
// pad's log, write pads' new operations in one transaction, and when that
// fails for want of room, each pad in a transaction of its own, so that a
// pad that fits is stored even when another does not.

import type { DatabaseSync, StatementSync } from "node:sqlite";
import { TextOperation } from "../ot/operation.ts";
import type {
  LoggedOperation,
  PadWrite,
  StoredPad,
  StoreFailure,
} from "./pad_store.ts";
import { replayLog } from "./pad_store.ts";

const UTF8 = new TextDecoder();

/** A row of `pad_log`. */
interface LogRow {
  user_id: number | bigint;
  name: string | null;
  agent: number;
  operation: string;
}

/** The signed 64 bits SQLite stores a user id as (2^64-1 is -1). */
function storedUserId(id: number | bigint): number | bigint {
  return typeof id === "bigint" ? BigInt.asIntN(64, id) : id;
}

function loadedUserId(id: number | bigint): number | bigint {
  return id < 0 ? BigInt.asUintN(64, BigInt(id)) : Number(id);
}

/** Whether SQLite failed for another connection's lock. */
function isBusy(error: unknown): boolean {
  const { errcode, message } = error as { errcode?: number; message?: string };
  return errcode === 5 || errcode === 6 || /locked|busy/i.test(message ?? "");
}

/** The prepared statements of one open pads file. */
export class SqliteLog {
  readonly #database: DatabaseSync;
  readonly #path: string;
  readonly #document: StatementSync;
  readonly #log: StatementSync;
  readonly #cut: StatementSync;
  readonly #append: StatementSync;
  readonly #pad: StatementSync;
  readonly #restart: StatementSync;
  readonly #count: StatementSync;
  /**
   * Per pad, the language and next user id its row holds, as last
   * committed: a write that changes neither does not touch the row.
   */
  readonly #rows = new Map<string, string>();

  constructor(database: DatabaseSync, path: string) {
    this.#database = database;
    this.#path = path;
    // Read as bytes: node:sqlite reads TEXT up to its first NUL.
    this.#document = database.prepare(
      "SELECT language, next_user FROM document WHERE id = ?",
    );
    this.#log = database.prepare(
      `SELECT user_id, name, agent, CAST(operation AS BLOB) AS operation
       FROM pad_log WHERE pad = ? ORDER BY revision`,
    );
    this.#cut = database.prepare(
      "DELETE FROM pad_log WHERE pad = ? AND revision >= ?",
    );
    this.#append = database.prepare(
      `INSERT INTO pad_log (pad, revision, user_id, name, agent, operation)
       VALUES (?, ?, ?, ?, ?, ?)`,
    );
    this.#pad = database.prepare(
      `INSERT INTO document (id, text, language, next_user) VALUES (?, '', ?, ?)
       ON CONFLICT(id) DO UPDATE SET
         language = excluded.language, next_user = excluded.next_user`,
    );
    this.#restart = database.prepare(
      "UPDATE document SET text = ? WHERE id = ?",
    );
    this.#count = database.prepare("SELECT count(*) AS size FROM document");
  }

  get size(): number {
    const row = this.#run("count pads", () => this.#count.get()) as {
      size: number | bigint;
    };
    return Number(row.size);
  }

  load(padId: string): StoredPad | undefined {
    return this.#run(`read pad ${padId}`, () => {
      const pad = this.#document.get(padId) as
        | { language: string | null; next_user: number | bigint }
        | undefined;
      if (pad === undefined) return undefined;
      const rows = this.#log.all(padId) as unknown as (
        & Omit<LogRow, "operation">
        & { operation: Uint8Array }
      )[];
      const log: LoggedOperation[] = rows.map((row) => ({
        author: {
          userId: loadedUserId(row.user_id),
          name: row.name,
          agent: row.agent !== 0,
        },
        operation: TextOperation.fromJSON(
          JSON.parse(UTF8.decode(row.operation)),
        ),
      }));
      return {
        log,
        language: pad.language ?? null,
        nextUserId: Number(pad.next_user),
      };
    });
  }

  /**
   * All of `writes` in one transaction; if it fails for want of room,
   * each pad alone. While another connection holds the lock, none.
   */
  write(writes: readonly PadWrite[]): StoreFailure[] {
    if (writes.length === 0) return [];
    try {
      this.#transaction(writes);
      return [];
    } catch (error) {
      if (writes.length === 1 || isBusy(error)) {
        return writes.map(({ padId }) => this.#failure(padId, error));
      }
    }
    const failures: StoreFailure[] = [];
    for (const write of writes) {
      try {
        this.#transaction([write]);
      } catch (error) {
        failures.push(this.#failure(write.padId, error));
      }
    }
    return failures;
  }

  #failure(padId: string, error: unknown): StoreFailure {
    return {
      padId,
      reason: `Cannot store pad ${padId} in ${this.#path} as SQLite failed: ${
        (error as Error).message
      }`,
    };
  }

  /**
   * One transaction of every statement of `writes`; a single statement
   * (one operation appended, the common case) is its own transaction.
   */
  #transaction(writes: readonly PadWrite[]): void {
    const database = this.#database;
    const statements = writes.flatMap((write) => this.#statements(write));
    const rows = writes.map(({ padId }) => padId);
    if (statements.length === 1) {
      try {
        return statements[0]!();
      } catch (error) {
        for (const padId of rows) this.#rows.delete(padId);
        throw error;
      }
    }
    database.exec("BEGIN IMMEDIATE");
    try {
      for (const statement of statements) statement();
      database.exec("COMMIT");
    } catch (error) {
      if (database.isTransaction) database.exec("ROLLBACK");
      for (const padId of rows) this.#rows.delete(padId);
      throw error;
    }
  }

  /** The statements that store `write`. */
  #statements(write: PadWrite): (() => void)[] {
    const { padId, from, operations } = write;
    const statements: (() => void)[] = [];
    // Operations at `from` or after exist only where the log starts over.
    if (from === 0 || !this.#rows.has(padId)) {
      statements.push(() => this.#cut.run(padId, from));
    }
    for (const [index, { author, operation }] of operations.entries()) {
      statements.push(() =>
        this.#append.run(
          padId,
          from + index,
          storedUserId(author.userId),
          author.name,
          author.agent ? 1 : 0,
          JSON.stringify(operation.toJSON()),
        )
      );
    }
    const row = JSON.stringify([write.language, write.nextUserId]);
    if (this.#rows.get(padId) !== row) {
      statements.push(() => {
        this.#pad.run(padId, write.language, write.nextUserId);
        this.#rows.set(padId, row);
      });
    }
    if (from === 0) {
      statements.push(() => this.#restart.run(replayLog(operations), padId));
    }
    return statements;
  }

  #run<T>(what: string, statement: () => T): T {
    try {
      return statement();
    } catch (error) {
      throw new Error(
        `Cannot ${what} in ${this.#path} as SQLite failed: ${
          (error as Error).message
        }`,
      );
    }
  }
}
