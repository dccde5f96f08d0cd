/**
 * The server side of a WebSocket (RFC 6455) on a connection of
 * {@linkcode HttpListener}, in the shape of `Deno.upgradeWebSocket`, which
 * works only with `Deno.serve`: the handler returns the `response` given
 * here, and the connection answers `101` and hands itself to the `socket`.
 * Within bounds: a message over `maxMessageBytes` closes with 1009, and a
 * client that does not read is dropped once more than `maxQueuedMessages`
 * messages or `maxQueuedBytes` bytes wait to be written to it.
 *
 * @module
 */

import {
  CLOSE_CODE,
  closePayload,
  type Frame,
  FrameError,
  FrameParser,
  MessageAssembler,
  OPCODE,
  switchingProtocols,
} from "./_websocket_frames.ts";
import { afterwards, encodeText } from "./_websocket_tasks.ts";
import { FrameWriter } from "./_websocket_writer.ts";

/** Bounds of one server socket. */
export interface WebSocketLimits {
  /** The most bytes of one message, fragments included: 16 MiB by default. */
  readonly maxMessageBytes?: number;
  /** The most messages waiting to be written: 4096 by default. */
  readonly maxQueuedMessages?: number;
  /** The most bytes waiting to be written: 64 MiB by default. */
  readonly maxQueuedBytes?: number;
}

const DEFAULT_LIMITS: Required<WebSocketLimits> = {
  maxMessageBytes: 16 * 1024 * 1024,
  maxQueuedMessages: 4096,
  maxQueuedBytes: 64 * 1024 * 1024,
};
// Reads start small, so thousands of idle sockets hold little; reading a
// client pauses
// while more than READ_PAUSE_* waits to be written to it; a close waits
// CLOSE_WAIT_MS for the client's close frame.
const SMALL_READ = 4096;
const LARGE_READ = 65_536;
const READ_PAUSE_MESSAGES = 256;
const READ_PAUSE_BYTES = 1024 * 1024;
const CLOSE_WAIT_MS = 2000;
const decoder = new TextDecoder("utf-8", { fatal: true });

/**
 * The server end of one WebSocket: `open`, `message` and `close` events,
 * `send` and `close`, as a `WebSocket` has.
 */
