/**
 * What the shared state in Redis costs a write: 200 appends with an
 * `idempotency_key` on a backend whose state is in memory, and 200 on one
 * whose state is in a real `redis-server` (started here on a loopback port,
 * without persistence), interleaved in one run, over the SDK's in-memory
 * transport against the compatible pad server. Prints the median and p90
 * of each and their difference, and the median of 200 bare Redis PINGs.
 *
 * Run with `deno run -A bench/state.ts` (needs `redis-server` on PATH).
 *
 * @module
 */

// @ts-types="@modelcontextprotocol/sdk/client/index"
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
// @ts-types="@modelcontextprotocol/sdk/inMemory"
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
// @ts-types="@modelcontextprotocol/sdk/types"
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { createClient } from "redis";
import { createBackend, createServer, loadConfig } from "../src/mod.ts";
import { openStateStore } from "../src/backend/open_state.ts";
import type { StateStore } from "../src/backend/state_store.ts";
import { startPadServer } from "../src/testing/mod.ts";

const CALLS = 200;

function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const { port } = listener.addr as Deno.NetAddr;
  listener.close();
  return port;
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;
}

const port = freePort();
const redis = new Deno.Command("redis-server", {
  args: [
    "--port",
    String(port),
    "--bind",
    "127.0.0.1",
    "--save",
    "",
    "--appendonly",
    "no",
  ],
  stdout: "null",
  stderr: "null",
}).spawn();
await using pads = await startPadServer();
const url = `redis://127.0.0.1:${port}/0`;
const config = loadConfig({ RUSTPAD_URL: pads.url });

async function client(state: StateStore) {
  const backend = createBackend(config, { state });
  const server = createServer(config, { backend });
  const mcp = new Client({ name: "bench", version: "1.0.0" });
  const [a, b] = InMemoryTransport.createLinkedPair();
  await Promise.all([server.connect(a), mcp.connect(b)]);
  return {
    mcp,
    async close() {
      await mcp.close();
      await server.close();
      await backend.close();
      await state.close();
    },
  };
}

let redisState: StateStore | undefined;
for (let attempt = 0; redisState === undefined; attempt++) {
  try {
    redisState = await openStateStore({
      url: new URL(url),
      timeoutMs: 1000,
      rustpadUrl: config.rustpadUrl,
    });
  } catch (error) {
    if (attempt > 20) throw error;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
const inMemory = await client(
  await openStateStore({ timeoutMs: 1000, rustpadUrl: config.rustpadUrl }),
);
const inRedis = await client(redisState);
const timings = { memory: [] as number[], redis: [] as number[] };
for (let i = 0; i < CALLS + 10; i++) {
  for (
    const [kind, agent] of [["memory", inMemory], ["redis", inRedis]] as const
  ) {
    const started = performance.now();
    const result = await agent.mcp.callTool({
      name: "append_to_document",
      arguments: { id: `bench-${kind}`, text: "x", idempotency_key: `k-${i}` },
    }) as CallToolResult;
    const took = performance.now() - started;
    if (result.isError) throw new Error(JSON.stringify(result.content));
    // The first calls open the pad: not counted.
    if (i >= 10) timings[kind].push(took);
  }
}
const ping = createClient({ url });
await ping.connect();
const pings: number[] = [];
for (let i = 0; i < CALLS; i++) {
  const started = performance.now();
  await ping.ping();
  pings.push(performance.now() - started);
}
await ping.close();
await inMemory.close();
await inRedis.close();
redis.kill("SIGKILL");
await redis.status;

const line = (name: string, values: number[]) =>
  `${name.padEnd(36)} median ${percentile(values, 0.5).toFixed(2)} ms, p90 ${
    percentile(values, 0.9).toFixed(2)
  } ms`;
console.log(`${CALLS} keyed appends each, interleaved, one run:`);
console.log(line("state in memory", timings.memory));
console.log(line("state in Redis", timings.redis));
console.log(
  `Redis adds ${
    (percentile(timings.redis, 0.5) - percentile(timings.memory, 0.5)).toFixed(
      2,
    )
  } ms to the median keyed write`,
);
console.log(line("one Redis PING round trip", pings));
