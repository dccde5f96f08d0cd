// One pad's state, as the real server's `Rustpad` struct keeps it, with no
// I/O: each client message returns the message to broadcast, or throws
// where the real server hangs up.

import { TextOperation } from "../ot/operation.ts";
import {
  type ClientMessage,
  type CursorData,
  encodeMessage,
  MAX_TEXT_LENGTH,
  PERSISTED_USER_ID,
  type ServerMessage,
  type UserInfo,
  type UserOperation,
} from "../rustpad/protocol.ts";
import { TextBuffer } from "../ot/text_buffer.ts";
import { advanceCodePoints } from "../ot/code_points.ts";
import type { PersistedPad } from "./pad_database.ts";
import type { LoggedOperation, StoredPad } from "./pad_store.ts";

/** A pad in memory: text, history, language, users and their cursors. */
export class Pad {
  readonly #text: TextBuffer;
  readonly #history: UserOperation[] = [];
  #language: string | null = null;
  readonly #users = new Map<number, UserInfo>();
  readonly #cursors = new Map<number, CursorData>();
  /** The user ids whose connection presented the agent secret. */
  readonly #agents = new Set<number>();
  #nextUserId = 0;
  #welcomeHistory: { revision: number; frame: string } | undefined;

  /**
   * A new empty pad; one restored from a snapshot, with a history of ONE
   * insert of the whole text (even an empty one) by user 2^64-1, as the
   * real server restores it; or one replayed from its stored log, its
   * revisions and user ids going on where they stopped.
   */
  constructor(persisted?: PersistedPad | StoredPad) {
    if (persisted !== undefined && "log" in persisted) {
      this.#text = new TextBuffer();
      for (const { author, operation } of persisted.log) {
        this.#text.apply(operation);
        this.#history.push({ id: author.userId, operation });
      }
      this.#language = persisted.language;
      this.#nextUserId = persisted.nextUserId;
      return;
    }
    this.#text = new TextBuffer(persisted?.text ?? "");
    if (persisted !== undefined) {
      this.#language = persisted.language;
      this.#history.push({
        id: PERSISTED_USER_ID,
        operation: new TextOperation().insert(persisted.text),
      });
    }
  }

  /** The editor language, `null` if never set. */
  get language(): string | null {
    return this.#language;
  }

  /** The user id the next connection gets. */
  get nextUserId(): number {
    return this.#nextUserId;
  }

  /** Know user `id` as an agent's: its operations are stored as such. */
  markAgent(id: number): void {
    this.#agents.add(id);
  }

  /** The last operation applied, with its author as known now. */
  lastOperation(): LoggedOperation {
    const { id, operation } = this.#history.at(-1)!;
    const userId = Number(id);
    return {
      author: {
        userId: id,
        name: this.#users.get(userId)?.name ?? null,
        agent: this.#agents.has(userId),
      },
      operation,
    };
  }

  /** Number of operations in the history. */
  get revision(): number {
    return this.#history.length;
  }

  get text(): string {
    return this.#text.toString();
  }

  /** What the database stores. */
  toPersisted(): PersistedPad {
    return { text: this.text, language: this.#language };
  }

  /**
   * A new connection's user id: a counter, never reused; `agent` marks
   * the user as an agent in its `UserInfo`.
   */
  join(agent = false): number {
    const id = this.#nextUserId++;
    if (agent) this.#agents.add(id);
    return id;
  }

  /**
   * What a new connection receives after `Identity`, in order, as frames.
   * The whole history is encoded once per revision and the same string
   * goes to every joiner, so many joiners of a pad with a long history
   * share its memory.
   */
  welcome(): string[] {
    const frames: string[] = [];
    const revision = this.#history.length;
    if (revision > 0) {
      if (this.#welcomeHistory?.revision !== revision) {
        this.#welcomeHistory = {
          revision,
          frame: encodeMessage(this.history(0)),
        };
      }
      frames.push(this.#welcomeHistory.frame);
    }
    for (const message of this.#welcomeMetadata()) {
      frames.push(encodeMessage(message));
    }
    return frames;
  }

  #welcomeMetadata(): ServerMessage[] {
    const messages: ServerMessage[] = [];
    if (this.#language !== null) messages.push({ Language: this.#language });
    for (const [id, info] of this.#users) {
      messages.push({ UserInfo: { id, info } });
    }
    for (const [id, data] of this.#cursors) {
      messages.push({ UserCursor: { id, data } });
    }
    return messages;
  }

  /** Operations `start`, `start + 1`, ... of the history. */
  history(start: number): ServerMessage {
    return {
      History: { start, operations: this.#history.slice(start) },
    };
  }

  /**
   * Handle one message from user `id`.
   *
   * @returns The message to broadcast to every connection of the pad.
   * @throws {RangeError} If the message is an edit the server hangs up on.
   */
  receive(id: number, message: ClientMessage): ServerMessage {
    if ("Edit" in message) {
      const { revision, operation } = message.Edit;
      return this.#edit(id, revision, operation);
    }
    if ("SetLanguage" in message) {
      this.#language = message.SetLanguage;
      return { Language: message.SetLanguage };
    }
    if ("ClientInfo" in message) {
      // Ours: the real server keeps and replays names of any length. Only
      // the server says who is an agent (see docs/protocol.md), whatever
      // the client sent.
      const { name, hue } = message.ClientInfo;
      const info: UserInfo = {
        name: cutName(name),
        hue,
        ...this.#agents.has(id) && { agent: true as const },
      };
      this.#users.set(id, info);
      return { UserInfo: { id, info } };
    }
    this.#cursors.set(id, message.CursorData);
    return { UserCursor: { id, data: message.CursorData } };
  }

  /** The name user `id` announced, while they are in the pad. */
  nameOf(id: number): string | undefined {
    return this.#users.get(id)?.name;
  }

  /** Forget user `id`; returns the `info: null` message to broadcast. */
  leave(id: number): ServerMessage {
    this.#users.delete(id);
    this.#cursors.delete(id);
    this.#agents.delete(id);
    return { UserInfo: { id, info: null } };
  }

  #edit(id: number, revision: number, incoming: TextOperation): ServerMessage {
    const current = this.#history.length;
    if (revision > current) {
      throw new RangeError(
        `Cannot apply edit as revision ${revision} is ahead of the pad: current revision is ${current}`,
      );
    }
    // The server transforms the incoming operation (first) over every
    // operation the client had not seen, and keeps the first result.
    let operation = incoming;
    for (const entry of this.#history.slice(revision)) {
      [operation] = operation.transform(entry.operation);
    }
    if (operation.targetLength > MAX_TEXT_LENGTH) {
      throw new RangeError(
        `Cannot apply edit as the result would exceed ${MAX_TEXT_LENGTH} code points: current result length is ${operation.targetLength}`,
      );
    }
    this.#text.apply(operation);
    for (const data of this.#cursors.values()) {
      data.cursors = data.cursors.map((cursor) =>
        operation.transformIndex(cursor)
      );
      data.selections = data.selections.map(([start, end]) => [
        operation.transformIndex(start),
        operation.transformIndex(end),
      ]);
    }
    this.#history.push({ id, operation });
    return this.history(current);
  }
}

/**
 * The most code points of a name the pad server keeps: four times what the
 * MCP side shows (64), so a session still sees that a name was cut and
 * marks it, while a name of megabytes costs a kilobyte here.
 */
const MAX_KEPT_NAME = 256;

/** `name` if at most MAX_KEPT_NAME code points, else its start and "…". */
function cutName(name: string): string {
  const end = advanceCodePoints(name, 0, MAX_KEPT_NAME);
  if (end === name.length) return name;
  // Copied: a slice would keep the whole string alive in V8.
  const head = name.slice(0, advanceCodePoints(name, 0, MAX_KEPT_NAME - 1));
  return `${Array.from(head).join("")}…`;
}
