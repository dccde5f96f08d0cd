/**
 * Rustpad's WebSocket messages: one type per message, and strict readers for
 * both directions. The client reads server frames with
 * {@linkcode parseServerMessage}; the compatible server reads client frames
 * with {@linkcode parseClientMessage}, which refuses exactly what the real
 * server hangs up on.
 *
 * @module
 */

import { fromOwnedJSON, TextOperation } from "../ot/operation.ts";

/**
 * A user id: a per-pad counter, or 2^64-1 ({@linkcode PERSISTED_USER_ID}) for
 * the operation of a pad restored from the database. Ids above 2^53 are read
 * as `bigint` so they keep their exact value.
 */
export type UserId = number | bigint;

/** The author id of the single operation of a pad restored from storage. */
export const PERSISTED_USER_ID: bigint = 18446744073709551615n;

/** The largest pad text the server accepts, in code points (256 KiB). */
export const MAX_TEXT_LENGTH = 262_144;

/** A user's display name and colour (hue, 0 to 359 by convention). */
export interface UserInfo {
  /** Display name. */
  name: string;
  /** Colour wheel angle, an unsigned 32-bit integer. */
  hue: number;
  /** Ours, read from our pad server only: an agent (docs/protocol.md). */
  agent?: boolean;
}

/** A user's cursors and selections, in code point offsets. */
export interface CursorData {
  /** Cursor positions. */
  cursors: number[];
  /** Selections as `[start, end]` pairs. */
  selections: [number, number][];
}

/** One entry of a pad's history: an operation and the user who made it. */
export interface UserOperation {
  /** The author's user id. */
  id: UserId;
  /** The operation as the server applied it. */
  operation: TextOperation;
}

/** A message from the server to a client. */
export type ServerMessage =
  | { Identity: UserId }
  | { History: { start: number; operations: UserOperation[] } }
  | { Language: string }
  | { UserInfo: { id: UserId; info: UserInfo | null } }
  | { UserCursor: { id: UserId; data: CursorData } };

/** A message from a client to the server. */
export type ClientMessage =
  | { Edit: { revision: number; operation: TextOperation } }
  | { SetLanguage: string }
  | { ClientInfo: UserInfo }
  | { CursorData: CursorData };

const U32_MAX = 0xffff_ffff;

// `JSON.rawJSON` (V8, Deno 2) writes an integer beyond 2^53 exactly; the
// TypeScript library does not declare it yet.
const rawJSON = (JSON as unknown as { rawJSON(text: string): unknown })
  .rawJSON;

/**
 * Write a message as the JSON text frame the protocol uses. Operations are
 * written in normal form and big user ids as exact integers.
 *
 * @param message A message in either direction.
 * @returns The text frame.
 *
 * @example
 * ```ts
 * import { encodeMessage, PERSISTED_USER_ID, TextOperation } from "../mod.ts";
 * import assert from "node:assert/strict";
 *
 * const frame = encodeMessage({
 *   History: {
 *     start: 0,
 *     operations: [{ id: PERSISTED_USER_ID, operation: TextOperation.fromJSON(["hi"]) }],
 *   },
 * });
 * assert.equal(frame, '{"History":{"start":0,"operations":[{"id":18446744073709551615,"operation":["hi"]}]}}');
 * ```
 */
export function encodeMessage(message: ServerMessage | ClientMessage): string {
  // Without a replacer first (twice as fast on a long history): only a
  // 64-bit user id is a bigint, and JSON.stringify refuses one.
  try {
    return JSON.stringify(message);
  } catch (error) {
    if (!(error instanceof TypeError)) throw error;
  }
  return JSON.stringify(
    message,
    (_key, value) =>
      typeof value === "bigint" ? rawJSON(value.toString()) : value,
  );
}

/**
 * Read a server frame, checking its shape. Big integers keep their exact
 * value (as `bigint`).
 *
 * @param frame The text frame.
 * @returns The message.
 * @throws {SyntaxError} If the frame is not JSON.
 * @throws {TypeError} If it is not one of the five server messages.
 *
 * @example
 * ```ts
 * import { parseServerMessage } from "../mod.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(parseServerMessage('{"Identity":3}'), { Identity: 3 });
 * ```
 */
