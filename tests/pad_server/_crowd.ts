// Many raw WebSocket people on one pad, by hand over TCP: each sends the
// upgrade, reads the 101 and never reads again (a client that does not
// read), or is closed at once with all the others. Cheap enough to open
// thousands from one process.

const encoder = new TextEncoder();

/** Whether `bytes` hold a whole HTTP head. */
function headEnds(bytes: Uint8Array, length: number): boolean {
  for (let i = 3; i < length; i++) {
    if (
      bytes[i - 3] === 13 && bytes[i - 2] === 10 && bytes[i - 1] === 13 &&
      bytes[i] === 10
    ) return true;
  }
  return false;
}

/** The upgrade request for pad `pad` at `url`, with optional extra fields. */
export function upgradeRequest(
  url: string,
  pad: string,
  fields: Record<string, string> = {},
): string {
  const { host } = new URL(url);
  const extra = Object.entries({ host, ...fields })
    .map(([name, value]) => `${name}: ${value}\r\n`).join("");
  return `GET /api/socket/${pad} HTTP/1.1\r\n${extra}upgrade: websocket\r\nconnection: Upgrade\r\nsec-websocket-key: dGhlIHNhbXBsZSBub25jZQ==\r\nsec-websocket-version: 13\r\n\r\n`;
}

/**
 * Open one raw socket on `pad`; resolves with the connection and the
 * status line of the answer once its head is read.
 */
export async function openRaw(
  url: string,
  pad: string,
  fields: Record<string, string> = {},
): Promise<{ conn: Deno.TcpConn; status: string; after: Uint8Array }> {
  const { hostname, port } = new URL(url);
  const conn = await Deno.connect({ hostname, port: Number(port) });
  const request = encoder.encode(upgradeRequest(url, pad, fields));
  for (let written = 0; written < request.length;) {
    written += await conn.write(request.subarray(written));
  }
  const buffer = new Uint8Array(4096);
  let length = 0;
  while (!headEnds(buffer, length)) {
    const count = await conn.read(buffer.subarray(length));
    if (count === null) break;
    length += count;
  }
  const text = new TextDecoder().decode(buffer.subarray(0, length));
  const headEnd = text.indexOf("\r\n\r\n");
  return {
    conn,
    status: text.split("\r\n")[0] ?? "",
    after: buffer.slice(
      headEnd === -1
        ? length
        : encoder.encode(text.slice(0, headEnd + 4)).length,
      length,
    ),
  };
}

/** `count` raw sockets on one pad that never read after the 101. */
export class Crowd {
  readonly conns: Deno.TcpConn[];

  private constructor(conns: Deno.TcpConn[]) {
    this.conns = conns;
  }

  /** Open `count` sockets, `batch` at a time; each must get its 101. */
  static async open(
    url: string,
    pad: string,
    count: number,
    batch = 200,
  ): Promise<Crowd> {
    const conns: Deno.TcpConn[] = [];
    try {
      for (let opened = 0; opened < count; opened += batch) {
        const size = Math.min(batch, count - opened);
        const results = await Promise.all(
          Array.from({ length: size }, () => openRaw(url, pad)),
        );
        for (const { conn, status } of results) {
          conns.push(conn);
          if (!status.startsWith("HTTP/1.1 101")) {
            throw new Error(`Cannot open socket ${conns.length}: ${status}`);
          }
        }
      }
    } catch (error) {
      for (const conn of conns) conn.close();
      throw error;
    }
    return new Crowd(conns);
  }

  /** Close every socket at once, without a close frame. */
  leave(): void {
    for (const conn of this.conns.splice(0)) {
      try {
        conn.close();
      } catch {
        // Already closed.
      }
    }
  }
}

/**
 * The first frame the server sends on a new socket to `pad`: `{ opcode,
 * text }` (1 for a message such as Identity, 8 for a close, whose text is
 * the code and reason), or undefined if the connection ends first.
 */
export async function firstFrame(
  url: string,
  pad: string,
  fields: Record<string, string> = {},
): Promise<{ status: string; opcode?: number; text?: string }> {
  const { conn, status, after } = await openRaw(url, pad, fields);
  try {
    let bytes = after;
    for (;;) {
      if (bytes.length >= 2) {
        const length = bytes[1]! & 0x7f;
        if (length < 126 && bytes.length >= 2 + length) {
          const opcode = bytes[0]! & 0x0f;
          const payload = bytes.subarray(2, 2 + length);
          const text = opcode === 8 && payload.length >= 2
            ? `${(payload[0]! << 8) | payload[1]!} ${
              new TextDecoder().decode(payload.subarray(2))
            }`
            : new TextDecoder().decode(payload);
          return { status, opcode, text };
        }
      }
      const chunk = new Uint8Array(4096);
      const count = await conn.read(chunk);
      if (count === null) return { status };
      const joined = new Uint8Array(bytes.length + count);
      joined.set(bytes);
      joined.set(chunk.subarray(0, count), bytes.length);
      bytes = joined;
    }
  } finally {
    conn.close();
  }
}
