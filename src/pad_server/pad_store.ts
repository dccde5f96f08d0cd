/**
 * Where a pad server keeps each pad's whole operation log, with each
 * operation's author, so that revisions and authors continue across
 * restarts: one interface ({@linkcode PadStore}) with an implementation in
 * memory ({@linkcode MemoryPadStore}, for tests) and one in SQLite
 * (`SqlitePadDatabase`), in the manner of ShareDB's database adapters.
 *
 * @module
 */

import { TextOperation } from "../ot/operation.ts";
import { TextBuffer } from "../ot/text_buffer.ts";
import { checkPadId } from "../rustpad/pad_id.ts";
import { PERSISTED_USER_ID, type UserId } from "../rustpad/protocol.ts";
import type { PadStorage, PersistedPad } from "./pad_database.ts";

/** Who sent an operation, as the pad knew them when it applied it. */
export interface OperationAuthor {
  /** The connection's user id; 2^64-1 for a text restored as one insert. */
  readonly userId: UserId;
  /** The name its last `ClientInfo` gave, `null` if it gave none. */
  readonly name: string | null;
  /** Whether the pad server knew the connection as an agent's. */
  readonly agent: boolean;
}

/** One operation of a pad's log, as the server applied it. */
export interface LoggedOperation {
  /** Who sent it. */
  readonly author: OperationAuthor;
  /** The operation, transformed as the server applied it. */
  readonly operation: TextOperation;
}

/** A pad as a {@linkcode PadStore} keeps it. */
export interface StoredPad {
  /** Every operation from revision 0 on, oldest first. */
  readonly log: readonly LoggedOperation[];
  /** The editor language, `null` if never set. */
  readonly language: string | null;
  /** The user id the pad gives its next connection. */
  readonly nextUserId: number;
}

/** What one pad asks to have stored. */
export interface PadWrite {
  /** The pad id. */
  readonly padId: string;
  /**
   * The revision of the first of `operations`: operations stored at it or
   * after are replaced (0 starts the log over).
   */
  readonly from: number;
  /** The operations at revisions `from`, `from + 1`, .... */
  readonly operations: readonly LoggedOperation[];
  /** The pad's language now. */
  readonly language: string | null;
  /** The user id the pad gives its next connection now. */
  readonly nextUserId: number;
}

/** A pad a {@linkcode PadStore} could not store, and why. */
export interface StoreFailure {
  /** The pad id. */
  readonly padId: string;
  /** What failed, as the store said it. */
  readonly reason: string;
}

/**
 * A pad database that keeps each pad's operation log: the pad server
 * stores every operation before anyone hears of it, and replays the log
 * when the pad is opened again. It is also a {@linkcode PadStorage}:
 * `get` answers the text the log makes, `set` starts a pad's log over
 * with its text as one insert.
 */
export interface PadStore extends PadStorage {
  /** The pad as stored, or `undefined` if there is none. */
  load(padId: string): StoredPad | undefined;
  /**
   * Store every write, each pad whole or not at all; a pad that fits is
   * stored even when another does not.
   *
   * @returns The pads not stored, and why; empty when all were.
   */
  write(writes: readonly PadWrite[]): StoreFailure[];
}

/**
 * Whether `storage` keeps operation logs (a {@linkcode PadStore}), not
 * only each pad's text.
 *
 * @param storage Where pads persist.
 * @returns Whether it is a {@linkcode PadStore}.
 * @example
 * ```ts
 * import { isPadStore, MemoryPadStore, PadDatabase } from "@rustpad-mcp/server/pad-server";
 * import assert from "node:assert/strict";
 *
 * assert.equal(isPadStore(new MemoryPadStore()), true);
 * assert.equal(isPadStore(new PadDatabase()), false);
 * ```
 */
export function isPadStore(storage: PadStorage): storage is PadStore {
  const candidate = storage as Partial<PadStore>;
  return typeof candidate.load === "function" &&
    typeof candidate.write === "function";
}

/**
 * The log of a pad restored from `text`: one insert of all of it by user
 * 2^64-1, as the real server restarts a pad.
 *
 * @param text The pad's text.
 * @returns A log of one operation.
 * @example
 * ```ts
 * import { restartLog } from "@rustpad-mcp/server/pad-server";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(restartLog("hi")[0]?.operation.toJSON(), ["hi"]);
 * ```
 */
export function restartLog(text: string): LoggedOperation[] {
  return [{
    author: { userId: PERSISTED_USER_ID, name: null, agent: false },
    operation: new TextOperation().insert(text),
  }];
}

/**
 * The text a log makes from the empty text.
 *
 * @param log Operations from revision 0 on.
 * @returns The text after the last one.
 * @throws {Error} If an operation does not fit the text before it.
 * @example
 * ```ts
 * import { replayLog, restartLog } from "@rustpad-mcp/server/pad-server";
 * import assert from "node:assert/strict";
 *
 * assert.equal(replayLog(restartLog("hi")), "hi");
 * ```
 */
