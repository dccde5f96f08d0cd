/**
 * A live collaboration session on one pad over Rustpad's WebSocket: the
 * public API. What the messages mean for the document (text, revision,
 * history, people) is folded by {@link ./pad_state.ts | PadState}; the
 * socket's lifecycle (opening, handshake, failure, closing) lives in
 * `_session_socket.ts`, waits in `_session_waits.ts` and frame order and
 * bounds in `_frame_inbox.ts`.
 *
 * @module
 */

import type { TextBuffer, TextOperation } from "../ot/mod.ts";
import { PadState, type SessionListener } from "./pad_state.ts";
import type { PadUser } from "./_pad_people.ts";
import type { CursorData, UserId, UserInfo } from "./protocol.ts";
import type { LoggedOperation } from "./revision_log.ts";
import { parseBaseUrl, socketUrl } from "./urls.ts";
import type { Acknowledgement } from "./_session_waits.ts";
import { SessionSocket } from "./_session_socket.ts";

export type { Acknowledgement } from "./_session_waits.ts";

/** Options for {@linkcode PadSession.open}. */
export interface PadSessionOptions {
  /**
   * Bound on every wait: connecting, the initial burst, each
   * acknowledgement and echo.
   *
   * @default {15000}
   */
  timeoutMs?: number;
  /**
   * Announce this display name and hue to the people in the pad
   * (`ClientInfo`). Without it the session stays invisible in the user list.
   */
  user?: UserInfo;
  /**
   * The agent secret of a pad server of ours (its `agent.secret` file):
   * sent as `Authorization: Bearer <secret>` when the socket opens, so the
   * pad server shows this session to people as an agent. Never give it
   * for a server other than the one whose secret it is.
   */
  agentSecret?: string;
}

const DEFAULT_TIMEOUT_MS = 15_000;

/**
 * A live session on one pad. Open one with {@linkcode PadSession.open}; it
 * is ready when the server's whole initial burst (history, language, users,
 * cursors) has been folded in.
 *
 * @example Append to a pad while others type
 * ```ts
 * import { PadSession, TextOperation } from "@rustpad-mcp/server";
 * import { startPadServer } from "@rustpad-mcp/server/testing";
 * import assert from "node:assert/strict";
 *
 * await using server = await startPadServer();
 * const session = await PadSession.open(server.url, "notes");
 * const ack = await session.submit(
 *   new TextOperation().retain(session.length).insert("hello"),
 * );
 * assert.equal(ack.text, "hello");
 * await session.close();
 * ```
 */
export class PadSession {
  /** The pad id. */
  readonly padId: string;
  /** The WebSocket address. */
  readonly url: URL;

  #state = new PadState();
  #socket: SessionSocket;