export class ServerWebSocket extends EventTarget {
  /** Before the `101` is written. */
  static readonly CONNECTING = 0;
  /** Messages flow. */
  static readonly OPEN = 1;
  /** A close frame was sent or received. */
  static readonly CLOSING = 2;
  /** The connection is closed. */
  static readonly CLOSED = 3;
  /** One of the four states above. */
  readyState = 0;
  /**
   * Called with each message instead of a `message` event when set: a
   * plain call, for a server that handles thousands of messages a second.
   */
  onmessage: ((message: { data: string | ArrayBuffer }) => void) | null = null;
  readonly #key: string;
  readonly #limits: Required<WebSocketLimits>;
  #conn: Deno.Conn | undefined;
  readonly #writer: FrameWriter = new FrameWriter(
    () => this.#end(CLOSE_CODE.abnormal, "", false),
    () => this.#drained(),
  );
  #closeTimer: ReturnType<typeof setTimeout> | undefined;
  readonly #ended = Promise.withResolvers<void>();
  readonly #messages: MessageAssembler;
  #pendingClose:
    | { code: number; reason: string; wasClean: boolean }
    | undefined;
  #done = false;

  constructor(key: string, limits: WebSocketLimits) {
    super();
    this.#key = key;
    this.#limits = { ...DEFAULT_LIMITS, ...limits };
    this.#messages = new MessageAssembler(this.#limits.maxMessageBytes);
  }

  /**
   * Send a text message (a string) or a binary one. Ignored unless open; a
   * client past the queue's bounds is dropped instead.
   *
   * @param data The message.
   *
   * @example
   * ```ts
   * import { upgradeWebSocket } from "./websocket_upgrade.ts";
   *
   * const { socket } = upgradeWebSocket(new Request("http://127.0.0.1/", {
   *   headers: {
   *     upgrade: "websocket",
   *     connection: "Upgrade",
   *     "sec-websocket-version": "13",
   *     "sec-websocket-key": "dGhlIHNhbXBsZSBub25jZQ==",
   *   },
   * }));
   * socket.send("not open yet: ignored");
   * ```
   */
  send(data: string | Uint8Array): void {
    if (this.readyState !== ServerWebSocket.OPEN) return;
    const text = typeof data === "string";
    const payload = text ? encodeText(data) : data;
    const { maxQueuedMessages, maxQueuedBytes } = this.#limits;
    if (
      this.#writer.length >= maxQueuedMessages ||
      this.#writer.bytes + payload.length > maxQueuedBytes
    ) {
      // As the real server drops a client that lags: no message, slot freed.
      return this.#end(CLOSE_CODE.abnormal, "", false);
    }
    this.#enqueue(text ? OPCODE.text : OPCODE.binary, payload);
  }

  /**
   * Start the closing handshake: a close frame (with `code` and `reason`
   * if given), then the connection closes once the client answers, or
   * after two seconds.
   *
   * @param code A close code, such as 1000 or 1008.
   * @param reason Why, at most 123 bytes of it are sent.
   *
   * @example
   * ```ts
   * import { upgradeWebSocket } from "./websocket_upgrade.ts";
   *
   * const { socket } = upgradeWebSocket(new Request("http://127.0.0.1/", {
   *   headers: {
   *     upgrade: "websocket",
   *     connection: "Upgrade",
   *     "sec-websocket-version": "13",
   *     "sec-websocket-key": "dGhlIHNhbXBsZSBub25jZQ==",
   *   },
   * }));
   * socket.close(1000, "done");
   * ```
   */
  close(code?: number, reason?: string): void {
    if (this.readyState === ServerWebSocket.CONNECTING) {
      // Closed before the handshake was written: never opens.
      this.readyState = ServerWebSocket.CLOSED;
      return this.#end(code ?? CLOSE_CODE.noStatus, reason ?? "", false);
    }
    if (this.readyState !== ServerWebSocket.OPEN) return;
    this.#startClosing(
      closePayload(code, reason),
      code ?? CLOSE_CODE.noStatus,
      reason ?? "",
    );
  }

  /**
   * Hang up: close the connection with no close frame once what is queued
   * is written, as a server whose task ends drops its socket (the client
   * sees 1006). Cheaper than {@linkcode close} for a client that is gone,
   * as nothing more is written to it and no answer is awaited.
   *
   * @example
   * ```ts
   * import { upgradeWebSocket } from "./websocket_upgrade.ts";
   *
   * const { socket } = upgradeWebSocket(new Request("http://127.0.0.1/", {
   *   headers: {
   *     upgrade: "websocket",
   *     connection: "Upgrade",
   *     "sec-websocket-version": "13",
   *     "sec-websocket-key": "dGhlIHNhbXBsZSBub25jZQ==",
   *   },
   * }));
   * socket.terminate();
   * ```
   */
  terminate(): void {
    if (this.readyState === ServerWebSocket.CONNECTING) {
      this.readyState = ServerWebSocket.CLOSED;
      return this.#end(CLOSE_CODE.abnormal, "", false);
    }
    if (this.readyState === ServerWebSocket.CLOSED) return;
    if (!this.#writer.busy) return this.#end(CLOSE_CODE.abnormal, "", false);
    // What is queued is written first (#drained ends it then), or given
    // up on after the close wait, as a close is.
    this.#pendingClose = {
      code: CLOSE_CODE.abnormal,
      reason: "",
      wasClean: false,
    };
    this.#startClosing(undefined, CLOSE_CODE.abnormal, "");
  }

  /** The `101` head to write before {@linkcode run}. */
  handshake(): Uint8Array {
    return switchingProtocols(this.#key);
  }

  /**
   * Serve the socket on `conn`, the `101` written, with `leftover` bytes
   * already read from it; resolves once the connection is closed.
   */
  run(conn: Deno.Conn, leftover: Uint8Array): Promise<void> {
    if (this.readyState !== ServerWebSocket.CONNECTING) {
      return this.#ended.promise;
    }
    this.#conn = conn;
    this.#writer.attach(conn);
    this.readyState = ServerWebSocket.OPEN;
    this.dispatchEvent(new Event("open"));
    void this.#readLoop(leftover);
    return this.#ended.promise;
  }

  async #readLoop(leftover: Uint8Array): Promise<void> {
    const parser = new FrameParser(this.#limits.maxMessageBytes);
    let chunk = leftover;
    let size = SMALL_READ;
    try {
      for (;;) {
        if (chunk.length > 0) {
          for (const frame of parser.push(chunk)) this.#onFrame(frame);
        }
        if (this.readyState === ServerWebSocket.CLOSED) return;
        // Past a few hundred answers waiting, what this client sent is
        // answered before more of it is read, as the real server's task
        // awaits each send: a client pipelining thousands of edits slows
        // itself down, and is never dropped.
        while (
          this.#writer.length > READ_PAUSE_MESSAGES ||
          this.#writer.bytes > READ_PAUSE_BYTES
        ) await this.#writer.flushing;
        const scratch = new Uint8Array(size);
        const count = await this.#conn!.read(scratch);
        if (count === null) {
          return this.#end(CLOSE_CODE.abnormal, "", false);
        }
        chunk = scratch.subarray(0, count);
        size = count === size ? LARGE_READ : SMALL_READ;
      }
    } catch (error) {
      if (!(error instanceof FrameError)) {
        return this.#end(CLOSE_CODE.abnormal, "", false);
      }
      this.#failWith(error.code, error.message);
      await this.#discardUntilClosed(error.code, error.message);
    }
  }

  /** After a protocol error, drop what comes until the client closes. */
  async #discardUntilClosed(code: number, reason: string): Promise<void> {
    const scratch = new Uint8Array(LARGE_READ);
    try {
      while (this.readyState !== ServerWebSocket.CLOSED) {
        if (await this.#conn!.read(scratch) === null) break;
      }
    } catch {
      // Closed meanwhile.
    }
    this.#end(code, reason, false);
  }

  #onFrame(frame: Frame): void {
    const { opcode, payload } = frame;
    if (opcode === OPCODE.close) return this.#onClose(payload);
    if (opcode === OPCODE.ping) {
      if (this.readyState === ServerWebSocket.OPEN) {
        this.#enqueue(OPCODE.pong, payload);
      }
      return;
    }
    if (opcode === OPCODE.pong) return;
    const message = this.#messages.push(frame);
    if (message !== undefined) this.#deliver(message.opcode, message.payload);
  }

  #deliver(opcode: number, payload: Uint8Array): void {
    if (this.readyState !== ServerWebSocket.OPEN) return;
    let data: string | ArrayBuffer;
    if (opcode === OPCODE.text) {
      try {
        data = decoder.decode(payload);
      } catch {
        throw new FrameError(CLOSE_CODE.invalidData, "Text is not UTF-8");
      }
    } else data = payload.slice().buffer;
    if (this.onmessage !== null) this.onmessage({ data });
    else this.dispatchEvent(new MessageEvent("message", { data }));
  }

  #onClose(payload: Uint8Array): void {
    let code: number = CLOSE_CODE.noStatus;
    let reason = "";
    if (payload.length === 1) {
      throw new FrameError(CLOSE_CODE.protocolError, "Close payload of 1 byte");
    }
    if (payload.length >= 2) {
      code = (payload[0]! << 8) | payload[1]!;
      try {
        reason = decoder.decode(payload.subarray(2));
      } catch {
        throw new FrameError(CLOSE_CODE.invalidData, "Reason is not UTF-8");
      }
    }
    if (this.readyState === ServerWebSocket.OPEN) {
      // Answer with the same code, then close once it is written.
      this.#pendingClose = { code, reason, wasClean: true };
      this.#startClosing(
        payload.length >= 2 ? payload.subarray(0, 2) : payload,
        code,
        reason,
      );
      return;
    }
    this.#end(code, reason, true);
  }

  /** A protocol error: send the close frame; the close wait ends it. */
  #failWith(code: number, reason: string): void {
    if (this.readyState === ServerWebSocket.OPEN) {
      return this.#startClosing(closePayload(code, reason), code, reason);
    }
    this.#end(code, reason, false);
  }

  /**
   * Closing: send a close frame (`frame`, unless none is to be sent), and
   * end with `code` and `reason` if the client has not closed within the
   * close wait.
   */
  #startClosing(
    frame: Uint8Array | undefined,
    code: number,
    reason: string,
  ): void {
    this.readyState = ServerWebSocket.CLOSING;
    if (frame !== undefined) this.#enqueue(OPCODE.close, frame);
    clearTimeout(this.#closeTimer);
    this.#closeTimer = setTimeout(
      () => this.#end(code, reason, false),
      CLOSE_WAIT_MS,
    );
  }

  #enqueue(opcode: number, payload: Uint8Array): void {
    this.#writer.enqueue(opcode, payload);
  }

  /** Everything queued is written: a close waiting for that happens. */
  #drained(): void {
    if (this.#pendingClose === undefined) return;
    const { code, reason, wasClean } = this.#pendingClose;
    this.#end(code, reason, wasClean);
  }

  /** Close the connection now and tell the listeners, once. */
  #end(code: number, reason: string, wasClean: boolean): void {
    if (this.#done) return;
    this.#done = true;
    this.readyState = ServerWebSocket.CLOSED;
    clearTimeout(this.#closeTimer);
    this.#writer.stop();
    // Closed and told in a later task: a send that overflows must not
    // re-enter the code that sent, and thousands of sockets ending at once
    // are told a batch per task, so other sockets get their turns between.
    afterwards(() => {
      try {
        this.#conn?.close();
      } catch {
        // Already closed.
      }
      this.dispatchEvent(new CloseEvent("close", { code, reason, wasClean }));
      this.#ended.resolve();
    });
  }
}
