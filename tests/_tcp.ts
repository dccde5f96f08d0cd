// Raw TCP clients for the HTTP server's bounds: connections that send half
// a request, nothing at all, or a body a byte at a time, and read whatever
// comes back until the server closes. fetch cannot do any of that.

import { INITIALIZE } from "./_jsonrpc.ts";

/** A raw connection to `url`'s host and port. */
export class RawConnection implements Disposable {
  readonly conn: Deno.Conn;
  #received = new Uint8Array(0);
  #ended = false;

  private constructor(conn: Deno.Conn) {
    this.conn = conn;
  }

  /** Connect, and send `text` if given. */
  static async open(url: URL, text = ""): Promise<RawConnection> {
    const conn = await Deno.connect({
      hostname: url.hostname.replace(/^\[(.*)\]$/, "$1"),
      port: Number(url.port),
    });
    const raw = new RawConnection(conn);
    if (text !== "") await raw.send(text);
    return raw;
  }

  /** Send text (or bytes); false if the server already closed. */
  async send(data: string | Uint8Array): Promise<boolean> {
    const bytes = typeof data === "string"
      ? new TextEncoder().encode(data)
      : data;
    try {
      let written = 0;
      while (written < bytes.length) {
        written += await this.conn.write(bytes.subarray(written));
      }
      return true;
    } catch {
      return false;
    }
  }

  /** Everything received so far, as text. */
  get text(): string {
    return new TextDecoder().decode(this.#received);
  }

  /**
   * Read until the server closes the connection; the text received. Fails
   * after `guardMs` (a hang, not a measurement).
   */
  async untilClosed(guardMs = 20_000): Promise<string> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const guard = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () =>
          reject(
            new Error(`The connection is still open; received: ${this.text}`),
          ),
        guardMs,
      );
    });
    try {
      await Promise.race([this.#readToEnd(), guard]);
    } finally {
      clearTimeout(timer);
    }
    return this.text;
  }

  /** Read until `text` contains `pattern`, or the server closes. */
  async until(pattern: RegExp, guardMs = 20_000): Promise<string> {
    const deadline = Date.now() + guardMs;
    while (!pattern.test(this.text) && !this.#ended) {
      if (Date.now() > deadline) {
        throw new Error(`No ${pattern} within the guard; got: ${this.text}`);
      }
      await this.#readOnce();
    }
    return this.text;
  }

  /** Whether the server has closed the connection. */
  get ended(): boolean {
    return this.#ended;
  }

  async #readToEnd(): Promise<void> {
    while (!this.#ended) await this.#readOnce();
  }

  async #readOnce(): Promise<void> {
    const buffer = new Uint8Array(65_536);
    let count: number | null;
    try {
      count = await this.conn.read(buffer);
    } catch {
      count = null;
    }
    if (count === null) {
      this.#ended = true;
      return;
    }
    const joined = new Uint8Array(this.#received.length + count);
    joined.set(this.#received);
    joined.set(buffer.subarray(0, count), this.#received.length);
    this.#received = joined;
  }

  [Symbol.dispose](): void {
    try {
      this.conn.close();
    } catch {
      // Already closed.
    }
  }
}

/** The status codes of the HTTP responses in `text`, in order. */
export function statuses(text: string): number[] {
  return [...text.matchAll(/^HTTP\/1\.1 (\d{3}) /gm)].map((match) =>
    Number(match[1])
  );
}

/** The JSON-RPC error message of the last response body in `text`. */
export function errorMessage(text: string): string {
  const match = /"message":"((?:[^"\\]|\\.)*)"/.exec(text);
  return match?.[1] === undefined ? "" : JSON.parse(`"${match[1]}"`);
}

/** A request head for `url` with `fields`, ending with the blank line. */
export function head(
  method: string,
  url: URL,
  fields: Record<string, string | number> = {},
): string {
  const lines = [
    `${method} ${url.pathname} HTTP/1.1`,
    `host: ${url.host}`,
    ...Object.entries(fields).map(([name, value]) => `${name}: ${value}`),
  ];
  return `${lines.join("\r\n")}\r\n\r\n`;
}

/** The headers of an MCP POST. */
export const MCP_POST = {
  "content-type": "application/json",
  accept: "application/json, text/event-stream",
};

/** An initialize request body. */
export const INITIALIZE_BODY: string = JSON.stringify(INITIALIZE);
