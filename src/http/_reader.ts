// The read side of one HTTP/1.1 connection: bytes buffered from the socket
// on demand (small reads while waiting for a head, so thousands of idle
// connections cost little), the head found in them, and request bodies
// (Content-Length or chunked) as streams that stop at a byte cap.

/** A body that could not be read whole: 408, 413 or 400 with a message. */
export class HttpBodyError extends Error {
  /** The status to answer with. */
  readonly status: number;

  constructor(status: number, message: string) {
    super(message);
    this.name = "HttpBodyError";
    this.status = status;
  }
}

/**
 * Read sizes while waiting for a head: small while nothing is buffered (an
 * idle connection holds its read buffer), then enough for a usual head.
 */
const FIRST_READ_BYTES = 1024;
const HEAD_READ_BYTES = 4096;
/** Read size inside a body, and the most one piece handed on joins. */
const BODY_READ_BYTES = 65_536;
/**
 * What each chunk of a chunked body counts against the byte cap besides
 * its data, about what a chunk costs to parse and hand on: a body in
 * one-byte chunks stops near an eighth of a million chunks, not at 8 MiB.
 */
export const CHUNK_OVERHEAD_BYTES = 64;
/** The longest chunk-size line or trailer block a chunked body may have. */
const MAX_CHUNK_LINE = 4096;
const MAX_TRAILERS = 16_384;
const CRLF = new Uint8Array([13, 10]);
const HEAD_END = new Uint8Array([13, 10, 13, 10]);

function indexOf(haystack: Uint8Array, needle: Uint8Array, from = 0): number {
  outer: for (let i = from; i <= haystack.length - needle.length; i++) {
    for (let j = 0; j < needle.length; j++) {
      if (haystack[i + j] !== needle[j]) continue outer;
    }
    return i;
  }
  return -1;
}

/** Bytes as Latin-1 text: one character per byte, as HTTP fields are. */
export function latin1(bytes: Uint8Array): string {
  let text = "";
  for (let i = 0; i < bytes.length; i += 8192) {
    text += String.fromCharCode(...bytes.subarray(i, i + 8192));
  }
  return text;
}

/** Buffered bytes from a connection, read when a consumer needs more. */
export class ConnectionReader {
  readonly #conn: Deno.Conn;
  #buffer = new Uint8Array(0);
  #reading: Promise<boolean> | undefined;
  #interrupt = Promise.withResolvers<never>();
  #interrupted: unknown = undefined;
  /** Whether the peer closed its side (or the socket failed). */
  ended = false;

  constructor(conn: Deno.Conn) {
    this.#conn = conn;
    // Nobody may be waiting when the interruption comes.
    this.#interrupt.promise.catch(() => {});
  }

  /** Bytes buffered and not yet consumed. */
  get buffered(): number {
    return this.#buffer.length;
  }