export function parseServerMessage(frame: string): ServerMessage {
  const [variant, body] = readVariant(frame, "server");
  switch (variant) {
    case "Identity":
      return { Identity: readUserId(body, "Identity") };
    case "History": {
      const history = readObject(body, "History");
      const start = readInteger(history.start, "History.start");
      if (!Array.isArray(history.operations)) {
        throw shapeError("History.operations", history.operations);
      }
      const operations = history.operations.map(readHistoryEntry);
      return { History: { start, operations } };
    }
    case "Language":
      return { Language: readString(body, "Language") };
    case "UserInfo": {
      const fields = readObject(body, "UserInfo");
      const info = fields.info === null
        ? null
        : readUserInfo(fields.info, "UserInfo.info", true);
      return { UserInfo: { id: readUserId(fields.id, "UserInfo.id"), info } };
    }
    case "UserCursor": {
      const fields = readObject(body, "UserCursor");
      return {
        UserCursor: {
          id: readUserId(fields.id, "UserCursor.id"),
          data: readCursorData(fields.data, "UserCursor.data"),
        },
      };
    }
    default:
      throw new TypeError(
        `Cannot read server message as its variant is unknown: current value is ${
          JSON.stringify(variant)
        }`,
      );
  }
}

/**
 * Read a client frame the way the real server does: anything it would hang
 * up on (bad JSON, an unknown variant, a missing or mistyped field, a
 * negative or fractional number, a string holding a lone surrogate) throws.
 * Unknown extra fields are ignored, as serde does.
 *
 * @param frame The text frame.
 * @returns The message.
 * @throws {SyntaxError} If the frame is not JSON.
 * @throws {TypeError} If it is not one of the four client messages.
 *
 * @example
 * ```ts
 * import { parseClientMessage } from "../mod.ts";
 * import assert from "node:assert/strict";
 *
 * assert.throws(() => parseClientMessage('{"ClientInfo":{"name":"Alice"}}'), TypeError);
 * ```
 */
export function parseClientMessage(frame: string): ClientMessage {
  return refuseLoneSurrogates(readClientMessage(frame));
}

function readClientMessage(frame: string): ClientMessage {
  const [variant, body] = readVariant(frame, "client");
  switch (variant) {
    case "Edit": {
      const fields = readObject(body, "Edit");
      return {
        Edit: {
          revision: readInteger(fields.revision, "Edit.revision"),
          operation: readOperation(fields.operation, "Edit.operation"),
        },
      };
    }
    case "SetLanguage":
      return { SetLanguage: readString(body, "SetLanguage") };
    case "ClientInfo":
      return { ClientInfo: readUserInfo(body, "ClientInfo") };
    case "CursorData":
      return { CursorData: readCursorData(body, "CursorData") };
    default:
      throw new TypeError(
        `Cannot read client message as its variant is unknown: current value is ${
          JSON.stringify(variant)
        }`,
      );
  }
}

/**
 * The real server reads every string of a frame into a Rust `String`, and
 * serde_json refuses a `\uD800`-style escape of half a surrogate pair
 * there (a Rust string holds only whole characters), so the frame does not
 * parse and the server hangs up.
 */
function refuseLoneSurrogates(message: ClientMessage): ClientMessage {
  const strings = "Edit" in message
    ? message.Edit.operation.components.filter((component) =>
      typeof component === "string"
    )
    : "SetLanguage" in message
    ? [message.SetLanguage]
    : "ClientInfo" in message
    ? [message.ClientInfo.name]
    : [];
  for (const text of strings) {
    if (!text.isWellFormed()) {
      throw new TypeError(
        `Cannot read client message as a string in it holds a lone surrogate, which the real server's JSON reader refuses: current value is ${
          JSON.stringify(text.length > 60 ? `${text.slice(0, 60)}…` : text)
        }`,
      );
    }
  }
  return message;
}

/**
 * A member's integer value of 16 digits or more: the only kind that can be
 * unsafe and still be read (user ids; a long number anywhere else, as in
 * an operation, is refused as out of range either way). Anchored on `":`,
 * the search skips ahead, where a bare `\d{16}` tries every digit of a long
 * history (5 ms on a 10,000-edit one, against 0.7 ms).
 */
const LONG_INTEGER = /":\s*\d{16}/;

