/**
 * One team on one server: 50 MCP clients at once over Streamable HTTP, each
 * appending 10 marked lines to one of 5 pads on the compatible server, then
 * a check that every append landed exactly once. The same 500 appends then
 * go over stdio (one client, 50 calls in flight at a time: stdio has one
 * client per process) for comparison. Prints p50 and p99 call latency for
 * both.
 *
 * Run with `deno run -A bench/http.ts`.
 *
 * @module
 */

// @ts-types="@modelcontextprotocol/sdk/client/index"
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
// @ts-types="@modelcontextprotocol/sdk/client/stdio"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
// @ts-types="@modelcontextprotocol/sdk/client/streamableHttp"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
// @ts-types="@modelcontextprotocol/sdk/types"
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { startPadServer } from "../src/testing/mod.ts";

const CLIENTS = 50;
const PADS = 5;
const APPENDS_PER_CLIENT = 10;
const MOD = new URL("../mod.ts", import.meta.url).pathname;

/** Make `client`'s appends, timing each; throws on an error result. */
async function appendAll(
  client: Client,
  index: number,
  prefix: string,
  latencies: number[],
): Promise<void> {
  for (let k = 0; k < APPENDS_PER_CLIENT; k++) {
    const started = performance.now();
    const result = await client.callTool({
      name: "append_to_document",
      arguments: {
        id: `${prefix}-${index % PADS}`,
        text: `[${prefix} c${index} a${k}]\n`,
      },
    }) as CallToolResult;
    latencies.push(performance.now() - started);
    if (result.isError) {
      throw new Error(`Append failed: ${JSON.stringify(result.content)}`);
    }
  }
}

/** Every marker exactly once in its pad, and nothing else. */
function verify(texts: (id: string) => string, prefix: string): void {
  for (let pad = 0; pad < PADS; pad++) {
    const text = texts(`${prefix}-${pad}`);
    let lines = 0;
    for (let index = pad; index < CLIENTS; index += PADS) {
      for (let k = 0; k < APPENDS_PER_CLIENT; k++) {
        const marker = `[${prefix} c${index} a${k}]\n`;
        const count = text.split(marker).length - 1;
        if (count !== 1) {
          throw new Error(`Append ${marker.trim()} landed ${count} times`);
        }
        lines++;
      }
    }
    if (text.split("\n").length - 1 !== lines) {
      throw new Error(`Pad ${prefix}-${pad} has lines nobody appended`);
    }
  }
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;
}

function report(name: string, latencies: number[], wallMs: number): void {
  const sorted = latencies.toSorted((a, b) => a - b);
  console.log(
    `${name.padEnd(6)} ${latencies.length} appends in ${
      wallMs.toFixed(0)
    } ms: p50 ${percentile(sorted, 0.5).toFixed(1)} ms, p99 ${
      percentile(sorted, 0.99).toFixed(1)
    } ms, all landed exactly once`,
  );
}

/** `mod.ts --http 127.0.0.1:0`; resolves with its URL once listening. */
async function spawnHttp(
  env: Record<string, string>,
): Promise<{ url: URL; stop: () => Promise<void> }> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", MOD, "--http", "127.0.0.1:0"],
    env,
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).spawn();
  const lines = child.stderr.pipeThrough(new TextDecoderStream()).getReader();
  let text = "";
  let url: URL | undefined;
  while (url === undefined) {
    const { value, done } = await lines.read();
    if (done) throw new Error(`The server did not start:\n${text}`);
    text += value;
    const match = /at (http:\/\/\S+\/mcp)/.exec(text);
    if (match?.[1]) url = new URL(match[1]);
  }
  // Drain the access log so the server never blocks on a full pipe.
  const draining = (async () => {
    while (!(await lines.read()).done) { /* access log */ }
  })();
  return {
    url,
    stop: async () => {
      child.kill("SIGTERM");
      await child.status;
      await draining;
    },
  };
}

async function overHttp(padsUrl: string): Promise<void> {
  const server = await spawnHttp({ RUSTPAD_URL: padsUrl });
  const clients = await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      const client = new Client({ name: "bench", version: "1.0.0" });
      await client.connect(new StreamableHTTPClientTransport(server.url));
      return client;
    }),
  );
  const latencies: number[] = [];
  const started = performance.now();
  await Promise.all(
    clients.map((client, index) => appendAll(client, index, "http", latencies)),
  );
  const wallMs = performance.now() - started;
  await Promise.all(clients.map((client) => client.close()));
  await server.stop();
  report("http", latencies, wallMs);
}

async function overStdio(padsUrl: string): Promise<void> {
  const client = new Client({ name: "bench", version: "1.0.0" });
  await client.connect(
    new StdioClientTransport({
      command: Deno.execPath(),
      args: ["run", "-A", MOD],
      env: { ...Deno.env.toObject(), RUSTPAD_URL: padsUrl },
      stderr: "ignore",
    }),
  );
  const latencies: number[] = [];
  const started = performance.now();
  await Promise.all(
    Array.from(
      { length: CLIENTS },
      (_, index) => appendAll(client, index, "stdio", latencies),
    ),
  );
  const wallMs = performance.now() - started;
  await client.close();
  report("stdio", latencies, wallMs);
}

if (import.meta.main) {
  await using pads = await startPadServer();
  console.log(
    `${CLIENTS} callers, ${PADS} pads, ${APPENDS_PER_CLIENT} appends each, on the compatible server`,
  );
  await overHttp(pads.url);
  verify((id) => pads.text(id), "http");
  await overStdio(pads.url);
  verify((id) => pads.text(id), "stdio");
}
