// Sending answers on one connection within bounds. Writes go in slices,
// each of which the peer must take within a deadline however much of it
// went before, so a client that stops reading is dropped whatever it read
// earlier. A streamed body is read from the handler as it comes and
// counted while it waits for the peer, so one connection holds at most a
// bound of answer bytes. A peer that half-closes (shutdown(SHUT_WR), as
// some proxies do once the request is sent) still gets its whole answer;
// an event stream then carries SSE comments between events, so a peer that
// closed both ways is found by the write that fails. A JSON answer the
// handler has whole at once goes out with its head in one write.

import { Deadline } from "./_deadline.ts";
import type { ConnectionReader } from "./_reader.ts";
import {
  frame,
  LAST_CHUNK,
  type ResponseFraming,
  responseHead,
} from "./_response.ts";
import { concatBytes } from "./bytes.ts";

/**
 * The default of {@linkcode SendBounds.writeTimeoutMs}: how long the peer
 * has to take one slice of an answer.
 */
export const DEFAULT_WRITE_TIMEOUT_MS = 30_000;
/**
 * The default of {@linkcode SendBounds.maxQueuedBytes}: answer bytes one
 * connection may hold that its peer has not taken, 32 MiB.
 */
export const DEFAULT_MAX_QUEUED_BYTES = 32 * 1024 * 1024;
/** The most bytes one write hands the socket, each within the deadline. */
const WRITE_SLICE_BYTES = 65_536;
/** When an event stream to a half-closed peer gets a comment: at once, after a second, then every 15 s. */
const PROBE_DELAYS_MS = [0, 1000, 15_000];
const PROBE = new TextEncoder().encode(":\n\n");

/** The bounds of sending, with their defaults. */
export interface SendBounds {
  /**
   * How long the peer has to take each slice (64 KiB) of an answer; past
   * it the connection is closed, whatever the peer took before.
   *
   * @default {30000}
   */
  readonly writeTimeoutMs?: number;
  /**
   * The most answer bytes the connection may hold that its peer has not
   * taken; past it the connection is closed and the answer cancelled.
   * Keep it above the largest single answer the handler makes.
   *
   * @default {33554432}
   */
  readonly maxQueuedBytes?: number;
}

/** Writes to one socket, each slice within the write deadline. */
export class ConnectionWriter {
  readonly #conn: Deno.Conn;
  readonly #timeoutMs: number;
  readonly #onTimeout: () => void;
  readonly #deadline = new Deadline();
  /** Writes in progress: a 100 Continue may overlap an answer. */
  #writing = 0;

  constructor(conn: Deno.Conn, timeoutMs: number, onTimeout: () => void) {
    this.#conn = conn;
    this.#timeoutMs = timeoutMs;
    this.#onTimeout = onTimeout;
  }

  /** Write all of `bytes`; rejects once the socket fails or is closed. */
  async write(bytes: Uint8Array): Promise<void> {
    this.#writing++;
    try {
      for (let at = 0; at < bytes.length; at += WRITE_SLICE_BYTES) {
        const slice = bytes.subarray(at, at + WRITE_SLICE_BYTES);
        // One deadline per slice: progress within it does not extend it.
        this.#deadline.set(this.#timeoutMs, this.#onTimeout);
        for (let written = 0; written < slice.length;) {
          written += await this.#conn.write(slice.subarray(written));
        }
      }
    } finally {
      if (--this.#writing === 0) this.#deadline.clear();
    }
  }

  /** Keep no more write deadlines: the connection is closed. */
  stop(): void {
    this.#deadline.stop();
  }
}

/** The most of a JSON answer read before its head is written. */
const GATHER_BYTES = 65_536;

/** How {@linkcode sendResponse} sends, and what it may watch. */
export interface ResponseSending
  extends Omit<BodySending, "chunked" | "eventStream"> {
  readonly framing: ResponseFraming;
}

/**
 * Send `response`, head and body; true once it is sent whole. False when
 * the handler's stream failed or the connection closed meanwhile.
 */
export async function sendResponse(
  writer: ConnectionWriter,
  reader: ConnectionReader,
  response: Response,
  sending: ResponseSending,
): Promise<boolean> {
  const { bytes, chunked, noBody } = responseHead(response, sending.framing);
  let body: ReadableStream<Uint8Array> | null = response.body;
  if (body === null || noBody) {
    await writer.write(bytes);
    await body?.cancel().catch(() => {});
    return true;
  }
  // A JSON answer is of no use to its client until it is whole: one that
  // is whole at once goes out with its head in one write, framed as it
  // would have been streamed.
  const type = response.headers.get("content-type") ?? "";
  if (/^application\/json\b/i.test(type)) {
    const gathered = await gatherBody(body, GATHER_BYTES, sending.onClose);
    if (!(gathered instanceof ReadableStream)) {
      const framed = !chunked
        ? [gathered]
        : gathered.length === 0
        ? [LAST_CHUNK]
        : [frame(gathered), LAST_CHUNK];
      await writer.write(concatBytes([bytes, ...framed]));
      return true;
    }
    body = gathered;
  }
  await writer.write(bytes);
  const sent = await sendBody(writer, reader, body, {
    ...sending,
    chunked,
    eventStream: /^text\/event-stream\b/i.test(type),
  });
  if (sent && chunked) await writer.write(LAST_CHUNK);
  return sent;
}

/**
 * `body` read whole if it ends within `maxBytes`; otherwise, or if it
 * fails, a stream of the same bytes (what was read first included) and
 * then the rest or the failure. `onClose` is given the function that stops
 * the reading when the connection closes meanwhile.
 */
async function gatherBody(
  body: ReadableStream<Uint8Array>,
  maxBytes: number,
  onClose: (cancel: () => void) => void,
): Promise<Uint8Array | ReadableStream<Uint8Array>> {
  const source = body.getReader();
  onClose(() => void source.cancel().catch(() => {}));
  const pieces: Uint8Array[] = [];
  let size = 0;
  let failure: { error: unknown } | undefined;
  try {
    while (size <= maxBytes) {
      const { value, done } = await source.read();
      if (done) return concatBytes(pieces);
      pieces.push(value);
      size += value.length;
    }
  } catch (error) {
    failure = { error };
  }
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const first = pieces.shift();
      if (first !== undefined) return controller.enqueue(first);
      if (failure !== undefined) return controller.error(failure.error);
      const { value, done } = await source.read();
      if (done) controller.close();
      else controller.enqueue(value);
    },
    cancel: (reason) => source.cancel(reason),
  }, { highWaterMark: 0 });
}

