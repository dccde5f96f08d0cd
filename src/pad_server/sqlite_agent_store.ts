/**
 * What agents gave the pad server (suggestions, authors) in SQLite, in two
 * tables of its own, `agent_suggestion` and `agent_author`: beside the
 * pads in the pads file (give it the same `DatabaseSync`), or in a file of
 * its own.
 *
 * @module
 */

import { DatabaseSync, type StatementSync } from "node:sqlite";
import {
  type AgentStore,
  type AuthorRecord,
  MAX_AUTHORS_PER_PAD,
  type PendingCounts,
  type StoredSuggestion,
} from "./agent_store.ts";

const SCHEMA = `
CREATE TABLE IF NOT EXISTS agent_suggestion(
  pad TEXT NOT NULL,
  id TEXT NOT NULL,
  identity TEXT NOT NULL,
  pending INTEGER NOT NULL,
  json TEXT NOT NULL,
  PRIMARY KEY (pad, id)
);
CREATE INDEX IF NOT EXISTS agent_suggestion_pending
  ON agent_suggestion(pending, identity);
CREATE TABLE IF NOT EXISTS agent_author(
  pad TEXT NOT NULL,
  user_id INTEGER NOT NULL,
  name TEXT NOT NULL,
  agent INTEGER NOT NULL,
  identity TEXT NOT NULL,
  at INTEGER NOT NULL,
  PRIMARY KEY (pad, user_id)
);`;

interface SuggestionRow {
  id: string;
  identity: string;
  pending: number;
  json: string;
}

interface AuthorRow {
  user_id: number;
  name: string;
  agent: number;
  identity: string;
}

const suggestionOf = (row: SuggestionRow): StoredSuggestion => ({
  id: row.id,
  identity: row.identity,
  pending: row.pending === 1,
  json: row.json,
});

/**
 * Suggestions and authors in SQLite.
 *
 * @example They outlive the store that wrote them
 * ```ts
 * import { SqliteAgentStore } from "./sqlite_agent_store.ts";
 * import assert from "node:assert/strict";
 *
 * const dir = await Deno.makeTempDir();
 * const path = `${dir}/pads.sqlite`;
 * {
 *   using store = new SqliteAgentStore(path);
 *   store.putSuggestion("notes", { id: "s1", identity: "", pending: true, json: "{}" });
 * }
 * using store = new SqliteAgentStore(path);
 * assert.equal(store.suggestion("notes", "s1")?.json, "{}");
 * await Deno.remove(dir, { recursive: true }); // with its WAL file
 * ```
 */
export class SqliteAgentStore implements AgentStore, Disposable {
  readonly #database: DatabaseSync;
  readonly #owned: boolean;
  readonly #statements: Record<string, StatementSync>;

  /**
   * Use `database` (closed by its owner), or open the file at a path.
   *
   * @param database An open `DatabaseSync` or a file path.
   * @throws {Error} If the file cannot be opened as a SQLite database.
   */
  constructor(database: DatabaseSync | string) {
    this.#owned = typeof database === "string";
    this.#database = typeof database === "string"
      ? new DatabaseSync(database)
      : database;
    if (this.#owned) {
      // Beside another connection to the file (the pads'): wait for its
      // lock a moment rather than fail at once.
      this.#database.exec("PRAGMA busy_timeout = 1000");
    }
    this.#database.exec(SCHEMA);
    const prepare = (sql: string) => this.#database.prepare(sql);
    this.#statements = {
      all: prepare(
        "SELECT id, identity, pending, json FROM agent_suggestion WHERE pad = ?",
      ),
      one: prepare(
        "SELECT id, identity, pending, json FROM agent_suggestion WHERE pad = ? AND id = ?",
      ),
      put: prepare(
        "INSERT OR REPLACE INTO agent_suggestion(pad, id, identity, pending, json) VALUES (?, ?, ?, ?, ?)",
      ),
      remove: prepare("DELETE FROM agent_suggestion WHERE pad = ? AND id = ?"),
      pending: prepare(
        "SELECT pad, identity, COUNT(*) AS count FROM agent_suggestion WHERE pending = 1 GROUP BY pad, identity",
      ),
      putAuthor: prepare(
        "INSERT OR REPLACE INTO agent_author(pad, user_id, name, agent, identity, at) VALUES (?, ?, ?, ?, ?, ?)",
      ),
      trimAuthors: prepare(
        "DELETE FROM agent_author WHERE pad = ? AND user_id NOT IN (SELECT user_id FROM agent_author WHERE pad = ? ORDER BY at DESC LIMIT ?)",
      ),
      authors: prepare(
        "SELECT user_id, name, agent, identity FROM agent_author WHERE pad = ? ORDER BY at",
      ),
    };
  }

  /** Every suggestion of a pad. */
  suggestions(pad: string): StoredSuggestion[] {
    const rows = this.#statements.all!.all(pad) as unknown as SuggestionRow[];
    return rows.map(suggestionOf);
  }

  /** One suggestion. */
  suggestion(pad: string, id: string): StoredSuggestion | undefined {
    const row = this.#statements.one!.get(pad, id) as unknown as
      | SuggestionRow
      | undefined;
    return row === undefined ? undefined : suggestionOf(row);
  }

  /** Store one suggestion. */
  putSuggestion(pad: string, suggestion: StoredSuggestion): void {
    this.#statements.put!.run(
      pad,
      suggestion.id,
      suggestion.identity,
      suggestion.pending ? 1 : 0,
      suggestion.json,
    );
  }

  /** Forget one suggestion. */
  removeSuggestion(pad: string, id: string): void {
    this.#statements.remove!.run(pad, id);
  }

  /** Count the pending ones. */
  pending(pad: string, identity: string): PendingCounts {
    const rows = this.#statements.pending!.all() as unknown as {
      pad: string;
      identity: string;
      count: number;
    }[];
    const counts = {
      pad: 0,
      padByIdentity: 0,
      total: 0,
      totalByIdentity: 0,
      identities: new Set<string>(),
    };
    for (const row of rows) {
      const mine = row.identity === identity;
      counts.identities.add(row.identity);
      counts.total += row.count;
      if (mine) counts.totalByIdentity += row.count;
      if (row.pad !== pad) continue;
      counts.pad += row.count;
      if (mine) counts.padByIdentity += row.count;
    }
    return counts;
  }

  /** Record one author, keeping the latest per pad. */
  putAuthor(pad: string, author: AuthorRecord): void {
    this.#statements.putAuthor!.run(
      pad,
      author.userId,
      author.name,
      author.agent ? 1 : 0,
      author.identity,
      Date.now(),
    );
    this.#statements.trimAuthors!.run(pad, pad, MAX_AUTHORS_PER_PAD);
  }

  /** The authors of a pad. */
  authors(pad: string): AuthorRecord[] {
    const rows = this.#statements.authors!.all(pad) as unknown as AuthorRow[];
    return rows.map((row) => ({
      userId: row.user_id,
      name: row.name,
      agent: row.agent === 1,
      identity: row.identity,
    }));
  }

  /** Close the file if this store opened it. */
  [Symbol.dispose](): void {
    if (this.#owned) this.#database.close();
  }
}
