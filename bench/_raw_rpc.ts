// The in-server floor of bench/speed.ts: JSON-RPC over a child's stdio with
// nothing of the SDK's client in between. A call's time runs from the
// request written to the last byte of its answer line read; the line is
// parsed only after the clock stops, to check it. This is how the SDK
// client's own costs (its read buffer rescans the whole line for every
// 64 KiB chunk, which grows with the square of the answer) are kept out of
// the figures that measure the server. BENCH_DENO_FLAGS, if set, is passed
// to the child's `deno run` (such as "--cpu-prof --cpu-prof-dir=/tmp/prof",
// to see where a call's time goes); BENCH_STDERR, if set, shows the child's
// stderr, which is otherwise dropped.

const NEWLINE = 10;
/**
 * The per-request `_meta` envelope of the 2026-07-28 era, as the v2 client
 * sends it.
 */
const MODERN_META = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientInfo": { name: "bench", version: "1.0.0" },
  "io.modelcontextprotocol/clientCapabilities": {},
};
const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** A JSON-RPC peer over one child process's stdin and stdout. */
export class RawRpc {
  readonly #child: Deno.ChildProcess;
  readonly #writer: WritableStreamDefaultWriter<Uint8Array>;
  readonly #reader: ReadableStreamDefaultReader<Uint8Array>;
  readonly #modern: boolean;
  #pending: Uint8Array[] = [];
  #id = 0;

  private constructor(child: Deno.ChildProcess, modern: boolean) {
    this.#child = child;
    this.#modern = modern;
    this.#writer = child.stdin.getWriter();
    this.#reader = child.stdout.getReader();
  }

  /**
   * Start `script` with `env` and complete the MCP handshake: `initialize`
   * (the 2025 era), or with `modern` `server/discover`, every request then
   * carrying the 2026-07-28 `_meta` envelope.
   */
  static async start(
    script: string,
    env: Record<string, string>,
    args: string[] = [],
    modern = false,
  ): Promise<RawRpc> {
    const child = new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "-A",
        ...(Deno.env.get("BENCH_DENO_FLAGS")?.split(" ").filter(Boolean) ?? []),
        script,
        ...args,
      ],
      env,
      stdin: "piped",
      stdout: "piped",
      stderr: Deno.env.get("BENCH_STDERR") ? "inherit" : "null",
    }).spawn();
    const rpc = new RawRpc(child, modern);
    if (modern) {
      await rpc.call("server/discover", {});
      return rpc;
    }
    await rpc.call("initialize", {
      protocolVersion: "2025-06-18",
      capabilities: {},
      clientInfo: { name: "bench", version: "1.0.0" },
    });
    await rpc.#write({ jsonrpc: "2.0", method: "notifications/initialized" });
    return rpc;
  }

  /** Call `method` and return its result; throw on a JSON-RPC error. */
  async call(method: string, params: unknown): Promise<unknown> {
    const id = ++this.#id;
    await this.#write({
      jsonrpc: "2.0",
      id,
      method,
      params: this.#params(params),
    });
    for (;;) {
      const message = JSON.parse(decoder.decode(await this.#line()));
      if (message.id !== id) continue; // a notification
      if (message.error) throw new Error(JSON.stringify(message.error));
      return message.result;
    }
  }

  /**
   * Time one `tools/call`: from the request written to its answer's last
   * byte read, in milliseconds. Throws if the tool answered an error.
   */
  async timeTool(name: string, args: unknown): Promise<number> {
    const id = ++this.#id;
    const start = performance.now();
    await this.#write({
      jsonrpc: "2.0",
      id,
      method: "tools/call",
      params: this.#params({ name, arguments: args }),
    });
    for (;;) {
      const line = await this.#line();
      const ms = performance.now() - start;
      const message = JSON.parse(decoder.decode(line));
      if (message.id !== id) continue;
      if (message.error || message.result?.isError) {
        throw new Error(`${name} failed: ${decoder.decode(line)}`);
      }
      return ms;
    }
  }

  /** Close stdin, and stop the child if it does not exit by itself. */
  async close(): Promise<void> {
    await this.#writer.close().catch(() => {});
    await this.#reader.cancel().catch(() => {});
    const timer = setTimeout(() => this.#child.kill(), 2000);
    await this.#child.status;
    clearTimeout(timer);
  }

  /** `params` with the 2026-era envelope, when this peer speaks that era. */
  #params(params: unknown): unknown {
    return this.#modern
      ? { ...params as Record<string, unknown>, _meta: MODERN_META }
      : params;
  }

  #write(message: unknown): Promise<void> {
    return this.#writer.write(encoder.encode(`${JSON.stringify(message)}\n`));
  }

  /** The next line's bytes: each chunk is searched once, for its newline. */
  async #line(): Promise<Uint8Array> {
    for (;;) {
      const last = this.#pending.at(-1);
      const newline = last?.indexOf(NEWLINE) ?? -1;
      if (last !== undefined && newline !== -1) {
        const parts = this.#pending;
        parts[parts.length - 1] = last.subarray(0, newline);
        this.#pending = newline + 1 < last.length
          ? [last.subarray(newline + 1)]
          : [];
        return concat(parts);
      }
      const { value, done } = await this.#reader.read();
      if (done) throw new Error("Cannot read an answer: the server exited");
      this.#pending.push(value);
    }
  }
}

function concat(parts: Uint8Array[]): Uint8Array {
  if (parts.length === 1) return parts[0]!;
  const size = parts.reduce((sum, part) => sum + part.length, 0);
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const part of parts) {
    bytes.set(part, offset);
    offset += part.length;
  }
  return bytes;
}