/** Parse a frame keeping big integers exact, and split off its variant. */
function readVariant(frame: string, side: string): [string, unknown] {
  // A reviver costs about ten times the parse itself, so it runs only when
  // the frame holds a number long enough to be beyond 2^53.
  const value: unknown = LONG_INTEGER.test(frame)
    ? JSON.parse(
      frame,
      (_key, value, context?: { source?: string }) =>
        typeof value === "number" && !Number.isSafeInteger(value) &&
          context?.source !== undefined && /^-?\d+$/.test(context.source)
          ? BigInt(context.source)
          : value,
    )
    : JSON.parse(frame);
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw shapeError(`${side} message`, value);
  }
  const keys = Object.keys(value);
  if (keys.length !== 1) {
    throw new TypeError(
      `Cannot read ${side} message as it must have exactly one variant key: current keys are ${
        JSON.stringify(keys)
      }`,
    );
  }
  const variant = keys[0] as string;
  return [variant, (value as Record<string, unknown>)[variant]];
}

function readObject(value: unknown, where: string): Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw shapeError(where, value);
  }
  return value as Record<string, unknown>;
}

function readString(value: unknown, where: string): string {
  if (typeof value !== "string") throw shapeError(where, value);
  return value;
}

function readInteger(value: unknown, where: string, max?: number): number {
  if (
    typeof value !== "number" || !Number.isSafeInteger(value) || value < 0 ||
    (max !== undefined && value > max)
  ) {
    throw shapeError(where, value);
  }
  return value;
}

/**
 * Entry `i` of a History. The common case is read without the words an
 * error would need (a long history has tens of thousands of entries); only
 * a wrong entry is read again, to say what is wrong with it.
 */
function readHistoryEntry(entry: unknown, i: number): UserOperation {
  if (typeof entry === "object" && entry !== null) {
    const { id, operation } = entry as Record<string, unknown>;
    if (isUserId(id) && Array.isArray(operation)) {
      try {
        return { id, operation: fromOwnedJSON(operation) };
      } catch {
        // Described below.
      }
    }
  }
  const where = `History.operations[${i}]`;
  const fields = readObject(entry, where);
  return {
    id: readUserId(fields.id, `${where}.id`),
    operation: readOperation(fields.operation, `${where}.operation`),
  };
}

/** A user id: a nonnegative safe integer, or a bigint up to 2^64 - 1. */
function isUserId(value: unknown): value is UserId {
  return typeof value === "bigint"
    ? value >= 0n && value <= PERSISTED_USER_ID
    : typeof value === "number" && Number.isSafeInteger(value) && value >= 0;
}

function readUserId(value: unknown, where: string): UserId {
  if (isUserId(value)) return value;
  throw shapeError(where, value);
}

function readUserInfo(value: unknown, where: string, server = false): UserInfo {
  const fields = readObject(value, where);
  return {
    name: readString(fields.name, `${where}.name`),
    hue: readInteger(fields.hue, `${where}.hue`, U32_MAX),
    ...server && fields.agent === true && { agent: true as const },
  };
}

function readCursorData(value: unknown, where: string): CursorData {
  const fields = readObject(value, where);
  const { cursors, selections } = fields;
  if (!Array.isArray(cursors)) throw shapeError(`${where}.cursors`, cursors);
  if (!Array.isArray(selections)) {
    throw shapeError(`${where}.selections`, selections);
  }
  return {
    cursors: cursors.map((cursor, i) =>
      readInteger(cursor, `${where}.cursors[${i}]`, U32_MAX)
    ),
    selections: selections.map((pair, i) => {
      const at = `${where}.selections[${i}]`;
      if (!Array.isArray(pair) || pair.length !== 2) {
        throw shapeError(at, pair);
      }
      return [
        readInteger(pair[0], `${at}[0]`, U32_MAX),
        readInteger(pair[1], `${at}[1]`, U32_MAX),
      ];
    }),
  };
}

function readOperation(value: unknown, where: string): TextOperation {
  try {
    return TextOperation.fromJSON(value);
  } catch (error) {
    throw new TypeError(
      `Cannot read ${where} as it is not an operation: ${
        (error as Error).message
      }`,
    );
  }
}

function shapeError(where: string, value: unknown): TypeError {
  let shown: string;
  try {
    shown = JSON.stringify(value, (_key, v) =>
      typeof v === "bigint" ? v.toString() : v) ?? String(value);
  } catch {
    shown = String(value);
  }
  if (shown.length > 60) shown = `${shown.slice(0, 60)}…`;
  return new TypeError(
    `Cannot read ${where} as it has the wrong shape: current value is ${shown}`,
  );
}
