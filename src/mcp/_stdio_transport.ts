// The stdio transport: one JSON-RPC message per line on stdin, one per line
// on stdout. It replaces the SDK's StdioServerTransport, whose read buffer
// closes the whole transport (and so ends the server, exit code 0, without
// a word) when a line passes 10 MiB. Here a line over the cap is skipped
// as it streams by, never held, and answered with a JSON-RPC error; so is a
// line that is not JSON-RPC; the lines after it are served as usual.
//
// It reads and writes the files themselves, not `Deno.stdin.readable` and
// `Deno.stdout.writable`: the web streams' machinery took about 110 µs of
// every message's 400 or so (a CPU profile of 1,500 pings, issue 32), more
// than the SDK's handling. A line that fits a pipe's buffer is written
// synchronously, as Node writes stdout to a pipe on Linux (so every Node
// MCP server does): the asynchronous write's trip to a blocking thread cost
// another 50 to 100 µs. A longer line (a big pad's text) is written
// asynchronously, so a client reading it slowly does not stall the server.

// @ts-types="@modelcontextprotocol/server"
import {
  type JSONRPCMessage,
  parseJSONRPCMessage,
  type Transport,
} from "@modelcontextprotocol/server";
import { concatBytes } from "../http/bytes.ts";
import { LineIdScanner } from "./_line_id_scanner.ts";
import { LineEncoder } from "./_message_json.ts";

/** What the transport reads from: `Deno.stdin`'s shape. */
export interface LineInput {
  /** Read into `buffer`; the count of bytes read, or null at the end. */
  read(buffer: Uint8Array): Promise<number | null>;
  /** Stop reading: a pending read settles. */
  close(): void;
}

/** What the transport writes to: `Deno.stdout`'s shape. */
export interface LineOutput {
  /** Write some of `bytes`; the count written. */
  write(bytes: Uint8Array): Promise<number>;
  /** Write some of `bytes` now, blocking; the count written. */
  writeSync(bytes: Uint8Array): number;
}

/** Where the transport reads, writes and reports. */
export interface LineTransportOptions {
  /** The largest line, in bytes, without its newline. */
  readonly maxLineBytes: number;
  readonly input: LineInput;
  readonly output: LineOutput;
  /** Where skipped lines are reported: never stdout. */
  readonly log: (line: string) => void;
}

const NEWLINE = 10;
/** The read buffer's size, reused for every read. */
const READ_BYTES = 65536;
/** Lines up to this many bytes are written synchronously: a pipe holds 64 KiB. */
const SYNC_WRITE_BYTES = 16384;
const decoder = new TextDecoder();

