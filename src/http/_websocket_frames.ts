// WebSocket frames as RFC 6455 lays them out: a server's frames (never
// masked) and a parser for a client's (always masked), which refuses what
// the RFC makes a protocol error and a frame over the size cap before its
// payload is read.

import { sha1 } from "../digest/mod.ts";

const GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11";

/** The `101` answer to an upgrade whose key is `key`. */
export function switchingProtocols(key: string): Uint8Array {
  const accept = sha1(key + GUID).toBase64();
  return new TextEncoder().encode(
    `HTTP/1.1 101 Switching Protocols\r\nupgrade: websocket\r\nconnection: Upgrade\r\nsec-websocket-accept: ${accept}\r\n\r\n`,
  );
}

export const OPCODE = {
  continuation: 0x0,
  text: 0x1,
  binary: 0x2,
  close: 0x8,
  ping: 0x9,
  pong: 0xa,
} as const;

/** Close codes of RFC 6455, section 7.4.1. */
export const CLOSE_CODE = {
  normal: 1000,
  goingAway: 1001,
  protocolError: 1002,
  noStatus: 1005,
  abnormal: 1006,
  invalidData: 1007,
  policy: 1008,
  tooBig: 1009,
  tryAgainLater: 1013,
} as const;

/** One whole frame from the client, unmasked. */
export interface Frame {
  readonly fin: boolean;
  readonly opcode: number;
  readonly payload: Uint8Array;
}

/** Why the client's bytes are not a frame: the close code and reason. */
export class FrameError extends Error {
  readonly code: number;

  constructor(code: number, reason: string) {
    super(reason);
    this.code = code;
  }
}

/** The head of a server frame with `length` payload bytes. */
export function frameHead(opcode: number, length: number): Uint8Array {
  const first = 0x80 | opcode;
  if (length < 126) return new Uint8Array([first, length]);
  if (length < 65_536) {
    return new Uint8Array([first, 126, length >>> 8, length & 0xff]);
  }
  const head = new Uint8Array(10);
  head[0] = first;
  head[1] = 127;
  new DataView(head.buffer).setBigUint64(2, BigInt(length));
  return head;
}

/** A close frame's payload: the code, then the reason cut to 123 bytes. */
const ENCODER = new TextEncoder();

export function closePayload(
  code: number | undefined,
  reason = "",
): Uint8Array {
  if (code === undefined) return new Uint8Array(0);
  let bytes = ENCODER.encode(reason);
  if (bytes.length > 123) {
    // Cut on a character boundary: drop continuation bytes at the cut.
    let end = 123;
    while (end > 0 && (bytes[end]! & 0xc0) === 0x80) end--;
    bytes = bytes.subarray(0, end);
  }
  const payload = new Uint8Array(2 + bytes.length);
  payload[0] = code >>> 8;
  payload[1] = code & 0xff;
  payload.set(bytes, 2);
  return payload;
}

/** Client frames out of a stream of bytes. */
export class FrameParser {
  readonly #maxPayload: number;
  #buffer: Uint8Array = new Uint8Array(0);

  /** @param maxPayload The most payload bytes one frame may carry. */
  constructor(maxPayload: number) {
    this.#maxPayload = maxPayload;
  }

  /** Bytes buffered for a frame not yet whole. */
  get buffered(): number {
    return this.#buffer.length;
  }

