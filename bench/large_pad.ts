/**
 * Reads and edits on a big pad, against the raw HTTP floor, in one run: on
 * the compatible pad server, a pad of 200,000 code points with a
 * 10,000-edit history (the fixture of `replay.ts`), timed through an SDK
 * `Client` over the in-memory transport:
 *
 * - `GET /api/text/{id}` with `fetch` (the floor),
 * - a warm whole-pad `get_document`,
 * - a 2,000-line `read_lines`,
 * - a literal `search_document`,
 * - a 10-edit `edit_document` (skipped, with a note, if the tool is missing).
 *
 * Each prints its median and its ratio to the floor; the target is 3x. The
 * in-memory transport hands objects over as they are; every message is
 * also put through `JSON.stringify` and `JSON.parse`, as stdio and HTTP
 * transports do, so encoding a big result is part of the time.
 *
 * Run: `deno run -A bench/large_pad.ts [iterations] [--profile]`;
 * `--profile` adds where the time goes, piece by piece.
 *
 * @module
 */

// @ts-types="@modelcontextprotocol/sdk/client/index"
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
// @ts-types="@modelcontextprotocol/sdk/inMemory"
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
// @ts-types="@modelcontextprotocol/sdk/types"
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { loadConfig } from "../src/config/config.ts";
import { createServer } from "../src/mcp/server.ts";
import { codePointLength } from "../src/ot/code_points.ts";
import { readLines } from "../src/text/lines.ts";
import { searchText } from "../src/text/search.ts";
import { startPadServer } from "../src/testing/mod.ts";
import { fenceUntrusted } from "../src/safety/untrusted.ts";
import { DOCUMENT_LENGTH, EDIT_COUNT, replayFixture } from "./replay.ts";

/** The most a tool call may take, as a multiple of the raw read. */
export const TARGET_RATIO = 3;

const PAD = "bench-large";

/**
 * Load the fixture into pad `PAD` through a raw socket: the document as
 * revision 1, then every edit of the history, each its own revision.
 */
