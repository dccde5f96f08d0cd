// One HTTP/1.1 connection, served request after request with its bounds:
// the head and body of a request must arrive within the request deadline,
// an idle keep-alive connection is closed after its own timeout, a body
// stops at the byte cap, the bodies being read at once share a byte
// budget, and a body arriving slower than a minimum rate is cut so its
// share comes back. Response streams (SSE) have no deadline: they end when
// the handler ends them or the peer leaves; what they send is bounded as
// _send.ts says.

import {
  BodyRate,
  type ByteBudget,
  DEFAULT_MIN_BODY_BYTES_PER_SECOND,
} from "./_budget.ts";
import { Deadline } from "./_deadline.ts";
import { parseHead, type RequestHead } from "./_head.ts";
import { bodyStream, tooLarge } from "./_body.ts";
import { ConnectionReader, HttpBodyError, latin1 } from "./_reader.ts";
import { CONTINUE, wholeResponse } from "./_response.ts";
import {
  ConnectionWriter,
  DEFAULT_MAX_QUEUED_BYTES,
  DEFAULT_WRITE_TIMEOUT_MS,
  type SendBounds,
  sendResponse,
} from "./_send.ts";
import { claimUpgrade } from "./websocket_upgrade.ts";
/** How long, and for how many bytes, a close waits out an unread body. */
const LINGER_MS = 2000;
const LINGER_BYTES = 4 * 1024 * 1024;
/** Why a closed connection's reads fail: one error, not one per close. */
const CLOSED = new Error("The connection closed");
/** How many distinct refusals a listener keeps serialized. */
const MAX_KEPT_REFUSALS = 32;

/** The bounds and the handler of a connection. */
export interface ConnectionOptions extends SendBounds {
  readonly requestTimeoutMs: number;
  /** The variable that sets it, named in the 408. */
  readonly requestTimeoutVariable: string;
  readonly keepAliveMs: number;
  readonly maxBodyBytes: number;
  readonly maxHeadBytes: number;
  /**
   * The slowest a request body may arrive, on average from its start,
   * once its first second is past; slower, it gets 408 and gives its
   * share of the body budget back.
   *
   * @default {16384}
   */
  readonly minBodyBytesPerSecond?: number;
  readonly budget: ByteBudget;
  /** The Host of an HTTP/1.0 request without one. */
  readonly fallbackHost: string;
  readonly handler: (request: Request) => Promise<Response>;
  /** The response for a request refused before the handler saw it. */
  readonly refuse: (status: number, message: string) => Response;
  /** Told why a connection is closed for a bound its client passed. */
  readonly onDrop?: (why: string) => void;
  /** Refusals already serialized, shared by the listener's connections. */
  readonly refusals: Map<string, Uint8Array>;
  /** Whether the listener may close idle connections to make room. */
  readonly shedIdle?: boolean;
}

/** Serves one accepted connection until it closes. */
export class Http1Connection {
  readonly #conn: Deno.Conn;
  readonly #reader: ConnectionReader;
  readonly #writer: ConnectionWriter;
  readonly #options: ConnectionOptions;
  /** The request's deadline, or the idle keep-alive connection's. */
  readonly #deadline = new Deadline();
  #closed = false;
  /** Whether a WebSocket took the connection over (and closed it). */
  #handedOver = false;
  #draining = false;
  #onClose: (() => void) | undefined;
  /** Whether the last request's body may still be arriving. */
  #unreadBody = false;
  /** Whether no request is being handled, so closing loses nothing. */
  idle = true;
  /** Settles once the connection is closed and nothing is in flight. */
  readonly done: Promise<void>;