  private constructor(
    url: URL,
    padId: string,
    timeoutMs: number,
    agentSecret: string | undefined,
  ) {
    this.url = url;
    this.padId = padId;
    this.#socket = new SessionSocket(url, padId, timeoutMs, this.#state, {
      agentSecret,
    });
  }

  /**
   * Connect to pad `padId` and fold in its initial burst.
   *
   * @param baseUrl The Rustpad base URL (`http` or `https`, prefix kept).
   * @param padId The pad id; checked before connecting.
   * @param options Timeout and announced user.
   * @returns The ready session.
   * @throws {TypeError} If the URL or pad id is invalid.
   * @throws {SessionError} If the server cannot be reached, does not answer
   * in time, closes the connection, or sends a malformed frame.
   */
  static async open(
    baseUrl: string | URL,
    padId: string,
    options: PadSessionOptions = {},
  ): Promise<PadSession> {
    const url = socketUrl(parseBaseUrl(baseUrl), padId);
    const session = new PadSession(
      url,
      padId,
      options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      options.agentSecret,
    );
    try {
      await session.#socket.connect(options.user);
    } catch (error) {
      await session.close();
      throw error;
    }
    return session;
  }

  /** This connection's user id. */
  get userId(): UserId {
    return this.#socket.userId as UserId;
  }

  /** The pad's text as this session sees it, own pending edits included. */
  get text(): string {
    return this.#state.text;
  }

  /** Length of {@linkcode PadSession.text} in code points. */
  get length(): number {
    return this.#state.length;
  }

  /**
   * {@linkcode PadSession.text} as it is now, to read lines of later (a
   * diff's window, after the edit has been sent) without joining the whole
   * text: a copy of the chunk list, not of the text.
   *
   * @returns The text as a buffer to read lines and places of.
   */
  textSnapshot(): Pick<TextBuffer, "window" | "locator"> {
    return this.#state.textSnapshot();
  }

  /** The text at {@linkcode PadSession.revision}, as the server has it. */
  get serverText(): string {
    return this.#state.serverText;
  }

  /**
   * The server's text at `revision` (default: now), a buffer of its own for
   * places and lines without joining it. RangeError outside `textAt`'s window.
   */
  serverBuffer(revision?: number): TextBuffer {
    return this.#state.serverBuffer(revision);
  }

  /** {@linkcode PadSession.serverText}'s length in code points. */
  get serverLength(): number {
    return this.#state.serverLength;
  }

  /** History operations applied (the server's revision once in sync). */
  get revision(): number {
    return this.#state.revision;
  }

  /**
   * The oldest revision {@linkcode PadSession.textAt},
   * {@linkcode PadSession.operationsSince} and {@linkcode PadSession.rebase}
   * accept: at most the last 10,000 operations, holding at most 4 Mi UTF-16
   * units of inserted text, are kept.
   */
  get oldestRevision(): number {
    return this.#state.oldestRevision;
  }

  /**
   * The pad's editor language, or `null` if never set; cut to 64 code
   * points (see {@linkcode PadSession.languageTruncated}).
   */
  get language(): string | null {
    return this.#state.language;
  }

  /** Whether the language set was longer than 64 code points and is cut. */
  get languageTruncated(): boolean {
    return this.#state.languageTruncated;
  }

  /**
   * Everyone announced in the pad now, by user id, this session included;
   * names cut to 64 code points.
   */
  get users(): ReadonlyMap<UserId, PadUser> {
    return this.#state.users;
  }

  /** Cursor data by user id, at most 16 cursors and 16 selections each. */
  get cursors(): ReadonlyMap<UserId, CursorData> {
    return this.#state.cursors;
  }

  /** Whether the session can still be used. */
  get isOpen(): boolean {
    return this.#socket.isOpen;
  }

  /** Whether edits of ours are still waiting for their acknowledgement. */
  get hasPendingEdits(): boolean {
    return this.#state.hasPendingEdits;
  }

  /**
   * The author of history operation number `revision` (0-based): the first,
   * or one from {@linkcode PadSession.oldestRevision} on.
   *
   * @param revision The operation's index in the history.
   * @returns The author's user id, or `undefined` if not seen yet or no
   * longer kept.
   */
  authorOf(revision: number): UserId | undefined {
    return this.#state.authorOf(revision);
  }

  /**
   * The digest naming the pad's history up to its first
   * `min(revision, 16)` operations, authors included: a server that
   * restarted (Rustpad, or a pad server that compacted its log) has another
   * history with another digest, even where its revisions reuse the numbers.
   *
   * @param revision A revision up to {@linkcode PadSession.revision}.
   * @returns The digest (`""` at 0), or `undefined` past the history.
   */
  lineageAt(revision: number): string | undefined {
    return this.#state.lineageAt(revision);
  }

  /**
   * The digest of history operation number `at` (0-based) with its author.
   *
   * @param at From {@linkcode PadSession.oldestRevision} on.
   * @returns The digest, or `undefined` if no longer kept or not seen yet.
   */
  operationDigest(at: number): string | undefined {
    return this.#state.operationDigest(at);
  }

  /**
   * The history operations from `revision` on, each with its author and
   * inverse.
   *
   * @param revision From {@linkcode PadSession.oldestRevision} to
   * {@linkcode PadSession.revision}.
   * @returns Oldest first.
   * @throws {RangeError} Outside that window.
   */
  operationsSince(revision: number): readonly LoggedOperation[] {
    return this.#state.operationsSince(revision);
  }

  /**
   * The pad's text at an earlier revision, as the server had it.
   *
   * @param revision From {@linkcode PadSession.oldestRevision} to
   * {@linkcode PadSession.revision}.
   * @returns The text then.
   * @throws {RangeError} Outside that window.
   */
  textAt(revision: number): string {
    return this.#state.textAt(revision);
  }

  /**
   * Turn an operation made against the text at `baseRevision` into one to
   * submit now: transformed over everything since, ours first at a tie, as
   * the server would transform it.
   *
   * @param operation Based on the text at `baseRevision`.
   * @param baseRevision A revision within the window.
   * @returns An operation on {@linkcode PadSession.text}.
   * @throws {RangeError} Outside the window, or if it does not fit.
   */
  rebase(operation: TextOperation, baseRevision: number): TextOperation {
    return this.#state.rebase(operation, baseRevision);
  }

  /**
   * Be told of every change (operations, people, cursors, language, the
   * end of the session), after it is folded in, in a microtask.
   *
   * @param listener Called with each event.
   * @returns A function that unsubscribes.
   */
  subscribe(listener: SessionListener): () => void {
    return this.#state.subscribe(listener);
  }

  /**
   * Submit an operation on the session's current text. It is applied locally
   * at once; the promise resolves when the server's echo of it arrives.
   * Edits submitted while one is in flight are composed and sent after it.
   *
   * @param operation An operation whose base length is
   * {@linkcode PadSession.length}.
   * @returns The revision and text after the acknowledgement.
   * @throws {RangeError} If the operation does not fit the text or the
   * result would exceed 262,144 code points; nothing is sent.
   * @throws {EditNotAcknowledgedError} If the connection ends or times out
   * first.
   */
  submit(operation: TextOperation): Promise<Acknowledgement> {
    this.#socket.checkOpen("submit an edit");
    return this.#socket.sendEdit(this.#state.applyLocal(operation));
  }

  /**
   * Set the pad's language for everyone; resolves when the server echoes it.
   *
   * @param language A Monaco language id.
   * @throws {SessionError} If the session fails or the echo does not come in
   * time.
   */
  async setLanguage(language: string): Promise<void> {
    this.#socket.checkOpen("set the language");
    await this.#socket.request(
      { SetLanguage: language },
      (message) => "Language" in message && message.Language === language,
      "the language change",
    );
  }

  /**
   * Announce a display name and hue; resolves when the server echoes it.
   *
   * @param info The name and hue.
   * @throws {SessionError} If the session fails or the echo does not come in
   * time.
   */
  async setUserInfo(info: UserInfo): Promise<void> {
    this.#socket.checkOpen("announce the user");
    await this.#socket.request(
      { ClientInfo: info },
      (message) =>
        "UserInfo" in message && message.UserInfo.id === this.#socket.userId,
      "the user announcement",
    );
  }

  /**
   * Send this user's cursors and selections. Send sparingly: the server
   * drops connections that fall 16 metadata messages behind.
   *
   * @param data Cursor positions and selections in code points.
   */
  sendCursor(data: CursorData): void {
    this.#socket.checkOpen("send cursor data");
    this.#socket.send({ CursorData: data });
  }

  /**
   * Resolve once the server has sent this connection everything it had when
   * this was called, history included. Rustpad's connection task sends any
   * new history before each metadata message it forwards, so the echo of
   * metadata we send now comes after it. Costs one metadata message (our
   * cursor data, unchanged).
   *
   * @throws {SessionError} If the session fails or the echo does not come in
   * time.
   */
  async roundTrip(): Promise<void> {
    this.#socket.checkOpen("wait for the server");
    const userId = this.userId;
    await this.#socket.request(
      {
        CursorData: this.cursors.get(userId) ??
          { cursors: [], selections: [] },
      },
      (message) => "UserCursor" in message && message.UserCursor.id === userId,
      "a round trip",
    );
  }

  /**
   * Close the session. Edits still unacknowledged are rejected with
   * {@linkcode EditNotAcknowledgedError}. Resolves when the socket is closed.
   */
  close(): Promise<void> {
    return this.#socket.close();
  }

  /** Close the session; for `await using`. */
  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }
}
