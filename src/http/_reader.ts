// The read side of one HTTP/1.1 connection: bytes buffered from the socket
// on demand (small reads while waiting for a head, so thousands of idle
// connections cost little), the head, lines and chunk sizes found in them
// (the bodies they frame are in _body.ts).

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
export const BODY_READ_BYTES = 65_536;
const CRLF = new Uint8Array([13, 10]);
const HEAD_END = new Uint8Array([13, 10, 13, 10]);

/**
 * Where `needle` starts in `haystack`, from `from`, ending no further than
 * `until`.
 */
function indexOf(
  haystack: Uint8Array,
  needle: Uint8Array,
  from: number,
  until = haystack.length,
): number {
  const last = Math.min(until, haystack.length) - needle.length;
  outer: for (let i = from; i <= last; i++) {
    for (let j = 0; j < needle.length; j++) {
      if (haystack[i + j] !== needle[j]) continue outer;
    }
    return i;
  }
  return -1;
}

/** Decodes ASCII, where UTF-8 and Latin-1 agree, natively. */
const ascii = new TextDecoder();

/** Bytes as Latin-1 text: one character per byte, as HTTP fields are. */
export function latin1(bytes: Uint8Array): string {
  // Heads are nearly always ASCII: one native decode instead of spreading
  // every byte into fromCharCode (a WHATWG "latin1" decoder would be
  // windows-1252, which differs at 0x80-0x9f).
  let high = 0;
  for (let i = 0; i < bytes.length; i++) high |= bytes[i]!;
  if (high < 0x80) return ascii.decode(bytes);
  let text = "";
  for (let i = 0; i < bytes.length; i += 8192) {
    text += String.fromCharCode(...bytes.subarray(i, i + 8192));
  }
  return text;
}

/**
 * Buffered bytes from a connection, read when a consumer needs more. What
 * is consumed moves an offset, never a new view, so a body of many small
 * chunks costs no allocation per chunk beyond its data.
 */
