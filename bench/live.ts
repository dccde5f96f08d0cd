/**
 * How fast the agent hears a person, against the raw-socket floor, in one
 * run: for each of a series of single keystrokes by a person on the
 * compatible pad server, the time until
 *
 * - a bare WebSocket in the same pad receives it (the floor),
 * - the MCP client receives `notifications/resources/updated`,
 * - a pending `wait_for_change` returns to the MCP client.
 *
 * Keystrokes are spaced beyond the coalescing window, so each update is the
 * leading one. The target is 2x the floor plus the window (250 ms).
 *
 * Run: `deno run -A bench/live.ts [iterations]`.
 *
 * @module
 */

// @ts-types="@modelcontextprotocol/sdk/client/index"
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
// @ts-types="@modelcontextprotocol/sdk/inMemory"
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
// @ts-types="@modelcontextprotocol/sdk/types"
import { ResourceUpdatedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { loadConfig } from "../src/config/config.ts";
import { LivePads } from "../src/backend/live_pads.ts";
import { createServer } from "../src/mcp/server.ts";
import { startPadServer } from "../src/testing/mod.ts";

/** The coalescing window of resource updates, in milliseconds. */
export const WINDOW_MS = 250;

const PAD = "bench-live";

/** A raw socket in the pad: resolves `next()` at the next History frame. */
async function rawSocket(url: string): Promise<{
  socket: WebSocket;
  revision: () => number;
  next: () => Promise<number>;
  reach: (revision: number) => Promise<number>;
}> {
  const socket = new WebSocket(
    `${url.replace(/^http/, "ws")}/api/socket/${PAD}`,
  );
  let revision = 0;
  let waiter: ((at: number) => void) | undefined;
  let target: { revision: number; resolve: (at: number) => void } | undefined;
  socket.onmessage = (event) => {
    const message = JSON.parse(event.data);
    if (!message.History) return;
    revision = message.History.start + message.History.operations.length;
    const at = performance.now();
    waiter?.(at);
    waiter = undefined;
    if (target && revision >= target.revision) {
      target.resolve(at);
      target = undefined;
    }
  };
  await new Promise((resolve) => socket.onopen = resolve);
  await new Promise((resolve) => setTimeout(resolve, 50));
  return {
    socket,
    revision: () => revision,
    next: () => new Promise((resolve) => waiter = resolve),
    reach: (wanted) =>
      new Promise((resolve) => target = { revision: wanted, resolve }),
  };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

function p95(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.95))]!;
}

/** Print medians, p95s and ratios; the first row is the floor. */
function report(title: string, rows: [string, number[]][]): void {
  const floor = median(rows[0]![1]);
  const target = 2 * floor + WINDOW_MS;
  console.log(
    `${title}; target = 2 x floor + ${WINDOW_MS} ms window = ${
      target.toFixed(2)
    } ms`,
  );
  for (const [name, values] of rows) {
    console.log(
      `  ${name.padEnd(36)} median ${
        median(values).toFixed(2).padStart(7)
      } ms  p95 ${p95(values).toFixed(2).padStart(7)} ms  ratio to floor ${
        (median(values) / floor).toFixed(2).padStart(6)
      }  ${median(values) <= target ? "within" : "OVER"} target`,
    );
  }
}

async function main(iterations: number): Promise<void> {
  await using pads = await startPadServer();
  const server = createServer(loadConfig({ RUSTPAD_URL: pads.url }));
  const client = new Client({ name: "bench", version: "1.0.0" });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
  let updated: ((at: number) => void) | undefined;
  let lastUpdate = 0;
  client.setNotificationHandler(ResourceUpdatedNotificationSchema, () => {
    lastUpdate = performance.now();
    updated?.(lastUpdate);
    updated = undefined;
  });
  const person = await rawSocket(pads.url);
  const observer = await rawSocket(pads.url);
  await client.subscribeResource({ uri: `rustpad://pad/${PAD}` });
  const live = LivePads.of(server.backend.sessions);
  const raw: number[] = [];
  const notified: number[] = [];
  const waited: number[] = [];
  for (let i = 0; i < iterations; i++) {
    const revision = person.revision();
    const waiting = client.callTool({
      name: "wait_for_change",
      arguments: { id: PAD, since_revision: revision },
    }).then(() => performance.now());
    while (live.watchers(PAD) < 2) {
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
    const seen = observer.next();
    const update = new Promise<number>((resolve) => updated = resolve);
    const echoed = person.next();
    const started = performance.now();
    person.socket.send(JSON.stringify({
      Edit: { revision, operation: revision === 0 ? ["x"] : [revision, "x"] },
    }));
    raw.push(await seen - started);
    notified.push(await update - started);
    waited.push(await waiting - started);
    await echoed;
    await new Promise((resolve) => setTimeout(resolve, WINDOW_MS + 50));
  }
  // Bursts: ten keystrokes sent at once; the last update must follow the
  // last keystroke within the window, however many it coalesced.
  const trailing: number[] = [];
  const rawBurst: number[] = [];
  for (let i = 0; i < Math.max(5, iterations / 4); i++) {
    const revision = person.revision();
    const seen = observer.reach(revision + 10);
    let sent = 0;
    for (let k = 0; k < 10; k++) {
      person.socket.send(JSON.stringify({
        Edit: { revision, operation: revision === 0 ? ["y"] : ["y", revision] },
      }));
      sent = performance.now();
    }
    rawBurst.push(await seen - sent);
    await new Promise((resolve) => setTimeout(resolve, WINDOW_MS + 150));
    trailing.push(lastUpdate - sent);
  }
  await client.close();
  await server.close();
  person.socket.close();
  observer.socket.close();
  report(`${iterations} single keystrokes by a person`, [
    ["raw socket delivery (floor)", raw],
    ["notifications/resources/updated", notified],
    ["wait_for_change returning", waited],
  ]);
  report(`${trailing.length} bursts of 10 keystrokes sent at once`, [
    ["raw socket: last keystroke (floor)", rawBurst],
    ["last keystroke -> last update", trailing],
  ]);
  // Let closing sockets finish before the pad server stops.
  await new Promise((resolve) => setTimeout(resolve, 50));
}

if (import.meta.main) await main(Number(Deno.args[0] ?? "30"));
