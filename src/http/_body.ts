// Request bodies (Content-Length or chunked) as streams pulled from the
// connection's reader, stopping at a byte cap that counts each chunk's
// overhead too, and handing on what is buffered in pieces of up to 64 KiB.

import {
  BODY_READ_BYTES,
  type ConnectionReader,
  HttpBodyError,
} from "./_reader.ts";
import { concatBytes } from "./bytes.ts";

/**
 * What each chunk of a chunked body counts against the byte cap besides
 * its data, about what a chunk costs to parse and hand on: a body in
 * one-byte chunks stops near an eighth of a million chunks, not at 8 MiB.
 */
export const CHUNK_OVERHEAD_BYTES = 64;
/** The longest chunk-size line or trailer block a chunked body may have. */
const MAX_CHUNK_LINE = 4096;
const MAX_TRAILERS = 16_384;

/** Limits and hooks of {@linkcode bodyStream}. */
export interface BodyStreamOptions {
  /** The most bytes the body may have, chunk overhead included. */
  maxBytes: number;
  /** Called before the first byte is read: wait for room, send 100 Continue. */
  beforeFirstRead: (expectedBytes: number) => Promise<void>;
  /** Called as the body's bytes arrive, with the count so far, chunk overhead included. */
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
    if (chunks > 0) {
      const end = reader.lineNow(0) ?? await reader.line(0, cut);
      if (end !== "") {
        throw new HttpBodyError(
          400,
          "Cannot read the request body as a chunk does not end with CRLF",
        );
      }
    }
    remaining = reader.chunkSizeNow(MAX_CHUNK_LINE) ??
      await reader.chunkSize(MAX_CHUNK_LINE, cut);
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
        const most = Math.min(remaining, BODY_READ_BYTES - size);
        const bytes = reader.takeNow(most) ?? await reader.take(most, cut);
        remaining -= bytes.length;
        received += bytes.length;
        counted += bytes.length;
        size += bytes.length;
        pieces.push(bytes);
      } while (size < BODY_READ_BYTES && reader.buffered > 0);
      if (size > 0) {
        options.onProgress(counted);
        controller.enqueue(concatBytes(pieces));
      }
      if (remaining === 0 && (framing.kind === "length" || finished)) {
        options.onEnd();
        controller.close();
      }
    },
  }, { highWaterMark: 0 });
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