export class ConnectionReader {
  readonly #conn: Deno.Conn;
  #buffer = new Uint8Array(0);
  /** Where the bytes not yet consumed start in #buffer. */
  #at = 0;
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
    return this.#buffer.length - this.#at;
  }

  /**
   * Read once more from the socket; `false` once the peer has closed.
   * Joins a read already in flight. Rejects with the reason given to
   * {@linkcode interrupt}, if any.
   */
  fill(
    size = this.buffered === 0 ? FIRST_READ_BYTES : HEAD_READ_BYTES,
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
    const kept = this.buffered;
    if (kept === 0) {
      this.#buffer = scratch.subarray(0, count);
    } else {
      const joined = new Uint8Array(kept + count);
      joined.set(this.#buffer.subarray(this.#at));
      joined.set(scratch.subarray(0, count), kept);
      this.#buffer = joined;
    }
    this.#at = 0;
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
    let dropped = this.buffered;
    this.#buffer = new Uint8Array(0);
    this.#at = 0;
    while (!this.ended && dropped <= maxBytes) {
      this.#reading ??= this.#read(BODY_READ_BYTES).finally(() => {
        this.#reading = undefined;
      });
      if (!await this.#reading) return;
      dropped += this.buffered;
      this.#buffer = new Uint8Array(0);
      this.#at = 0;
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

  /** Every buffered byte, taken out: a protocol after an upgrade reads on. */
  takeAll(): Uint8Array {
    const bytes = this.#buffer.subarray(this.#at);
    this.#buffer = new Uint8Array(0);
    this.#at = 0;
    return bytes;
  }

  /** Drop CRLFs before a request line, as RFC 9112 allows. */
  skipBlankLines(): void {
    while (
      this.#buffer[this.#at] === 13 && this.#buffer[this.#at + 1] === 10
    ) this.#at += 2;
  }

  /** The head's bytes and the blank line after them, taken out; or undefined. */
  takeHead(): Uint8Array | undefined {
    const end = indexOf(this.#buffer, HEAD_END, this.#at);
    if (end === -1) return undefined;
    const head = this.#buffer.slice(this.#at, end);
    this.#at = end + HEAD_END.length;
    return head;
  }

  /** Up to `max` buffered bytes, taken out; undefined if none is buffered. */
  takeNow(max: number): Uint8Array | undefined {
    if (this.buffered === 0) return undefined;
    const count = Math.min(max, this.buffered);
    const bytes = this.#buffer.slice(this.#at, this.#at + count);
    this.#at += count;
    return bytes;
  }

  /** Up to `max` buffered bytes, taken out (reading first if none). */
  async take(max: number, what: () => HttpBodyError): Promise<Uint8Array> {
    for (;;) {
      const bytes = this.takeNow(max);
      if (bytes !== undefined) return bytes;
      if (!await this.fill(BODY_READ_BYTES)) throw what();
    }
  }

  /**
   * One CRLF-ended line of at most `max` bytes, taken out, as Latin-1;
   * undefined until it is buffered whole. Parsing what is buffered without
   * awaiting keeps a body of many small chunks from costing a promise each.
   *
   * @throws {HttpBodyError} If the line is longer than `max`.
   */
  lineNow(max: number): string | undefined {
    const start = this.#at;
    const end = this.#lineEnd(max);
    if (end === undefined) return undefined;
    return end === start ? "" : latin1(this.#buffer.subarray(start, end));
  }

  /**
   * A chunk-size line (hexadecimal digits, then extensions, which are
   * ignored), taken out, as the size; undefined until it is buffered whole.
   *
   * @throws {HttpBodyError} If the line is malformed or over `max` bytes.
   */
  chunkSizeNow(max: number): number | undefined {
    const start = this.#at;
    const end = this.#lineEnd(max);
    if (end === undefined) return undefined;
    const size = parseChunkSize(this.#buffer, start, end);
    if (size === undefined) {
      throw new HttpBodyError(
        400,
        "Cannot read the request body as a chunk size is malformed",
      );
    }
    return size;
  }

  /** Where the buffered line ends, once taken out; undefined if not whole. */
  #lineEnd(max: number): number | undefined {
    const end = indexOf(this.#buffer, CRLF, this.#at, this.#at + max + 2);
    if (end !== -1) {
      this.#at = end + 2;
      return end;
    }
    // A line of `max` bytes may wait for the LF after its CR.
    if (this.buffered > max + 1) {
      throw new HttpBodyError(
        400,
        "Cannot read the request body as its chunked framing is malformed",
      );
    }
    return undefined;
  }

  /** One CRLF-ended line of at most `max` bytes, taken out, as Latin-1. */
  async line(max: number, what: () => HttpBodyError): Promise<string> {
    for (;;) {
      const line = this.lineNow(max);
      if (line !== undefined) return line;
      if (!await this.fill(BODY_READ_BYTES)) throw what();
    }
  }

  /** A chunk-size line, taken out, as the size (reading first if needed). */
  async chunkSize(max: number, what: () => HttpBodyError): Promise<number> {
    for (;;) {
      const size = this.chunkSizeNow(max);
      if (size !== undefined) return size;
      if (!await this.fill(BODY_READ_BYTES)) throw what();
    }
  }
}

/**
 * The size in a chunk-size line `bytes[start..end)`: one to eight
 * hexadecimal digits, spaces or tabs, then nothing or `;` and extensions
 * without CR or LF; undefined if it is not so.
 */
function parseChunkSize(
  bytes: Uint8Array,
  start: number,
  end: number,
): number | undefined {
  let size = 0;
  let at = start;
  for (; at < end && at - start <= 8; at++) {
    const byte = bytes[at]!;
    const digit = byte >= 48 && byte <= 57
      ? byte - 48
      : byte >= 65 && byte <= 70
      ? byte - 55
      : byte >= 97 && byte <= 102
      ? byte - 87
      : -1;
    if (digit === -1) break;
    size = size * 16 + digit;
  }
  const digits = at - start;
  if (digits === 0 || digits > 8) return undefined;
  while (at < end && (bytes[at] === 32 || bytes[at] === 9)) at++;
  if (at === end) return size;
  if (bytes[at] !== 59) return undefined;
  for (; at < end; at++) {
    if (bytes[at] === 10 || bytes[at] === 13) return undefined;
  }
  return size;
}
