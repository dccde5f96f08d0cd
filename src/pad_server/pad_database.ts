/**
 * An in-memory stand-in for the SQLite file a Rustpad server persists pads
 * to. Pass the same {@linkcode PadDatabase} to a second server to simulate a
 * restart.
 *
 * @module
 */

import { checkPadId } from "../rustpad/pad_id.ts";

/** What the real server stores per pad: its text and its editor language. */
export interface PersistedPad {
  /** The pad's text. */
  readonly text: string;
  /** The pad's Monaco language id, `null` if it was never set. */
  readonly language: string | null;
}

/**
 * Where a pad server persists pads: {@linkcode PadDatabase} in memory, or
 * {@linkcode SqlitePadDatabase} in a file as the real server does.
 */
export interface PadStorage {
  /** Number of pads stored: the real server's `database_size`. */
  readonly size: number;
  /** The stored pad, or `undefined` if there is none. */
  get(padId: string): PersistedPad | undefined;
  /** Store a pad, replacing what was stored under its id. */
  set(padId: string, pad: PersistedPad): void;
  /**
   * Store several pads at once, all or none (one transaction in SQLite);
   * without it, each is `set` in turn.
   */
  setAll?(pads: ReadonlyArray<readonly [string, PersistedPad]>): void;
}

/**
 * Pads as the real server persists them: a map of pad id to text and
 * language. A pad server snapshots into it, reads pads from it that are not
 * in memory, and counts it for `database_size` in `/api/stats`.
 *
 * @example Survive a restart
 * ```ts
 * import { PadDatabase, startPadServer } from "@rustpad-mcp/server/testing";
 * import assert from "node:assert/strict";
 *
 * const database = new PadDatabase({ notes: { text: "hello" } });
 * const server = await startPadServer({ database });
 * await server.close();
 * const again = await startPadServer({ database });
 * assert.equal(again.text("notes"), "hello");
 * await again.close();
 * ```
 */
export class PadDatabase implements PadStorage {
  readonly #pads = new Map<string, PersistedPad>();

  /**
   * Create a database, optionally holding some pads already.
   *
   * @param pads Pads to store, by pad id; a missing language is `null`.
   * @throws {TypeError} If a pad id is not a valid pad id.
   */
  constructor(
    pads: Record<string, { text: string; language?: string | null }> = {},
  ) {
    for (const [padId, pad] of Object.entries(pads)) {
      this.set(padId, { text: pad.text, language: pad.language ?? null });
    }
  }

  /**
   * Number of pads stored: the real server's `database_size`.
   *
   * @example
   * ```ts
   * import { PadDatabase } from "@rustpad-mcp/server/testing";
   * import assert from "node:assert/strict";
   *
   * assert.equal(new PadDatabase({ a: { text: "" } }).size, 1);
   * ```
   */
  get size(): number {
    return this.#pads.size;
  }

  /**
   * Read a stored pad.
   *
   * @param padId The pad id.
   * @returns The stored pad, or `undefined` if there is none.
   *
   * @example
   * ```ts
   * import { PadDatabase } from "@rustpad-mcp/server/testing";
   * import assert from "node:assert/strict";
   *
   * const database = new PadDatabase({ a: { text: "hi", language: "rust" } });
   * assert.deepEqual(database.get("a"), { text: "hi", language: "rust" });
   * assert.equal(database.get("b"), undefined);
   * ```
   */
  get(padId: string): PersistedPad | undefined {
    return this.#pads.get(padId);
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
   * import { PadDatabase } from "@rustpad-mcp/server/testing";
   * import assert from "node:assert/strict";
   *
   * const database = new PadDatabase();
   * database.set("a", { text: "hi", language: null });
   * assert.equal(database.get("a")?.text, "hi");
   * ```
   */
  set(padId: string, pad: PersistedPad): void {
    checkPadId(padId);
    this.#pads.set(
      padId,
      Object.freeze({ text: pad.text, language: pad.language }),
    );
  }
}
