/**
 * Idle connections against `mod.ts --http`: 10,000 TCP connections that
 * each send half a request line and then nothing (re-opened a second after
 * the server closes them, as an attacker would), while one SDK client calls
 * a tool and a fresh connection asks `/healthz` every second. Prints, once
 * a second: the connections the client holds, the descriptors the server
 * has open (/proc/<pid>/fd), its resident memory, and the latency of
 * `/healthz` and of the tool call; then a summary, and checks that every
 * append landed.
 *
 * 10,000 connections need a raised descriptor limit on both sides: run the
 * script under `ulimit -n` (30000, or as high as the hard limit allows), and
 * it starts the server under the same limit (or `--file-limit F`):
 *
 * ```sh
 * bash -c 'ulimit -n 30000 && deno run -A bench/idle_connections.ts'
 * bash -c 'ulimit -n 30000 && deno run -A bench/idle_connections.ts --max-connections 1024'
 * ```
 *
 * Flags: `--connections N` (10000), `--seconds S` (25), `--max-connections
 * M` (RUSTPAD_MCP_MAX_CONNECTIONS for the server, 12000), `--file-limit F`
 * (the server's ulimit -n; this process's by default).
 *
 * @module
 */

import { parseArgs } from "node:util";
// @ts-types="@modelcontextprotocol/sdk/client/index"
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
// @ts-types="@modelcontextprotocol/sdk/client/streamableHttp"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
// @ts-types="@modelcontextprotocol/sdk/types"
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { startPadServer } from "../src/testing/mod.ts";

const MOD = new URL("../mod.ts", import.meta.url).pathname;
const flags = parseArgs({
  args: Deno.args,
  options: {
    connections: { type: "string", default: "10000" },
    seconds: { type: "string", default: "25" },
    "max-connections": { type: "string", default: "12000" },
    "file-limit": { type: "string" },
  },
}).values;
const CONNECTIONS = Number(flags.connections);
const SECONDS = Number(flags.seconds);
const MAX_CONNECTIONS = Number(flags["max-connections"]);
const FILE_LIMIT = Number(flags["file-limit"] ?? ownFileLimit());
const REOPEN_MS = 1000;

function ownFileLimit(): number {
  const limits = Deno.readTextFileSync("/proc/self/limits");
  return Number(/^Max open files\s+(\d+)/m.exec(limits)?.[1] ?? 0);
}

if (ownFileLimit() < CONNECTIONS + 200) {
  console.error(
    `This process may open ${ownFileLimit()} files, too few for ${CONNECTIONS} connections: run it as bash -c 'ulimit -n 30000 && deno run -A bench/idle_connections.ts'`,
  );
  Deno.exit(1);
}

