// The pads file's schema, checked at open: a damaged file is refused in
// one line that names it and says what to do, and a file of the previous
// version (a `document` table of text and language, as the real Rustpad
// writes) is migrated in place, each pad's text becoming a log of one
// insert by user 2^64-1, as the real server restores it.
//
// Version 1 (`PRAGMA user_version = 1`):
//   document(id, text, language, next_user): one row per pad; `text` is
//     the text the pad's log last started from revision 0 with (the
//     migrated text, a compaction, a `set`), kept for readers of the
//     previous version; the log after it is the truth.
//   pad_log(pad, revision, user_id, name, agent, operation): every
//     operation of every pad with its author; user 2^64-1 is stored as -1
//     (the same 64 bits, signed).

import type { DatabaseSync } from "node:sqlite";
import { TextOperation } from "../ot/operation.ts";

const UTF8 = new TextDecoder();

const VERSION = 1;

const DOCUMENT = `CREATE TABLE IF NOT EXISTS document(
    id TEXT PRIMARY KEY,
    text TEXT NOT NULL,
    language TEXT
)`;

const LOG = `CREATE TABLE pad_log(
    pad TEXT NOT NULL,
    revision INTEGER NOT NULL,
    user_id INTEGER NOT NULL,
    name TEXT,
    agent INTEGER NOT NULL DEFAULT 0,
    operation TEXT NOT NULL,
    PRIMARY KEY (pad, revision)
) WITHOUT ROWID`;

/** The columns each table of version 1 must have. */
const COLUMNS: Record<string, string[]> = {
  document: ["id", "text", "language", "next_user"],
  pad_log: ["pad", "revision", "user_id", "name", "agent", "operation"],
};

/** The one line that refuses `path`, with what to do. */
export function damaged(path: string, why: string): Error {
  return new Error(
    `Cannot persist pads in ${path} as it is not a usable SQLite database: ${why}; move it aside (mv ${path} ${path}.damaged) to start with an empty file, or restore it from a backup`,
  );
}

/** `PRAGMA quick_check`'s first complaint, or `undefined` if none. */
function quickCheck(database: DatabaseSync): string | undefined {
  const rows = database.prepare("PRAGMA quick_check(3)").all() as {
    quick_check: string;
  }[];
  const lines = rows.map((row) => row.quick_check.replace(/\s+/g, " "));
  return lines.length === 1 && lines[0] === "ok" ? undefined : lines.join("; ");
}

function columnsOf(database: DatabaseSync, table: string): string[] {
  const rows = database.prepare(`PRAGMA table_info(${table})`).all() as {
    name: string;
  }[];
  return rows.map((row) => row.name);
}

/** What is wrong with the tables of version 1, or `undefined`. */
function schemaFault(database: DatabaseSync): string | undefined {
  for (const [table, wanted] of Object.entries(COLUMNS)) {
    const have = columnsOf(database, table);
    const missing = wanted.filter((column) => !have.includes(column));
    if (missing.length > 0) {
      return `table ${table} lacks ${missing.join(", ")}`;
    }
  }
  return undefined;
}

/** Move a file of the previous version (or an empty one) to version 1. */
function migrate(database: DatabaseSync): void {
  database.exec("BEGIN IMMEDIATE");
  try {
    database.exec(DOCUMENT);
    const have = columnsOf(database, "document");
    for (const column of ["id", "text", "language"]) {
      if (!have.includes(column)) {
        throw new Error(`table document lacks ${column}`);
      }
    }
    database.exec(
      "ALTER TABLE document ADD COLUMN next_user INTEGER NOT NULL DEFAULT 0",
    );
    database.exec(LOG);
    // Read as bytes: node:sqlite reads TEXT up to its first NUL.
    const pads = database.prepare(
      "SELECT id, CAST(text AS BLOB) AS text FROM document",
    ).all() as { id: string; text: Uint8Array }[];
    const insert = database.prepare(
      "INSERT INTO pad_log (pad, revision, user_id, operation) VALUES (?, 0, -1, ?)",
    );
    for (const { id, text } of pads) {
      const operation = new TextOperation().insert(UTF8.decode(text));
      insert.run(id, JSON.stringify(operation.toJSON()));
    }
    database.exec(`PRAGMA user_version = ${VERSION}`);
    database.exec("COMMIT");
  } catch (error) {
    if (database.isTransaction) database.exec("ROLLBACK");
    throw error;
  }
}

/**
 * Check the file open in `database` and bring it to version 1.
 *
 * @throws {Error} One line naming `path`, if it is damaged, not a pads
 * file, or of a newer version.
 */
export function prepareSchema(database: DatabaseSync, path: string): void {
  let version: number;
  try {
    const fault = quickCheck(database);
    if (fault !== undefined) throw damaged(path, `quick_check found ${fault}`);
    version = Number(
      (database.prepare("PRAGMA user_version").get() as {
        user_version: number;
      }).user_version,
    );
    if (version === 0) migrate(database);
  } catch (error) {
    const message = (error as Error).message;
    if (message.startsWith("Cannot ")) throw error;
    if (/locked|busy/i.test(message)) {
      throw new Error(
        `Cannot persist pads in ${path} as another process holds it (a pad server serving it?): ${message}; stop that process, or use another file`,
      );
    }
    throw damaged(path, message);
  }
  if (version > VERSION) {
    throw new Error(
      `Cannot persist pads in ${path} as a newer version wrote it: current schema version is ${version}, this one reads ${VERSION}; run the newer rustpad-mcp, or use another file`,
    );
  }
  const fault = schemaFault(database) ?? garbledOperation(database);
  if (fault !== undefined) throw damaged(path, fault);
}

/**
 * An operation that is not JSON, or `undefined`: quick_check sees the
 * pages' structure, not the bytes of the text they hold.
 */
function garbledOperation(database: DatabaseSync): string | undefined {
  const row = database.prepare(
    "SELECT pad, revision FROM pad_log WHERE NOT json_valid(operation) LIMIT 1",
  ).get() as { pad: string; revision: number } | undefined;
  return row === undefined
    ? undefined
    : `the operation at revision ${row.revision} of pad ${
      JSON.stringify(row.pad)
    } is garbled`;
}
