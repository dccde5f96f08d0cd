// Just enough HTTP and WebSocket, by hand over TCP, for servers that
// misbehave in ways a real WebSocket server would not let them: read a
// request head, answer an upgrade, write frames (whole, or byte by byte),
// and notice when the client closes.

const GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11";
const MAX_HEAD = 64 * 1024;
const encoder = new TextEncoder();

/** A request head as read, and the bytes read past it. */
export interface RequestHead {
  method: string;
  path: string;
  headers: Map<string, string>;
  /** Everything read so far, the head included, for a proxy to replay. */
  bytes: Uint8Array;
}

/** Read up to the end of the request head; `undefined` if it never came. */
export async function readHead(
  conn: Deno.Conn,
): Promise<RequestHead | undefined> {
  let bytes = new Uint8Array(0);
  const chunk = new Uint8Array(16 * 1024);
  while (bytes.length < MAX_HEAD) {
    const n = await conn.read(chunk);
    if (n === null) return undefined;
    const next = new Uint8Array(bytes.length + n);
    next.set(bytes);
    next.set(chunk.subarray(0, n), bytes.length);
    bytes = next;
    const text = new TextDecoder().decode(bytes);
    const end = text.indexOf("\r\n\r\n");
    if (end === -1) continue;
    const [requestLine = "", ...lines] = text.slice(0, end).split("\r\n");
    const [method = "", path = ""] = requestLine.split(" ");
    const headers = new Map<string, string>();
    for (const line of lines) {
      const colon = line.indexOf(":");
      if (colon > 0) {
        headers.set(
          line.slice(0, colon).trim().toLowerCase(),
          line.slice(colon + 1).trim(),
        );
      }
    }
    return { method, path, headers, bytes };
  }
  return undefined;
}

/** The `101 Switching Protocols` answer to a WebSocket upgrade request. */
export async function upgradeResponse(key: string): Promise<Uint8Array> {
  const digest = await crypto.subtle.digest(
    "SHA-1",
    encoder.encode(key + GUID),
  );
  const accept = btoa(
    Array.from(new Uint8Array(digest), (byte) => String.fromCharCode(byte))
      .join(""),
  );
  return encoder.encode(
    "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\n" +
      `Connection: Upgrade\r\nSec-WebSocket-Accept: ${accept}\r\n\r\n`,
  );
}

/** The header of an unmasked server frame (`opcode` 1: text, 8: close). */
export function frameHeader(payloadLength: number, opcode = 1): Uint8Array {
  const first = 0x80 | opcode;
  if (payloadLength < 126) return new Uint8Array([first, payloadLength]);
  if (payloadLength < 65536) {
    return new Uint8Array([
      first,
      126,
      payloadLength >> 8,
      payloadLength & 255,
    ]);
  }
  const header = new Uint8Array(10);
  header[0] = first;
  header[1] = 127;
  new DataView(header.buffer).setBigUint64(2, BigInt(payloadLength));
  return header;
}

/** A whole text frame. */
export function textFrame(text: string): Uint8Array {
  const payload = encoder.encode(text);
  const header = frameHeader(payload.length);
  const frame = new Uint8Array(header.length + payload.length);
  frame.set(header);
  frame.set(payload, header.length);
  return frame;
}

/** Write every byte; rejects once the connection is gone. */
export async function writeAll(
  conn: Deno.Conn,
  bytes: Uint8Array,
): Promise<void> {
  let written = 0;
  while (written < bytes.length) {
    written += await conn.write(bytes.subarray(written));
  }
}

/**
 * Read and discard what the client sends until it closes the connection
 * or sends a close frame; resolves then. The close frame is not answered:
 * the caller may be writing, and the connection is simply cut.
 */
export async function untilClientCloses(conn: Deno.Conn): Promise<void> {
  const chunk = new Uint8Array(64 * 1024);
  let pending = new Uint8Array(0);
  try {
    for (;;) {
      const n = await conn.read(chunk);
      if (n === null) return;
      const next = new Uint8Array(pending.length + n);
      next.set(pending);
      next.set(chunk.subarray(0, n), pending.length);
      pending = next;
      for (let frame = nextFrame(pending); frame; frame = nextFrame(pending)) {
        pending = pending.subarray(frame.length);
        if (frame.opcode === 8) return;
      }
    }
  } catch {
    return;
  }
}

/** The opcode and whole length of the first complete frame, if any. */
function nextFrame(
  bytes: Uint8Array,
): { opcode: number; length: number } | undefined {
  if (bytes.length < 2) return undefined;
  const opcode = bytes[0]! & 0x0f;
  const masked = (bytes[1]! & 0x80) !== 0;
  let length = bytes[1]! & 0x7f;
  let offset = 2;
  if (length === 126) {
    if (bytes.length < 4) return undefined;
    length = (bytes[2]! << 8) | bytes[3]!;
    offset = 4;
  } else if (length === 127) {
    if (bytes.length < 10) return undefined;
    length = Number(
      new DataView(bytes.buffer, bytes.byteOffset + 2, 8).getBigUint64(0),
    );
    offset = 10;
  }
  const total = offset + (masked ? 4 : 0) + length;
  return bytes.length < total ? undefined : { opcode, length: total };
}
