/**
 * A live collaboration session on one pad over Rustpad's WebSocket: the
 * socket, the waits and their bounds. What the messages mean for the
 * document (text, revision, history, people) is folded by
 * {@link ./pad_state.ts | PadState}; waits live in `_session_waits.ts` and
 * frame order and bounds in `_frame_inbox.ts`.
 *
 * Why it is longer than 300 lines: about half of it is the documented read
 * API (text, revision, history window, people) that delegates to PadState;
 * the socket logic itself is the other half.
 *
 * @module
 */

import type { EditToSend } from "../ot/client_state.ts";
import type { TextOperation } from "../ot/operation.ts";
import { PadState, type SessionListener } from "./pad_state.ts";
import {
  type ClientMessage,
  type CursorData,
  encodeMessage,
  type ServerMessage,
  type UserId,
  type UserInfo,
} from "./protocol.ts";
import type { LoggedOperation } from "./revision_log.ts";
import { parseBaseUrl, socketUrl } from "./urls.ts";
import { SessionError } from "./session_error.ts";
import { FrameInbox, FrameTooLargeError } from "./_frame_inbox.ts";
import { type Acknowledgement, SessionWaits } from "./_session_waits.ts";

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

  #socket: WebSocket;
  #timeoutMs: number;
  #userId: UserId | undefined;
  #state = new PadState();
  #waits: SessionWaits;
  #inbox: FrameInbox;
  #failure: SessionError | undefined;
  #closedByUs = false;
  #socketClosed: Promise<void>;
  #onIdentity: () => void = () => {};
  #socketError: string | undefined;

  private constructor(url: URL, padId: string, timeoutMs: number) {
    this.url = url;
    this.padId = padId;
    this.#timeoutMs = timeoutMs;
    this.#waits = new SessionWaits(timeoutMs);
    this.#inbox = new FrameInbox({
      handle: (message) => this.#receive(message),
      isOpen: () => this.isOpen,
      fail: (error) =>
        this.#fail(
          error instanceof FrameTooLargeError
            ? new SessionError(
              "malformed",
              `Rustpad sent pad "${this.padId}" a frame too large to read, so the session was closed: ${error.message}`,
            )
            : new SessionError(
              "malformed",
              `Rustpad sent a malformed frame on pad "${this.padId}", so the session was closed`,
              { cause: error },
            ),
        ),
    });
    this.#socket = new WebSocket(url);
    this.#socketClosed = new Promise((resolve) => {
      this.#socket.addEventListener("close", () => resolve(), { once: true });
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
    );
    try {
      await session.#connect(options.user);
    } catch (error) {
      await session.close();
      throw error;
    }
    return session;
  }

  /** This connection's user id. */
  get userId(): UserId {
    return this.#userId as UserId;
  }

  /** The pad's text as this session sees it, own pending edits included. */
  get text(): string {
    return this.#state.text;
  }

  /** Length of {@linkcode PadSession.text} in code points. */
  get length(): number {
    return this.#state.length;
  }

  /** The text at {@linkcode PadSession.revision}, as the server has it. */
  get serverText(): string {
    return this.#state.serverText;
  }

  /** History operations applied (the server's revision once in sync). */
  get revision(): number {
    return this.#state.revision;
  }

  /**
   * The oldest revision {@linkcode PadSession.textAt},
   * {@linkcode PadSession.operationsSince} and {@linkcode PadSession.rebase}
   * accept: the last 10,000 operations are kept.
   */
  get oldestRevision(): number {
    return this.#state.oldestRevision;
  }

  /** The pad's editor language, or `null` if never set. */
  get language(): string | null {
    return this.#state.language;
  }

  /** Everyone announced in the pad now, by user id, this session included. */
  get users(): ReadonlyMap<UserId, UserInfo> {
    return this.#state.users;
  }

  /** Cursor data by user id. */
  get cursors(): ReadonlyMap<UserId, CursorData> {
    return this.#state.cursors;
  }

  /** Whether the session can still be used. */
  get isOpen(): boolean {
    return this.#failure === undefined && !this.#closedByUs;
  }

  /** Whether edits of ours are still waiting for their acknowledgement. */
  get hasPendingEdits(): boolean {
    return this.#state.hasPendingEdits;
  }

  /**
   * The author of history operation number `revision` (0-based).
   *
   * @param revision The operation's index in the history.
   * @returns The author's user id, or `undefined` if not seen yet.
   */
  authorOf(revision: number): UserId | undefined {
    return this.#state.authorOf(revision);
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
    this.#checkOpen("submit an edit");
    const send = this.#state.applyLocal(operation);
    const acknowledged = this.#waits.edit(send !== undefined, () => {
      this.#fail(
        new SessionError(
          "timeout",
          `Rustpad did not acknowledge the edit to pad "${this.padId}" within ${this.#timeoutMs} ms`,
        ),
      );
    });
    if (send) this.#send({ Edit: send });
    return acknowledged;
  }

  /**
   * Set the pad's language for everyone; resolves when the server echoes it.
   *
   * @param language A Monaco language id.
   * @throws {SessionError} If the session fails or the echo does not come in
   * time.
   */
  async setLanguage(language: string): Promise<void> {
    this.#checkOpen("set the language");
    this.#send({ SetLanguage: language });
    await this.#waits.echo(
      (message) => "Language" in message && message.Language === language,
      "the language change",
      this.padId,
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
    this.#checkOpen("announce the user");
    this.#send({ ClientInfo: info });
    await this.#waits.echo(
      (message) =>
        "UserInfo" in message && message.UserInfo.id === this.#userId,
      "the user announcement",
      this.padId,
    );
  }

  /**
   * Send this user's cursors and selections. Send sparingly: the server
   * drops connections that fall 16 metadata messages behind.
   *
   * @param data Cursor positions and selections in code points.
   */
  sendCursor(data: CursorData): void {
    this.#checkOpen("send cursor data");
    this.#send({ CursorData: data });
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
    this.#checkOpen("wait for the server");
    const userId = this.#userId as UserId;
    this.#send({
      CursorData: this.cursors.get(userId) ?? { cursors: [], selections: [] },
    });
    await this.#waits.echo(
      (message) => "UserCursor" in message && message.UserCursor.id === userId,
      "a round trip",
      this.padId,
    );
  }

  /**
   * Close the session. Edits still unacknowledged are rejected with
   * {@linkcode EditNotAcknowledgedError}. Resolves when the socket is closed.
   */
  async close(): Promise<void> {
    if (!this.#closedByUs) {
      this.#closedByUs = true;
      if (!this.#failure) this.#state.end(undefined);
      this.#rejectAll(
        new SessionError(
          "closed",
          `The session on pad "${this.padId}" was closed before the server answered`,
        ),
      );
      if (this.#socket.readyState !== WebSocket.CLOSED) this.#socket.close();
    }
    // A server that never answers the closing handshake must not hang us.
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([
      this.#socketClosed,
      new Promise<void>((resolve) =>
        timer = setTimeout(resolve, this.#timeoutMs)
      ),
    ]);
    clearTimeout(timer);
  }

  /** Close the session; for `await using`. */
  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }

  async #connect(user: UserInfo | undefined): Promise<void> {
    const socket = this.#socket;
    const ready = Promise.withResolvers<void>();
    const timer = setTimeout(() => {
      ready.reject(
        new SessionError(
          "timeout",
          `Rustpad at ${this.url.origin} did not open pad "${this.padId}" within ${this.#timeoutMs} ms`,
        ),
      );
    }, this.#timeoutMs);
    let opened = false;
    socket.addEventListener("open", () => opened = true, { once: true });
    socket.addEventListener("error", (event) => {
      const reason = (event as ErrorEvent).message;
      if (opened) {
        // Our own WebSocket refused something (a frame over its 64 MiB
        // limit): the close that follows must not blame the server.
        this.#socketError = reason;
        return;
      }
      ready.reject(
        new SessionError(
          "unreachable",
          `Cannot reach Rustpad at ${this.url.href}: ${
            reason || "the WebSocket connection failed"
          }`,
        ),
      );
    });
    socket.addEventListener("close", () => {
      clearTimeout(timer);
      this.#onClose(opened);
      if (this.#failure) ready.reject(this.#failure);
    });
    socket.addEventListener("message", (event) => {
      if (typeof event.data === "string" && this.isOpen) {
        this.#inbox.push(event.data);
      }
    });
    this.#onIdentity = () => this.#startBarrier(user, ready);
    try {
      await ready.promise;
    } finally {
      clearTimeout(timer);
    }
  }

  #receive(message: ServerMessage): void {
    if (this.#userId === undefined) {
      if (!("Identity" in message)) {
        throw new TypeError(
          `Cannot start the session as the first frame is not Identity: current frame is ${
            Object.keys(message)[0]
          }`,
        );
      }
      this.#userId = message.Identity;
      this.#onIdentity();
      return;
    }
    this.#state.receive(
      message,
      this.#userId,
      (send) => this.#acknowledge(send),
    );
    this.#waits.offer(message);
  }

  /**
   * The server reads a client's messages only after sending the whole
   * initial burst, so the echo of our first message marks the burst's end.
   * Announcing ourselves is that message; an invisible session sends empty
   * cursor data instead.
   */
  #startBarrier(
    user: UserInfo | undefined,
    ready: PromiseWithResolvers<void>,
  ): void {
    const own = (message: ServerMessage) =>
      user
        ? "UserInfo" in message && message.UserInfo.id === this.#userId
        : "UserCursor" in message && message.UserCursor.id === this.#userId;
    this.#send(
      user
        ? { ClientInfo: user }
        : { CursorData: { cursors: [], selections: [] } },
    );
    this.#waits.echo(own, "the initial history", this.padId).then(
      ready.resolve,
      ready.reject,
    );
  }

  #acknowledge(send: EditToSend | undefined): void {
    if (send) this.#send({ Edit: send });
    this.#waits.acknowledge(() => ({
      revision: this.#state.revision,
      text: this.text,
    }));
  }

  #send(message: ClientMessage): void {
    // A socket that is closing fails the session from its close event.
    if (this.#socket.readyState !== WebSocket.OPEN) return;
    this.#socket.send(encodeMessage(message));
  }

  #checkOpen(action: string): void {
    if (this.#failure) throw this.#failure;
    if (this.#closedByUs) {
      throw new SessionError(
        "closed",
        `Cannot ${action} as the session on pad "${this.padId}" is closed`,
      );
    }
  }

  #onClose(opened: boolean): void {
    if (this.#closedByUs || this.#failure) return;
    this.#fail(
      new SessionError(
        opened ? "closed" : "unreachable",
        opened
          ? this.#socketError
            ? `The connection to pad "${this.padId}" failed: ${this.#socketError}`
            : `Rustpad closed the connection to pad "${this.padId}"`
          : `Cannot reach Rustpad at ${this.url.href}: the WebSocket connection failed`,
      ),
    );
  }

  /** Record the first failure, close the socket and reject every wait. */
  #fail(error: SessionError): void {
    if (this.#failure || this.#closedByUs) return;
    this.#failure = error;
    this.#rejectAll(error);
    this.#state.end(error);
    if (
      this.#socket.readyState === WebSocket.OPEN ||
      this.#socket.readyState === WebSocket.CONNECTING
    ) {
      this.#socket.close();
    }
  }

  #rejectAll(cause: SessionError): void {
    this.#waits.rejectAll(cause, this.#userId ?? -1, this.#state.revision);
  }
}