  /** Take `bytes` in; returns the frames they complete, in order. */
  push(bytes: Uint8Array): Frame[] {
    this.#buffer = this.#buffer.length === 0 ? bytes : join(
      this.#buffer,
      bytes,
    );
    const frames: Frame[] = [];
    for (;;) {
      const frame = this.#next();
      if (frame === undefined) return frames;
      frames.push(frame);
    }
  }

  #next(): Frame | undefined {
    const buffer = this.#buffer;
    if (buffer.length < 2) return undefined;
    const first = buffer[0]!;
    const second = buffer[1]!;
    if ((first & 0x70) !== 0) {
      throw new FrameError(CLOSE_CODE.protocolError, "Reserved bits set");
    }
    const opcode = first & 0x0f;
    const fin = (first & 0x80) !== 0;
    if ((second & 0x80) === 0) {
      throw new FrameError(CLOSE_CODE.protocolError, "Client frame unmasked");
    }
    let length = second & 0x7f;
    let offset = 2;
    if (length === 126) {
      if (buffer.length < 4) return undefined;
      length = (buffer[2]! << 8) | buffer[3]!;
      offset = 4;
    } else if (length === 127) {
      if (buffer.length < 10) return undefined;
      const view = new DataView(buffer.buffer, buffer.byteOffset + 2, 8);
      const long = view.getBigUint64(0);
      length = long > BigInt(Number.MAX_SAFE_INTEGER) ? Infinity : Number(long);
      offset = 10;
    }
    checkFrame(opcode, fin, length, this.#maxPayload);
    if (buffer.length < offset + 4 + length) return undefined;
    const mask = buffer.subarray(offset, offset + 4);
    const payload = buffer.slice(offset + 4, offset + 4 + length);
    for (let i = 0; i < payload.length; i++) payload[i]! ^= mask[i & 3]!;
    this.#buffer = buffer.subarray(offset + 4 + length);
    return { fin, opcode, payload };
  }
}

function checkFrame(
  opcode: number,
  fin: boolean,
  length: number,
  maxPayload: number,
): void {
  if (opcode >= OPCODE.close) {
    if (opcode > OPCODE.pong) {
      throw new FrameError(CLOSE_CODE.protocolError, "Unknown opcode");
    }
    if (!fin || length > 125) {
      throw new FrameError(
        CLOSE_CODE.protocolError,
        "Control frame fragmented or over 125 bytes",
      );
    }
  } else if (opcode > OPCODE.binary) {
    throw new FrameError(CLOSE_CODE.protocolError, "Unknown opcode");
  }
  if (length > maxPayload) {
    throw new FrameError(
      CLOSE_CODE.tooBig,
      `Frame over the limit of ${maxPayload} bytes`,
    );
  }
}

/**
 * Whole data messages out of data frames: a frame with `fin` is one, else
 * fragments are joined up to its continuation with `fin`, within the cap.
 */
export class MessageAssembler {
  readonly #maxBytes: number;
  #fragments: Uint8Array[] | undefined;
  #opcode = 0;
  #bytes = 0;

  constructor(maxBytes: number) {
    this.#maxBytes = maxBytes;
  }

  /** The message `frame` completes, if any. */
  push(frame: Frame): { opcode: number; payload: Uint8Array } | undefined {
    const { opcode, fin, payload } = frame;
    if (opcode !== OPCODE.continuation) {
      if (this.#fragments !== undefined) {
        throw new FrameError(CLOSE_CODE.protocolError, "Expected continuation");
      }
      if (fin) return { opcode, payload };
      this.#fragments = [payload];
      this.#opcode = opcode;
      this.#bytes = payload.length;
      return undefined;
    }
    if (this.#fragments === undefined) {
      throw new FrameError(CLOSE_CODE.protocolError, "Stray continuation");
    }
    this.#bytes += payload.length;
    if (this.#bytes > this.#maxBytes) {
      throw new FrameError(
        CLOSE_CODE.tooBig,
        `Message over the limit of ${this.#maxBytes} bytes`,
      );
    }
    this.#fragments.push(payload);
    if (!fin) return undefined;
    const whole = new Uint8Array(this.#bytes);
    let offset = 0;
    for (const part of this.#fragments) {
      whole.set(part, offset);
      offset += part.length;
    }
    this.#fragments = undefined;
    return { opcode: this.#opcode, payload: whole };
  }
}

/** `a` then `b`, in one new array. */
export function join(a: Uint8Array, b: Uint8Array): Uint8Array {
  const joined = new Uint8Array(a.length + b.length);
  joined.set(a);
  joined.set(b, a.length);
  return joined;
}