/** Start the server under `ulimit -n`; its URL and pid. */
async function startServer(rustpadUrl: string) {
  const child = new Deno.Command("bash", {
    args: [
      "-c",
      `ulimit -n ${FILE_LIMIT} && exec "$@"`,
      "-",
      Deno.execPath(),
      "run",
      "-A",
      MOD,
      "--http",
      "127.0.0.1:0",
    ],
    env: {
      RUSTPAD_URL: rustpadUrl,
      RUSTPAD_MCP_MAX_CONNECTIONS: String(MAX_CONNECTIONS),
      NO_COLOR: "1",
    },
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).spawn();
  let text = "";
  const lines: string[] = [];
  const found = Promise.withResolvers<URL>();
  const reading = (async () => {
    for await (
      const chunk of child.stderr.pipeThrough(new TextDecoderStream())
    ) {
      text += chunk;
      const match = /serving MCP over HTTP at (http:\/\/\S+\/mcp)/.exec(text);
      if (match?.[1]) found.resolve(new URL(match[1]));
      for (const line of chunk.split("\n")) {
        if (line !== "" && !line.startsWith("rustpad-mcp http:")) {
          lines.push(line);
        }
      }
    }
    found.reject(new Error(`The server exited:\n${text}`));
  })();
  return { child, url: await found.promise, notices: lines, reading };
}

/** Keeps `count` idle half-request connections open, re-opening closed ones. */
class IdleHolder {
  open = 0;
  closedByServer = 0;
  connectErrors = 0;
  #running = true;
  #conns = new Set<Deno.Conn>();
  readonly #tasks: Promise<void>[] = [];

  constructor(readonly port: number, count: number) {
    for (let i = 0; i < count; i++) this.#tasks.push(this.#keep(i));
  }

  async #keep(index: number): Promise<void> {
    // Spread the first connects over the first second.
    await sleep((index % 1000) + Math.floor(index / 1000));
    while (this.#running) {
      let conn: Deno.Conn;
      try {
        conn = await Deno.connect({ hostname: "127.0.0.1", port: this.port });
      } catch {
        this.connectErrors++;
        await sleep(REOPEN_MS);
        continue;
      }
      this.#conns.add(conn);
      this.open++;
      try {
        await conn.write(new TextEncoder().encode("GET /healthz HT"));
        const buffer = new Uint8Array(512);
        while (await conn.read(buffer) !== null);
      } catch {
        // Reset by the server, or closed by stop().
      }
      this.open--;
      this.#conns.delete(conn);
      try {
        conn.close();
      } catch {
        // Already closed.
      }
      if (this.#running) this.closedByServer++;
      await sleep(REOPEN_MS);
    }
  }

  async stop(): Promise<void> {
    this.#running = false;
    for (const conn of this.#conns) {
      try {
        conn.close();
      } catch {
        // Already closed.
      }
    }
    await Promise.all(this.#tasks);
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function serverFds(pid: number): number {
  let count = 0;
  for (const _ of Deno.readDirSync(`/proc/${pid}/fd`)) count++;
  return count;
}

function residentMiB(pid: number): number {
  const status = Deno.readTextFileSync(`/proc/${pid}/status`);
  return Number(/^VmRSS:\s+(\d+) kB/m.exec(status)?.[1]) / 1024;
}

/** GET /healthz on a fresh connection; its latency in ms, or the failure. */
async function healthz(port: number): Promise<number | string> {
  const started = performance.now();
  let conn: Deno.Conn;
  try {
    conn = await Deno.connect({ hostname: "127.0.0.1", port });
  } catch (error) {
    return (error as Error).message;
  }
  try {
    await conn.write(
      new TextEncoder().encode(
        `GET /healthz HTTP/1.1\r\nhost: 127.0.0.1:${port}\r\nconnection: close\r\n\r\n`,
      ),
    );
    let text = "";
    const buffer = new Uint8Array(4096);
    for (
      let n = await conn.read(buffer);
      n !== null;
      n = await conn.read(buffer)
    ) {
      text += new TextDecoder().decode(buffer.subarray(0, n));
    }
    if (!text.startsWith("HTTP/1.1 200")) {
      return text === "" ? "closed unanswered" : text.slice(0, 12);
    }
    return performance.now() - started;
  } catch (error) {
    return (error as Error).message;
  } finally {
    try {
      conn.close();
    } catch {
      // Already closed.
    }
  }
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ??
    NaN;
}

await using pads = await startPadServer();
const server = await startServer(pads.url);
const port = Number(server.url.port);
const pid = server.child.pid;
const transport = new StreamableHTTPClientTransport(server.url);
const client = new Client({ name: "idle-bench", version: "1.0.0" });
await client.connect(transport);

console.log(
  `server pid ${pid}, RUSTPAD_MCP_MAX_CONNECTIONS=${MAX_CONNECTIONS}, ulimit -n ${FILE_LIMIT}; ${CONNECTIONS} idle connections for ${SECONDS} s`,
);
console.log(
  `baseline: server fds ${serverFds(pid)}, RSS ${
    residentMiB(pid).toFixed(1)
  } MiB`,
);
console.log(
  "t(s)  client-held  server-fds  server-RSS(MiB)  healthz(ms)  tool(ms)",
);
const holder = new IdleHolder(port, CONNECTIONS);
const healthLatencies: number[] = [];
const toolLatencies: number[] = [];
const healthFailures: string[] = [];
let appends = 0;
let peakFds = 0;
let peakRss = 0;
let peakHeld = 0;
const started = performance.now();
for (let second = 1; second <= SECONDS; second++) {
  await sleep(Math.max(0, started + second * 1000 - performance.now()));
  const health = await healthz(port);
  const toolStarted = performance.now();
  const result = await client.callTool({
    name: "append_to_document",
    arguments: { id: "idle-bench", text: `[${second}]` },
  }) as CallToolResult;
  const tool = performance.now() - toolStarted;
  if (result.isError) throw new Error(JSON.stringify(result.content));
  appends++;
  toolLatencies.push(tool);
  if (typeof health === "number") healthLatencies.push(health);
  else healthFailures.push(health);
  const fds = serverFds(pid);
  const rss = residentMiB(pid);
  peakFds = Math.max(peakFds, fds);
  peakRss = Math.max(peakRss, rss);
  peakHeld = Math.max(peakHeld, holder.open);
  console.log(
    `${String(second).padStart(4)}  ${String(holder.open).padStart(11)}  ${
      String(fds).padStart(10)
    }  ${rss.toFixed(1).padStart(15)}  ${
      (typeof health === "number" ? health.toFixed(1) : health).padStart(11)
    }  ${tool.toFixed(1).padStart(8)}`,
  );
}
await holder.stop();
await sleep(500);
const text = pads.text("idle-bench");
let landed = 0;
for (let second = 1; second <= SECONDS; second++) {
  if (text.includes(`[${second}]`)) landed++;
}
console.log(
  `summary: client held up to ${peakHeld} (server closed ${holder.closedByServer}, connect errors ${holder.connectErrors}); server fds peak ${peakFds}, RSS peak ${
    peakRss.toFixed(1)
  } MiB; healthz ok ${healthLatencies.length}/${SECONDS} p50 ${
    percentile(healthLatencies, 0.5).toFixed(1)
  } ms max ${Math.max(...healthLatencies).toFixed(1)} ms${
    healthFailures.length
      ? ` (failures: ${[...new Set(healthFailures)].join("; ")})`
      : ""
  }; tool call p50 ${percentile(toolLatencies, 0.5).toFixed(1)} ms max ${
    Math.max(...toolLatencies).toFixed(1)
  } ms; appends landed ${landed}/${appends}`,
);
console.log(`server notices:\n  ${server.notices.join("\n  ")}`);
await transport.terminateSession().catch(() => {});
await client.close();
server.child.kill("SIGTERM");
await server.child.status;
await server.reading;