  /**
   * Read once more from the socket; `false` once the peer has closed.
   * Joins a read already in flight. Rejects with the reason given to
   * {@linkcode interrupt}, if any.
   */
  fill(
    size = this.#buffer.length === 0 ? FIRST_READ_BYTES : HEAD_READ_BYTES,
  ): Promise<boolean> {
    if (this.#interrupted !== undefined) {
      return Promise.reject(this.#interrupted);
    }
    if (this.ended) return Promise.resolve(false);
    this.#reading ??= this.#read(size).finally(() => {
      this.#reading = undefined;
    });
    return Promise.race([this.#reading, this.#interrupt.promise]);
  }

  async #read(size: number): Promise<boolean> {
    const scratch = new Uint8Array(size);
    let count: number | null;
    try {
      count = await this.#conn.read(scratch);
    } catch {
      count = null;
    }
    if (count === null) {
      this.ended = true;
      return false;
    }
    const joined = new Uint8Array(this.#buffer.length + count);
    joined.set(this.#buffer);
    joined.set(scratch.subarray(0, count), this.#buffer.length);
    this.#buffer = joined;
    return true;
  }

  /** Make every wait, present and future, reject with `reason`. */
  interrupt(reason: unknown): void {
    if (this.#interrupted !== undefined) return;
    this.#interrupted = reason;
    this.#interrupt.reject(reason);
  }

  /**
   * Drop buffered and arriving bytes until the peer closes or `maxBytes`
   * went by, interrupted or not; for a close that lets the peer read the
   * answer first.
   */
  async discard(maxBytes: number): Promise<void> {
    let dropped = this.#buffer.length;
    this.#buffer = new Uint8Array(0);
    while (!this.ended && dropped <= maxBytes) {
      this.#reading ??= this.#read(BODY_READ_BYTES).finally(() => {
        this.#reading = undefined;
      });
      if (!await this.#reading) return;
      dropped += this.#buffer.length;
      this.#buffer = new Uint8Array(0);
    }
  }

  /** Rejects with the reason given to {@linkcode interrupt}. */
  whenInterrupted(): Promise<never> {
    return this.#interrupt.promise;
  }

  /** Settles once no read is in flight (after the socket is closed). */
  async settled(): Promise<void> {
    await this.#reading?.catch(() => {});
  }

  /** Drop CRLFs before a request line, as RFC 9112 allows. */
  skipBlankLines(): void {
    let start = 0;
    while (
      this.#buffer[start] === 13 && this.#buffer[start + 1] === 10
    ) start += 2;
    if (start > 0) this.#buffer = this.#buffer.subarray(start);
  }

  /** The head's bytes and the blank line after them, taken out; or undefined. */
  takeHead(): Uint8Array | undefined {
    const end = indexOf(this.#buffer, HEAD_END);
    if (end === -1) return undefined;
    const head = this.#buffer.slice(0, end);
    this.#buffer = this.#buffer.subarray(end + HEAD_END.length);
    return head;
  }

  /** Up to `max` buffered bytes, taken out (reading first if none). */
  async take(max: number, what: () => HttpBodyError): Promise<Uint8Array> {
    while (this.#buffer.length === 0) {
      if (!await this.fill(BODY_READ_BYTES)) throw what();
    }
    const count = Math.min(max, this.#buffer.length);
    const bytes = this.#buffer.slice(0, count);
    this.#buffer = this.#buffer.subarray(count);
    return bytes;
  }

  /** One CRLF-ended line of at most `max` bytes, taken out, as Latin-1. */
  async line(max: number, what: () => HttpBodyError): Promise<string> {
    for (;;) {
      const end = indexOf(this.#buffer, CRLF);
      if (end !== -1 && end <= max) {
        const text = latin1(this.#buffer.subarray(0, end));
        this.#buffer = this.#buffer.subarray(end + 2);
        return text;
      }
      // A line of `max` bytes may wait for the LF after its CR.
      if (end !== -1 || this.#buffer.length > max + 1) {
        throw new HttpBodyError(
          400,
          "Cannot read the request body as its chunked framing is malformed",
        );
      }
      if (!await this.fill(BODY_READ_BYTES)) throw what();
    }
  }
}

/** Limits and hooks of {@linkcode bodyStream}. */
export interface BodyStreamOptions {
  /** The most bytes the body may have, chunk overhead included. */
  maxBytes: number;
  /** Called before the first byte is read: wait for room, send 100 Continue. */
  beforeFirstRead: (expectedBytes: number) => Promise<void>;
  /** Called as the body's bytes arrive, with the count so far. */
  onProgress: (bytes: number) => void;
  /** Called once the whole body has been read. */
  onEnd: () => void;
}

/** The error for a body over `maxBytes`. */
export function tooLarge(maxBytes: number, size?: number): HttpBodyError {
  return new HttpBodyError(
    413,
    `Cannot read the request as its body is ${
      size === undefined ? "over" : `${size} bytes, over`
    } the limit of ${maxBytes} bytes (RUSTPAD_MCP_MAX_MESSAGE_BYTES): send a smaller message; nothing was done`,
  );
}

/** The error for a chunked body whose chunks, counted with their overhead, pass `maxBytes`. */
function tooManyChunks(maxBytes: number, chunks: number): HttpBodyError {
  return new HttpBodyError(
    413,
    `Cannot read the request as its body is over the limit of ${maxBytes} bytes (RUSTPAD_MCP_MAX_MESSAGE_BYTES) counting ${CHUNK_OVERHEAD_BYTES} bytes for each chunk: current count is ${chunks} chunks; send it in fewer, larger chunks or with Content-Length; nothing was done`,
  );
}

/**
 * The body as a stream pulled from `reader`: exactly `length` bytes, or
 * chunked (extensions ignored, trailers read and dropped). Data already
 * buffered is handed on in pieces of up to 64 KiB, however small the
 * chunks it came in. It errors with an {@linkcode HttpBodyError} past
 * `maxBytes` (each chunk counting {@linkcode CHUNK_OVERHEAD_BYTES} more),
 * on bad framing, or if the peer closes first; with the reader's
 * interruption reason on a deadline.
 */
export function bodyStream(
  reader: ConnectionReader,
  framing: { kind: "length"; length: number } | { kind: "chunked" },
  options: BodyStreamOptions,
): ReadableStream<Uint8Array> {
  const { maxBytes } = options;
  const cut = () =>
    new HttpBodyError(
      400,
      "Cannot read the request body as the connection closed before it ended",
    );
  let started = false;
  /** Bytes counted against the cap: data, and each chunk's overhead. */
  let counted = 0;
  let received = 0;
  let chunks = 0;
  let remaining = framing.kind === "length" ? framing.length : 0;
  let finished = false;
  /** Read the next chunk's size line; false once the last chunk is read. */
  const nextChunk = async (): Promise<boolean> => {
    if (chunks > 0) await expectCrlf(reader, cut);
    const sizeLine = await reader.line(MAX_CHUNK_LINE, cut);
    const size = /^([0-9A-Fa-f]{1,8})[ \t]*(?:;.*)?$/.exec(sizeLine);
    if (size === null) {
      throw new HttpBodyError(
        400,
        "Cannot read the request body as a chunk size is malformed",
      );
    }
    remaining = parseInt(size[1]!, 16);
    chunks++;
    if (remaining === 0) {
      await dropTrailers(reader, cut);
      return false;
    }
    counted += CHUNK_OVERHEAD_BYTES;
    if (counted + remaining > maxBytes) {
      throw received + remaining > maxBytes
        ? tooLarge(maxBytes)
        : tooManyChunks(maxBytes, chunks);
    }
    return true;
  };
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!started) {
        started = true;
        await options.beforeFirstRead(
          framing.kind === "length" ? framing.length : maxBytes,
        );
      }
      const pieces: Uint8Array[] = [];
      let size = 0;
      // Take what is buffered, chunk after chunk, as one piece.
      do {
        if (framing.kind === "chunked" && remaining === 0 && !finished) {
          finished = !await nextChunk();
        }
        if (remaining === 0) break;
        const bytes = await reader.take(
          Math.min(remaining, BODY_READ_BYTES - size),
          cut,
        );
        remaining -= bytes.length;
        received += bytes.length;
        counted += bytes.length;
        size += bytes.length;
        pieces.push(bytes);
      } while (size < BODY_READ_BYTES && reader.buffered > 0);
      if (size > 0) {
        options.onProgress(received);
        controller.enqueue(pieces.length === 1 ? pieces[0]! : join(pieces));
      }
      if (remaining === 0 && (framing.kind === "length" || finished)) {
        options.onEnd();
        controller.close();
      }
    },
  }, { highWaterMark: 0 });
}

function join(pieces: readonly Uint8Array[]): Uint8Array {
  const joined = new Uint8Array(
    pieces.reduce((sum, piece) => sum + piece.length, 0),
  );
  let at = 0;
  for (const piece of pieces) {
    joined.set(piece, at);
    at += piece.length;
  }
  return joined;
}

async function expectCrlf(
  reader: ConnectionReader,
  cut: () => HttpBodyError,
): Promise<void> {
  if (await reader.line(0, cut) !== "") {
    throw new HttpBodyError(
      400,
      "Cannot read the request body as a chunk does not end with CRLF",
    );
  }
}

async function dropTrailers(
  reader: ConnectionReader,
  cut: () => HttpBodyError,
): Promise<void> {
  let size = 0;
  for (;;) {
    const line = await reader.line(MAX_CHUNK_LINE, cut);
    if (line === "") return;
    size += line.length + 2;
    if (size > MAX_TRAILERS) {
      throw new HttpBodyError(
        400,
        `Cannot read the request body as its trailers are over ${MAX_TRAILERS} bytes`,
      );
    }
  }
}