async function buildPad(url: string): Promise<number> {
  const { document, operations } = replayFixture();
  const socket = new WebSocket(
    `${url.replace(/^http/, "ws")}/api/socket/${PAD}`,
  );
  const target = operations.length + 1;
  const done = Promise.withResolvers<void>();
  socket.onmessage = (event) => {
    const message = JSON.parse(event.data);
    if (!message.History) return;
    const revision = message.History.start + message.History.operations.length;
    if (revision >= target) done.resolve();
  };
  socket.onerror = () => done.reject(new Error("Cannot build the pad"));
  await new Promise((resolve) => socket.onopen = resolve);
  socket.send(JSON.stringify({ Edit: { revision: 0, operation: [document] } }));
  operations.forEach((operation, i) => {
    socket.send(JSON.stringify({
      Edit: { revision: i + 1, operation: operation.toJSON() },
    }));
  });
  await done.promise;
  const closed = new Promise((resolve) => socket.onclose = resolve);
  socket.close();
  await closed;
  return target;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

async function time(
  iterations: number,
  run: (i: number) => Promise<unknown>,
): Promise<number[]> {
  for (let i = 0; i < 3; i++) await run(-1 - i); // Warm up.
  const times: number[] = [];
  for (let i = 0; i < iterations; i++) {
    const started = performance.now();
    await run(i);
    times.push(performance.now() - started);
  }
  return times;
}

async function main(iterations: number, profile: boolean): Promise<void> {
  await using pads = await startPadServer();
  const revision = await buildPad(pads.url);
  const server = createServer(loadConfig({ RUSTPAD_URL: pads.url }));
  const client = new Client({ name: "bench", version: "1.0.0" });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  for (const side of [clientSide, serverSide]) {
    const send = side.send.bind(side);
    side.send = (message, options) =>
      send(JSON.parse(JSON.stringify(message)), options);
  }
  await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
  const tools = new Set((await client.listTools()).tools.map((t) => t.name));
  const call = async (name: string, args: Record<string, unknown>) => {
    const result = await client.callTool({
      name,
      arguments: args,
    }) as CallToolResult;
    if (result.isError) {
      throw new Error(`${name} failed: ${JSON.stringify(result.content)}`);
    }
    return result;
  };
  const textUrl = `${pads.url}/api/text/${PAD}`;
  const text = await (await fetch(textUrl)).text();
  const lines = text.split("\n").length;
  console.log(
    `Pad of ${DOCUMENT_LENGTH} code points after ${EDIT_COUNT} edits (revision ${revision}, ${text.length} UTF-16 units, ${lines} lines); ${iterations} timed calls each; target ${TARGET_RATIO}x the floor`,
  );
  const rows: [string, number[] | string][] = [];
  rows.push([
    "GET /api/text (floor)",
    await time(iterations, async () => await (await fetch(textUrl)).text()),
  ]);
  rows.push([
    "get_document, whole pad",
    await time(iterations, () => call("get_document", { id: PAD })),
  ]);
  rows.push([
    "read_lines, 2000 lines",
    await time(
      iterations,
      () => call("read_lines", { id: PAD, start_line: 1, line_count: 2000 }),
    ),
  ]);
  rows.push([
    "search_document, literal",
    await time(
      iterations,
      () => call("search_document", { id: PAD, pattern: "ab" }),
    ),
  ]);
  if (tools.has("edit_document")) {
    rows.push([
      "edit_document, 10 edits",
      await time(iterations, (i) =>
        call("edit_document", {
          id: PAD,
          edits: Array.from({ length: 10 }, (_, n) => ({
            start_line: 1 + 200 * n,
            end_line: 1 + 200 * n,
            new_string: `bench ${i} edit ${n}`,
          })),
        })),
    ]);
  } else {
    rows.push(["edit_document, 10 edits", "skipped: no such tool yet"]);
  }
  const sample = await call("get_document", { id: PAD });
  await client.close();
  await server.close();
  const floor = median(rows[0]![1] as number[]);
  for (const [name, values] of rows) {
    if (typeof values === "string") {
      console.log(`${name.padEnd(28)} ${values}`);
      continue;
    }
    const ratio = median(values) / floor;
    console.log(
      `${name.padEnd(28)} median ${
        median(values).toFixed(2).padStart(7)
      } ms  ratio ${ratio.toFixed(2).padStart(5)}  ${
        ratio <= TARGET_RATIO ? "within" : "OVER"
      } target`,
    );
  }
  if (profile) breakdown(text, sample, iterations);
}

function timeSync(iterations: number, run: () => unknown): number {
  for (let i = 0; i < 3; i++) run();
  const times: number[] = [];
  for (let i = 0; i < iterations; i++) {
    const started = performance.now();
    run();
    times.push(performance.now() - started);
  }
  return median(times);
}

/** Where the time goes, piece by piece, in process. */
function breakdown(
  text: string,
  sample: CallToolResult,
  iterations: number,
): void {
  const message = { jsonrpc: "2.0", id: 1, result: sample };
  const encoded = JSON.stringify(message);
  const rows: [string, () => unknown][] = [
    ["JSON.stringify, get_document reply", () => JSON.stringify(message)],
    ["JSON.parse, get_document reply", () => JSON.parse(encoded)],
    ["fenceUntrusted, whole pad", () => fenceUntrusted(text, { source: "p" })],
    ["toLowerCase, whole pad (old fence)", () => text.toLowerCase()],
    ["codePointLength, whole pad", () => codePointLength(text)],
    ["readLines, 2000 lines", () => readLines(text, 1, 2000)],
    ["searchText, literal", () => searchText(text, "ab")],
  ];
  console.log(
    `Breakdown (median of ${iterations}; reply is ${encoded.length} characters):`,
  );
  for (const [name, run] of rows) {
    console.log(
      `  ${name.padEnd(36)} ${
        timeSync(iterations, run).toFixed(3).padStart(7)
      } ms`,
    );
  }
}

if (import.meta.main) {
  await main(
    Number(Deno.args.find((arg) => /^\d+$/.test(arg)) ?? "30"),
    Deno.args.includes("--profile"),
  );
}