/** How {@linkcode sendBody} sends, and what it may watch. */
export interface BodySending {
  readonly chunked: boolean;
  /** Whether the body is an event stream, which may carry comments. */
  readonly eventStream: boolean;
  readonly maxQueuedBytes: number;
  /** Stop watching the peer once this many bytes are buffered. */
  readonly maxBufferedBytes: number;
  /** Close the connection: the queue is over its bound. */
  readonly overflow: () => void;
  /** Take the function that cancels the sending when the connection closes. */
  readonly onClose: (cancel: () => void) => void;
}

/**
 * Send `body` to the peer; true once it is sent whole. False when the
 * handler's stream failed or the connection closed meanwhile (the body is
 * then cancelled and, chunked, sent without its last chunk).
 */
export async function sendBody(
  writer: ConnectionWriter,
  reader: ConnectionReader,
  body: ReadableStream<Uint8Array>,
  sending: BodySending,
): Promise<boolean> {
  const source = body.getReader();
  const queue: Uint8Array[] = [];
  let queued = 0;
  let ended = false;
  let failed = false;
  let halfClosed = false;
  let wake: (() => void) | undefined;
  const notify = () => wake?.();
  const cancel = () => {
    failed = true;
    source.cancel().catch(() => {});
    notify();
  };
  // Read ahead, so what waits for the peer is counted here.
  const pump = (async () => {
    try {
      for (;;) {
        const { value, done } = await source.read();
        if (done || failed) break;
        if (value.length === 0) continue;
        queue.push(value);
        queued += value.length;
        if (queued > sending.maxQueuedBytes) {
          cancel();
          sending.overflow();
          break;
        }
        notify();
      }
    } catch {
      failed = true;
    } finally {
      ended = true;
      notify();
    }
  })();
  sending.onClose(cancel);
  const watching = { on: true };
  watchPeer(reader, sending.maxBufferedBytes, watching, () => {
    halfClosed = true;
    notify();
  });
  let probes = 0;
  // Whether the bytes sent so far end between two events.
  let betweenEvents = true;
  try {
    for (;;) {
      if (queue.length === 0 && !ended && !failed) {
        const probing = halfClosed && sending.eventStream;
        let timer: ReturnType<typeof setTimeout> | undefined;
        const woken = await new Promise<boolean>((resolve) => {
          wake = () => resolve(true);
          if (probing) {
            const delay = PROBE_DELAYS_MS[Math.min(probes, 2)]!;
            timer = setTimeout(() => resolve(false), delay);
          }
        });
        clearTimeout(timer);
        wake = undefined;
        if (!woken && queue.length === 0 && betweenEvents) {
          probes++;
          await writer.write(sending.chunked ? frame(PROBE) : PROBE);
        }
        continue;
      }
      if (failed) return false;
      const value = queue.shift();
      if (value === undefined) break;
      await writer.write(sending.chunked ? frame(value) : value);
      queued -= value.length;
      betweenEvents = endsEvent(value);
    }
    return true;
  } catch {
    // The peer left or stopped reading: end without the last chunk, so
    // the client knows the body is cut.
    cancel();
    return false;
  } finally {
    watching.on = false;
    await pump;
  }
}

/** Whether `bytes` end with a blank line, as an SSE event does. */
function endsEvent(bytes: Uint8Array): boolean {
  const last = bytes.length - 1;
  return bytes[last] === 10 &&
    (bytes[last - 1] === 10 ||
      (bytes[last - 1] === 13 && bytes[last - 2] === 10));
}

/**
 * While a response streams, keep reading, so a half-close is seen. Stops
 * once a head's worth of pipelined bytes is buffered; they wait for the
 * next request.
 */
function watchPeer(
  reader: ConnectionReader,
  maxBufferedBytes: number,
  watching: { on: boolean },
  halfClosed: () => void,
): void {
  const watch = async () => {
    while (watching.on && reader.buffered <= maxBufferedBytes) {
      if (!await reader.fill()) {
        if (watching.on) halfClosed();
        return;
      }
    }
  };
  watch().catch(() => {});
}
