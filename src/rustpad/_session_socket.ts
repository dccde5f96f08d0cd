// The socket of one PadSession and its lifecycle: opening it, the handshake
// up to the end of the server's initial burst, folding the frames it
// receives into PadState and the waits, sending, and how it fails and
// closes. PadSession (session.ts) is the public face that delegates here.

import type { EditToSend } from "../ot/client_state.ts";
import type { PadState } from "./pad_state.ts";
import {
  type ClientMessage,
  encodeMessage,
  type ServerMessage,
  type UserId,
  type UserInfo,
} from "./protocol.ts";
import { SessionError } from "./session_error.ts";
import { FrameInbox, FrameTooLargeError } from "./_frame_inbox.ts";
import { type Acknowledgement, SessionWaits } from "./_session_waits.ts";

/**
 * How Deno's WebSocket reports a connection the server dropped without a
 * close frame: the end of the stream, or a reset.
 */
const HUNG_UP = /unexpected eof|connection reset|broken pipe/i;

/** The WebSocket of one session, its waits and its failure. */
export class SessionSocket {
  /** The WebSocket address. */
  readonly url: URL;
  /** The pad id, for messages. */
  readonly padId: string;
  /** The bound on every wait. */
  readonly timeoutMs: number;

  #socket: WebSocket;
  #userId: UserId | undefined;
  #state: PadState;
  #waits: SessionWaits;
  #inbox: FrameInbox;
  #failure: SessionError | undefined;
  #closedByUs = false;
  #socketClosed: Promise<void>;
  #onIdentity: () => void = () => {};
  #socketError: string | undefined;

  /**
   * Start connecting at once; {@linkcode SessionSocket.connect} waits.
   * An `agentSecret` goes as `Authorization: Bearer`, so a pad server of
   * ours marks the session as an agent.
   */
  constructor(
    url: URL,
    padId: string,
    timeoutMs: number,
    state: PadState,
    { agentSecret }: { agentSecret?: string | undefined } = {},
  ) {
    this.url = url;
    this.padId = padId;
    this.timeoutMs = timeoutMs;
    this.#state = state;
    this.#waits = new SessionWaits(timeoutMs);
    this.#inbox = new FrameInbox({
      handle: (message) => this.#receive(message),
      isOpen: () => this.isOpen,
      fail: (error) =>
        this.fail(
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
    // Deno's WebSocket takes headers (WebSocketOptions), which the DOM
    // library's types some programs load do not declare.
    const options = { headers: { authorization: `Bearer ${agentSecret}` } };
    this.#socket = agentSecret === undefined
      ? new WebSocket(url)
      : new WebSocket(url, options as unknown as string[]);
    this.#socketClosed = new Promise((resolve) => {
      this.#socket.addEventListener("close", () => resolve(), { once: true });
    });
  }

  /** The connection's user id, once the server sent `Identity`. */
  get userId(): UserId | undefined {
    return this.#userId;
  }

  /** Whether the session can still be used. */
  get isOpen(): boolean {
    return this.#failure === undefined && !this.#closedByUs;
  }

  /** Resolve once the initial burst is folded in; reject if it fails. */
  async connect(user: UserInfo | undefined): Promise<void> {
    const socket = this.#socket;
    const ready = Promise.withResolvers<void>();
    const timer = setTimeout(() => {
      ready.reject(
        new SessionError(
          "timeout",
          `Rustpad at ${this.url.origin} did not open pad "${this.padId}" within ${this.timeoutMs} ms`,
        ),
      );
    }, this.timeoutMs);
    let opened = false;
    socket.addEventListener("open", () => opened = true, { once: true });
    socket.addEventListener("error", (event) => {
      const reason = (event as ErrorEvent).message;
      if (opened) {
        // Our own WebSocket refused something (a frame over its 64 MiB
        // limit): the close that follows must not blame the server. A
        // server that hangs up drops the connection with no close frame,
        // as Rustpad does, which Deno reports as an error too: that one is
        // the server closing.
        if (!HUNG_UP.test(reason)) this.#socketError = reason;
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

  /** Send an edit (if one is due now) and wait for its acknowledgement. */
  sendEdit(send: EditToSend | undefined): Promise<Acknowledgement> {
    const acknowledged = this.#waits.edit(send !== undefined, () => {
      this.fail(
        new SessionError(
          "timeout",
          `Rustpad did not acknowledge the edit to pad "${this.padId}" within ${this.timeoutMs} ms`,
        ),
      );
    });
    if (send) this.send({ Edit: send });
    return acknowledged;
  }

  /** Send `message` and wait for the server's echo `isEcho` recognises. */
  request(
    message: ClientMessage,
    isEcho: (message: ServerMessage) => boolean,
    what: string,
  ): Promise<void> {
    this.send(message);
    return this.#waits.echo(isEcho, what, this.padId);
  }

  /** Send `message` if the socket is open. */
  send(message: ClientMessage): void {
    // A socket that is closing fails the session from its close event.
    if (this.#socket.readyState !== WebSocket.OPEN) return;
    this.#socket.send(encodeMessage(message));
  }

  /** Throw the failure, or a `closed` error, unless the session is open. */
  checkOpen(action: string): void {
    if (this.#failure) throw this.#failure;
    if (this.#closedByUs) {
      throw new SessionError(
        "closed",
        `Cannot ${action} as the session on pad "${this.padId}" is closed`,
      );
    }
  }

  /** Close; resolves when the socket is closed or after the timeout. */
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
        timer = setTimeout(resolve, this.timeoutMs)
      ),
    ]);
    clearTimeout(timer);
  }

  /** Record the first failure, close the socket and reject every wait. */
  fail(error: SessionError): void {
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
    this.request(
      user
        ? { ClientInfo: user }
        : { CursorData: { cursors: [], selections: [] } },
      own,
      "the initial history",
    ).then(ready.resolve, ready.reject);
  }

  #acknowledge(send: EditToSend | undefined): void {
    if (send) this.send({ Edit: send });
    this.#waits.acknowledge(() => {
      // Joined only if someone reads it: most writes never do.
      const text = this.#state.textSnapshot();
      return {
        revision: this.#state.revision,
        get text(): string {
          return text.toString();
        },
      };
    });
  }

  #onClose(opened: boolean): void {
    if (this.#closedByUs || this.#failure) return;
    this.fail(
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

  #rejectAll(cause: SessionError): void {
    this.#waits.rejectAll(cause, this.#userId ?? -1, this.#state.revision);
  }
}