export function replayLog(log: readonly LoggedOperation[]): string {
  const buffer = new TextBuffer();
  for (const { operation } of log) buffer.apply(operation);
  return buffer.toString();
}

/**
 * Pads' operation logs in memory, for tests: pass the same store to a
 * second server to restart it with revisions and authors kept.
 *
 * @example Revisions continue across a restart
 * ```ts
 * import { MemoryPadStore, startPadServer } from "@rustpad-mcp/server/pad-server";
 * import assert from "node:assert/strict";
 *
 * const database = new MemoryPadStore();
 * const server = await startPadServer({ database });
 * const socket = new WebSocket(`${server.url}/api/socket/a`);
 * socket.onmessage = (event) => {
 *   if (event.data === '{"Identity":0}') {
 *     socket.send('{"Edit":{"revision":0,"operation":["kept"]}}');
 *   } else socket.close();
 * };
 * await new Promise((resolve) => socket.onclose = resolve);
 * await server.close();
 * assert.equal(database.load("a")?.log.length, 1);
 * assert.equal(database.get("a")?.text, "kept");
 * ```
 */
export class MemoryPadStore implements PadStore {
  readonly #pads = new Map<string, StoredPad>();

  /**
   * Number of pads stored: the real server's `database_size`.
   *
   * @example
   * ```ts
   * import { MemoryPadStore } from "@rustpad-mcp/server/pad-server";
   * import assert from "node:assert/strict";
   *
   * const store = new MemoryPadStore();
   * store.set("a", { text: "", language: null });
   * assert.equal(store.size, 1);
   * ```
   */
  get size(): number {
    return this.#pads.size;
  }

  /**
   * The pad as stored.
   *
   * @param padId The pad id.
   * @returns Its log, language and next user id, or `undefined`.
   * @example
   * ```ts
   * import { MemoryPadStore } from "@rustpad-mcp/server/pad-server";
   * import assert from "node:assert/strict";
   *
   * const store = new MemoryPadStore();
   * store.set("a", { text: "hi", language: "rust" });
   * assert.equal(store.load("a")?.language, "rust");
   * ```
   */
  load(padId: string): StoredPad | undefined {
    const pad = this.#pads.get(padId);
    return pad === undefined ? undefined : { ...pad, log: [...pad.log] };
  }

  /**
   * Store every write; in memory nothing fails.
   *
   * @param writes What each pad asks to have stored.
   * @returns An empty list.
   * @throws {TypeError} If a pad id is not a valid pad id.
   * @throws {RangeError} If a write leaves a gap in a pad's log.
   * @example
   * ```ts
   * import { MemoryPadStore, restartLog } from "@rustpad-mcp/server/pad-server";
   * import assert from "node:assert/strict";
   *
   * const store = new MemoryPadStore();
   * const operations = restartLog("hi");
   * store.write([{ padId: "a", from: 0, operations, language: null, nextUserId: 1 }]);
   * assert.equal(store.get("a")?.text, "hi");
   * ```
   */
  write(writes: readonly PadWrite[]): StoreFailure[] {
    for (const write of writes) {
      checkPadId(write.padId);
      const log = [...(this.#pads.get(write.padId)?.log ?? [])];
      if (write.from > log.length) {
        throw new RangeError(
          `Cannot store pad ${write.padId} from revision ${write.from} as its log ends before it: current length is ${log.length}`,
        );
      }
      log.length = write.from;
      log.push(...write.operations);
      this.#pads.set(write.padId, {
        log,
        language: write.language,
        nextUserId: write.nextUserId,
      });
    }
    return [];
  }

  /**
   * The text and language the stored log makes.
   *
   * @param padId The pad id.
   * @returns The pad, or `undefined` if there is none.
   * @example
   * ```ts
   * import { MemoryPadStore } from "@rustpad-mcp/server/pad-server";
   * import assert from "node:assert/strict";
   *
   * assert.equal(new MemoryPadStore().get("none"), undefined);
   * ```
   */
  get(padId: string): PersistedPad | undefined {
    const pad = this.#pads.get(padId);
    if (pad === undefined) return undefined;
    return { text: replayLog(pad.log), language: pad.language };
  }

  /**
   * Start a pad's log over with `pad.text` as one insert.
   *
   * @param padId The pad id.
   * @param pad Its text and language.
   * @throws {TypeError} If `padId` is not a valid pad id.
   * @example
   * ```ts
   * import { MemoryPadStore } from "@rustpad-mcp/server/pad-server";
   * import assert from "node:assert/strict";
   *
   * const store = new MemoryPadStore();
   * store.set("a", { text: "hi", language: null });
   * assert.equal(store.load("a")?.log.length, 1);
   * ```
   */
  set(padId: string, pad: PersistedPad): void {
    const nextUserId = this.#pads.get(padId)?.nextUserId ?? 0;
    this.write([{
      padId,
      from: 0,
      operations: restartLog(pad.text),
      language: pad.language,
      nextUserId,
    }]);
  }
}