/** JSON-RPC over newline-delimited stdin and stdout, with a line cap. */
export class LineTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  readonly #options: LineTransportOptions;
  readonly #lines = new LineEncoder();
  /** The last asynchronous write: the next write waits until it settles. */
  #writing: Promise<void> = Promise.resolve();
  /** Asynchronous writes not yet settled. */
  #unsettled = 0;
  readonly #ended = Promise.withResolvers<void>();
  /** The current line's bytes so far, while it is within the cap. */
  #parts: Uint8Array[] = [];
  #size = 0;
  /** Set while skipping a line over the cap. */
  #skipping: LineIdScanner | undefined;
  #closed = false;

  constructor(options: LineTransportOptions) {
    this.#options = options;
  }

  /** Settles once the input has ended (the client closed stdin). */
  get ended(): Promise<void> {
    return this.#ended.promise;
  }

  start(): Promise<void> {
    // Read from the next task on, as stdin's data events would: whoever
    // connected gets to wrap onmessage first (PendingRequests does).
    setTimeout(() => void this.#pump(), 0);
    return Promise.resolve();
  }

  async send(message: JSONRPCMessage): Promise<void> {
    await this.#lines.write(message, (bytes) => this.#write(bytes));
  }

  close(): Promise<void> {
    if (this.#closed) return Promise.resolve();
    this.#closed = true;
    try {
      this.#options.input.close();
    } catch {
      // Already closed.
    }
    this.onclose?.();
    return Promise.resolve();
  }

  /**
   * Write all of `bytes` after the writes before it: a pipe may take part
   * of a line, and two lines written at once must not interleave.
   */
  #write(bytes: Uint8Array): Promise<void> {
    const { output } = this.#options;
    if (this.#unsettled === 0 && bytes.length <= SYNC_WRITE_BYTES) {
      try {
        for (let at = 0; at < bytes.length;) {
          at += output.writeSync(bytes.subarray(at));
        }
        return Promise.resolve();
      } catch (error) {
        return Promise.reject(error);
      }
    }
    this.#unsettled++;
    const written = this.#writing.then(async () => {
      for (let at = 0; at < bytes.length;) {
        at += await output.write(bytes.subarray(at));
      }
    }).finally(() => this.#unsettled--);
    this.#writing = written.catch(() => {});
    return written;
  }

  async #pump(): Promise<void> {
    const { input } = this.#options;
    const buffer = new Uint8Array(READ_BYTES);
    try {
      for (;;) {
        const count = await input.read(buffer);
        if (count === null) break;
        // Held parts are copies (#append), so the buffer is free again.
        this.#feed(buffer.subarray(0, count));
      }
      // A last line without its newline is a message all the same.
      if (this.#size > 0 || this.#skipping !== undefined) this.#endLine();
    } catch (error) {
      if (!this.#closed) this.onerror?.(error as Error);
    } finally {
      this.#ended.resolve();
    }
  }

  #feed(chunk: Uint8Array): void {
    let start = 0;
    while (start < chunk.length) {
      const newline = chunk.indexOf(NEWLINE, start);
      const end = newline === -1 ? chunk.length : newline;
      this.#append(chunk.subarray(start, end));
      if (newline === -1) return;
      this.#endLine();
      start = newline + 1;
    }
  }

  #append(bytes: Uint8Array): void {
    if (bytes.length === 0) return;
    if (this.#skipping !== undefined) {
      this.#skipping.scan(bytes);
      return;
    }
    if (this.#size + bytes.length <= this.#options.maxLineBytes) {
      this.#parts.push(bytes.slice());
      this.#size += bytes.length;
      return;
    }
    // Over the cap: drop what is held, and only look for the line's id.
    const scanner = new LineIdScanner();
    for (const part of this.#parts) scanner.scan(part);
    scanner.scan(bytes);
    this.#skipping = scanner;
    this.#parts = [];
    this.#size = 0;
  }

  #endLine(): void {
    const skipped = this.#skipping;
    const parts = this.#parts;
    this.#skipping = undefined;
    this.#parts = [];
    this.#size = 0;
    if (skipped !== undefined) {
      const { maxLineBytes } = this.#options;
      this.#refuse(
        skipped.requestId(),
        -32600,
        `Cannot read the message as its line is ${skipped.bytes} bytes, over the limit of ${maxLineBytes} (RUSTPAD_MCP_MAX_MESSAGE_BYTES): send a smaller message; nothing was done`,
      );
      return;
    }
    const text = decoder.decode(concatBytes(parts)).replace(/\r$/, "");
    if (text.trim() === "") return;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      this.#refuse(
        null,
        -32700,
        "Cannot read the line as it is not JSON: send one JSON-RPC message per line",
      );
      return;
    }
    let message: JSONRPCMessage;
    try {
      message = parseJSONRPCMessage(value);
    } catch {
      const id = (value as { id?: unknown } | null)?.id;
      this.#refuse(
        typeof id === "string" || typeof id === "number" ? id : null,
        -32600,
        "Cannot read the line as it is not a JSON-RPC 2.0 message",
      );
      return;
    }
    this.onmessage?.(message);
  }

  /**
   * Report a line that cannot be served: on stderr always, and as a JSON-RPC
   * error unless it was a notification or an answer (`id` undefined).
   */
  #refuse(
    id: string | number | null | undefined,
    code: number,
    message: string,
  ): void {
    this.#options.log(`rustpad-mcp: skipped a stdio line: ${message}`);
    if (id === undefined) return;
    this.send(
      { jsonrpc: "2.0", id, error: { code, message } } as JSONRPCMessage,
    )
      .catch((error) => this.onerror?.(error as Error));
  }
}