  constructor(conn: Deno.Conn, options: ConnectionOptions) {
    this.#conn = conn;
    this.#reader = new ConnectionReader(conn);
    const writeTimeoutMs = options.writeTimeoutMs ?? DEFAULT_WRITE_TIMEOUT_MS;
    this.#writer = new ConnectionWriter(conn, writeTimeoutMs, () =>
      this.#drop(
        `its client did not take the next 64 KiB of the answer within ${writeTimeoutMs} ms`,
      ));
    this.#options = options;
    this.done = this.#serve();
  }

  /** Serve no further request: close now if idle, else after the response. */
  drain(): void {
    this.#draining = true;
    if (this.idle) this.close();
  }

  /** Close for a bound passed, saying which. */
  #drop(why: string): void {
    if (!this.#closed) this.#options.onDrop?.(why);
    this.close();
  }

  /** Close the socket now; whatever is in flight fails. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#deadline.stop();
    this.#writer.stop();
    this.#reader.interrupt(CLOSED);
    this.#onClose?.();
    if (this.#handedOver) return;
    try {
      this.#conn.close();
    } catch {
      // Already closed.
    }
  }

  async #serve(): Promise<void> {
    try {
      for (let first = true; !this.#closed && !this.#draining; first = false) {
        const head = await this.#readHead(first);
        if (head === undefined || !await this.#exchange(head)) break;
      }
      if (this.#unreadBody && !this.#closed) await this.#linger();
    } catch {
      // The socket failed or was closed: nothing more to answer.
    } finally {
      this.close();
      await this.#reader.settled();
    }
  }

  /**
   * Close gently after answering a request whose body was not read (413,
   * 401...): send FIN, then drop what the client still sends for a while,
   * so its kernel gets no reset that could discard our answer unread.
   */
  async #linger(): Promise<void> {
    const timer = setTimeout(() => this.close(), LINGER_MS);
    try {
      await this.#conn.closeWrite();
      await this.#reader.discard(LINGER_BYTES);
    } catch {
      // Closed meanwhile: nothing to wait for.
    } finally {
      clearTimeout(timer);
    }
  }

  #deadlineMessage(): string {
    return `Cannot read the request as it did not arrive whole within ${this.#options.requestTimeoutMs} ms (${this.#options.requestTimeoutVariable}): send the whole request at once; nothing was done`;
  }

  /** The next head, or undefined once the connection should close. */
  async #readHead(first: boolean): Promise<RequestHead | undefined> {
    const { keepAliveMs, requestTimeoutMs, maxHeadBytes } = this.#options;
    const reader = this.#reader;
    this.idle = true;
    // Made only once the deadline passes: an error's stack trace costs
    // more than parsing the head.
    let expired: HttpBodyError | undefined;
    const startRequest = () =>
      this.#deadline.set(requestTimeoutMs, () => {
        expired = new HttpBodyError(408, this.#deadlineMessage());
        reader.interrupt(expired);
      });
    let waitingForFirstByte = !first && reader.buffered === 0;
    if (waitingForFirstByte) {
      this.#deadline.set(keepAliveMs, () => this.close());
    } else startRequest();
    for (;;) {
      reader.skipBlankLines();
      const bytes = reader.takeHead();
      if (bytes !== undefined) {
        this.idle = false;
        const head = parseHead(latin1(bytes), this.#options.fallbackHost);
        if (!("status" in head)) return head;
        await this.#refuse(head.status, head.message);
        return undefined;
      }
      if (reader.buffered > maxHeadBytes) {
        await this.#refuse(
          431,
          `Cannot serve the request as its head is over ${maxHeadBytes} bytes: send fewer or shorter header fields`,
        );
        return undefined;
      }
      let more: boolean;
      try {
        more = await reader.fill();
      } catch (error) {
        if (
          expired !== undefined && error === expired && reader.buffered > 0
        ) {
          await this.#refuse(408, expired.message);
        }
        return undefined;
      }
      if (!more) return undefined;
      if (waitingForFirstByte && reader.buffered > 0) {
        waitingForFirstByte = false;
        startRequest();
      }
    }
  }

  /** Handle one request; whether the connection may serve another. */
  async #exchange(head: RequestHead): Promise<boolean> {
    const { budget, maxBodyBytes } = this.#options;
    this.#unreadBody = head.body.kind !== "none";
    if (head.body.kind === "length" && head.body.length > maxBodyBytes) {
      await this.#refuse(413, tooLarge(maxBodyBytes, head.body.length).message);
      return false;
    }
    let bodyDone = head.body.kind === "none";
    if (bodyDone) this.#deadline.clear();
    let reserved = 0;
    const rate = new BodyRate(
      this.#reader,
      this.#options.minBodyBytesPerSecond ?? DEFAULT_MIN_BODY_BYTES_PER_SECOND,
    );
    const release = () => {
      rate.stop();
      budget.release(reserved);
      reserved = 0;
    };
    const framing = head.body;
    let body: ReadableStream<Uint8Array> | Uint8Array | null = null;
    if (
      framing.kind !== "none" && head.method !== "GET" &&
      head.method !== "HEAD"
    ) {
      // A body that came whole with its head, as most small ones do, is
      // handed on as bytes: no stream to pull, no rate to watch. Its share
      // of the budget is held all the same, and if that must wait, the
      // body goes the way of the others.
      if (
        framing.kind === "length" && !head.expectContinue &&
        this.#reader.buffered >= framing.length &&
        budget.tryReserve(framing.length)
      ) {
        reserved = framing.length;
        body = this.#reader.takeNow(framing.length)!;
        bodyDone = true;
        this.#unreadBody = false;
        this.#deadline.clear();
      } else {
        body = bodyStream(this.#reader, framing, {
          maxBytes: maxBodyBytes,
          beforeFirstRead: async (bytes) => {
            await budget.reserve(bytes, this.#reader.whenInterrupted());
            reserved = bytes;
            if (head.expectContinue) await this.#writer.write(CONTINUE);
            rate.start();
          },
          onProgress: (bytes) => rate.received = bytes,
          onEnd: () => {
            bodyDone = true;
            this.#unreadBody = false;
            rate.stop();
            this.#deadline.clear();
          },
        });
      }
    }
    const abort = new AbortController();
    let request: Request;
    try {
      request = new Request(`http://${head.host}${head.target}`, {
        method: head.method,
        body,
        signal: abort.signal,
        duplex: "half",
      } as RequestInit);
      // Appended to the request's own: headers given to the constructor,
      // a list or a Headers, are converted and copied field by field
      // through WebIDL, at over three times the cost. A body of bytes or
      // a stream adds no Content-Type of its own.
      const headers = request.headers;
      for (const [name, value] of head.fields) headers.append(name, value);
    } catch {
      release();
      await this.#refuse(
        400,
        `Cannot serve the request as its method ${head.method} or a header value is not accepted`,
      );
      return false;
    }
    // A peer that leaves aborts the request's signal.
    this.#onClose = () => abort.abort();
    try {
      let response: Response;
      try {
        response = await this.#options.handler(request);
      } finally {
        release();
        // The handler has what it read; the response has no deadline.
        this.#deadline.clear();
      }
      const socket = claimUpgrade(response);
      if (socket !== undefined) {
        // The connection is the socket's from here on, counted until it
        // closes.
        await this.#writer.write(socket.handshake());
        await socket.run(this.#conn, this.#reader.takeAll());
        // The socket closed the connection itself.
        this.#handedOver = true;
        return false;
      }
      const keepAlive = head.keepAlive && head.minor === 1 && bodyDone &&
        !this.#draining && !this.#reader.ended &&
        !/\bclose\b/i.test(response.headers.get("connection") ?? "");
      return await this.#respond(response, head, keepAlive) && keepAlive;
    } finally {
      this.#onClose = undefined;
    }
  }

  /**
   * Answer a request refused before the handler saw it, and close. The
   * bytes are kept per message: at a deadline, thousands of connections
   * get the same 408 at once.
   */
  async #refuse(status: number, message: string): Promise<void> {
    const key = `${status} ${message}`;
    const { refusals } = this.#options;
    let bytes = refusals.get(key);
    if (bytes === undefined) {
      bytes = await wholeResponse(this.#options.refuse(status, message));
      if (refusals.size < MAX_KEPT_REFUSALS) refusals.set(key, bytes);
    }
    await this.#writer.write(bytes).catch(() => {});
  }

  /** Write `response`; false if it could not be written whole. */
  async #respond(
    response: Response,
    head: RequestHead,
    keepAlive: boolean,
  ): Promise<boolean> {
    const { keepAliveMs, maxHeadBytes } = this.#options;
    const maxQueuedBytes = this.#options.maxQueuedBytes ??
      DEFAULT_MAX_QUEUED_BYTES;
    const previous = this.#onClose;
    try {
      return await sendResponse(this.#writer, this.#reader, response, {
        framing: {
          method: head.method,
          minor: head.minor,
          keepAliveS: keepAlive
            ? Math.max(1, Math.floor(keepAliveMs / 1000))
            : undefined,
        },
        maxQueuedBytes,
        maxBufferedBytes: maxHeadBytes,
        overflow: () =>
          this.#drop(
            `it held over ${maxQueuedBytes} bytes of answer its client had not taken`,
          ),
        onClose: (cancel) => {
          this.#onClose = () => {
            previous?.();
            cancel();
          };
        },
      });
    } finally {
      this.#onClose = previous;
    }
  }
}
