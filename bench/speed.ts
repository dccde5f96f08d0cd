/**
 * Every speed target of the server in one run, each as a ratio to a floor
 * measured in the same run that does not flatter us:
 *
 * - the compatible pad server against a bare `Deno.serve` (`GET` of the
 *   same text, a WebSocket echo), so a bench on it measures us, not it;
 * - a warm `append_to_document` against an MCP `ping` plus a raw socket's
 *   edit round trip, on a small pad and on the busy one;
 * - whole `get_document`, a 2,000-line `read_lines`, literal and regex
 *   `search_document` and a 10-edit `edit_document` on the busy pad against
 *   a bare `GET` of its text, and `get_document` against a bare relay of
 *   `GET /api/text` through the SDK (what a server that only relays does);
 * - the first call on the busy pad (connect, fold the history, answer)
 *   against a raw socket's connect-and-history;
 * - 100 concurrent appends over one client against 100 edits pipelined on
 *   one raw socket, each checked to land exactly once.
 *
 * The busy pad has 200,000 code points and a 10,000-edit history (the
 * fixture of `replay.ts`). Every process is its own, as in production: the
 * pad server, the bare floor server, the MCP server and the relay, each
 * spoken to over stdio or loopback by this one.
 *
 * Run: `deno run -A bench/speed.ts [--quick]` (`deno task bench` runs it
 * after the micro benchmarks). Exit code 1 if a target is missed.
 *
 * @module
 */

// @ts-types="@modelcontextprotocol/sdk/client/index"
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
// @ts-types="@modelcontextprotocol/sdk/client/stdio"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { DOCUMENT_LENGTH, EDIT_COUNT, replayFixture } from "./replay.ts";
import { RawSocket } from "./_raw_socket.ts";

const ROOT = new URL("../", import.meta.url).pathname;
const QUICK = Deno.args.includes("--quick");
const BUSY = "bench-busy";

/** A child process that prints its URL on its first line of stdout. */
async function spawnServer(
  args: string[],
): Promise<{ url: string; child: Deno.ChildProcess }> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", ...args],
    stdout: "piped",
    stderr: "null",
  }).spawn();
  const reader = child.stdout.pipeThrough(new TextDecoderStream())
    .getReader();
  let output = "";
  while (!output.includes("\n")) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`Cannot start ${args.join(" ")}`);
    output += value;
  }
  reader.releaseLock();
  const url = output.match(/http:\/\/[^\s]+/)?.[0];
  if (url === undefined) throw new Error(`No URL from ${args.join(" ")}`);
  return { url: url.replace(/\/$/, ""), child };
}

/** An SDK client over stdio to `script` (mod.ts or the relay). */
async function stdioClient(
  script: string,
  rustpadUrl: string,
  args: string[] = [],
): Promise<Client> {
  const transport = new StdioClientTransport({
    command: Deno.execPath(),
    args: ["run", "-A", `${ROOT}${script}`, ...args],
    env: {
      ...Deno.env.toObject(),
      RUSTPAD_URL: rustpadUrl,
      RUSTPAD_CONFIRM: "never",
    },
    stderr: "ignore",
  });
  const client = new Client({ name: "bench", version: "1.0.0" });
  await client.connect(transport);
  return client;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/** The median time of `runs` calls of `task`, after `warm` unmeasured. */
async function timed(
  runs: number,
  task: (i: number) => Promise<unknown>,
  warm = 3,
): Promise<number> {
  for (let i = 0; i < warm; i++) await task(-1 - i);
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    await task(i);
    times.push(performance.now() - start);
  }
  return median(times);
}

interface Row {
  what: string;
  ms: number;
  floor: string;
  floorMs: number;
  target: number;
}

const rows: Row[] = [];
const notes: string[] = [];

function row(
  what: string,
  ms: number,
  floor: string,
  floorMs: number,
  target: number,
): void {
  rows.push({ what, ms, floor, floorMs, target });
}

async function callTool(
  client: Client,
  name: string,
  args: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  const result = await client.callTool({ name, arguments: args });
  if (result.isError) {
    throw new Error(`${name} failed: ${JSON.stringify(result.content)}`);
  }
  return result.structuredContent as Record<string, unknown>;
}

// The fixture: the busy pad's text and history.
const fixture = replayFixture();
const pad = await spawnServer([`${ROOT}src/testing/pad_server.ts`]);
const busy = await RawSocket.open(pad.url, BUSY);
await busy.load(fixture.document, fixture.operations);
const busyText = await (await fetch(`${pad.url}/api/text/${BUSY}`)).text();
const textFile = await Deno.makeTempFile({ suffix: ".txt" });
await Deno.writeTextFile(textFile, busyText);
const bare = await spawnServer([`${ROOT}bench/_bare_server.ts`, textFile]);
const runs = QUICK ? 10 : 40;
const many = QUICK ? 50 : 300;

// 1. The compatible pad server against bare Deno.serve.
const bareGet = await timed(runs, async () => {
  await (await fetch(`${bare.url}/text`)).text();
});
const padGet = await timed(runs, async () => {
  await (await fetch(`${pad.url}/api/text/${BUSY}`)).text();
});
row("pad server GET /api/text (busy)", padGet, "bare GET", bareGet, 1.5);
const echo = await RawSocket.echo(bare.url);
const echoRtt = await timed(many, () => echo.roundTrip());
const small = await RawSocket.open(pad.url, "bench-small");
const smallRtt = await timed(many, () => small.append("x"));
row(
  "pad server edit round trip (small)",
  smallRtt,
  "bare WS echo",
  echoRtt,
  1.5,
);
const busyRtt = await timed(many, () => busy.append("x"));

// 2. The write path.
const mcp = await stdioClient("mod.ts", pad.url);
const ping = await timed(many, () => mcp.ping());
const appendSmall = await timed(
  many,
  () =>
    callTool(mcp, "append_to_document", {
      id: "bench-append",
      text: "a line\n",
    }),
);
row(
  "append_to_document, small pad",
  appendSmall,
  "ping + raw edit",
  ping + smallRtt,
  1.5,
);
const appendBusy = await timed(
  many,
  () => callTool(mcp, "append_to_document", { id: BUSY, text: "a line\n" }),
);
row(
  "append_to_document, busy pad",
  appendBusy,
  "ping + raw edit (busy)",
  ping + busyRtt,
  1.5,
);

// 3. Big-pad calls against the bare GET of the same text.
const read = await callTool(mcp, "get_document", { id: BUSY });
const getDocument = await timed(
  runs,
  () => callTool(mcp, "get_document", { id: BUSY }),
);
row("get_document, whole busy pad", getDocument, "bare GET", bareGet, 2);
const readLines = await timed(
  runs,
  () => callTool(mcp, "read_lines", { id: BUSY, start_line: 1 }),
);
row("read_lines, 2,000 lines", readLines, "bare GET", bareGet, 2);
const literal = await timed(
  runs,
  () => callTool(mcp, "search_document", { id: BUSY, pattern: "needle" }),
);
row("search_document, literal", literal, "bare GET", bareGet, 2);
const regex = await timed(
  runs,
  () =>
    callTool(mcp, "search_document", {
      id: BUSY,
      pattern: "ne+dle|[0-9]{4}x",
      regex: true,
    }),
);
row("search_document, regex, no match", regex, "bare GET", bareGet, 10);
let regexMatches = 0;
const regexFound = await timed(runs, async () => {
  const found = await callTool(mcp, "search_document", {
    id: BUSY,
    pattern: "ab+c|é😀",
    regex: true,
  });
  regexMatches = found.total_matches as number;
});
row("search_document, regex, matches", regexFound, "bare GET", bareGet, 10);
const lines = String(read.text).split("\n");
const edit = await timed(runs, async (i) => {
  const edits = Array.from({ length: 10 }, (_, k) => ({
    start_line: 1 + k * 50,
    end_line: k * 50,
    new_string: `edit ${i} ${k}`,
  }));
  await callTool(mcp, "edit_document", { id: BUSY, edits });
});
notes.push(`the busy pad has ${lines.length} lines`);
notes.push(`the matching regex finds ${regexMatches} matches`);
row("edit_document, 10 line edits", edit, "bare GET", bareGet, 2);
const relay = await stdioClient("bench/_relay_server.ts", pad.url);
const relayed = await timed(
  runs,
  () => relay.callTool({ name: "get_document", arguments: { id: BUSY } }),
);
row(
  "get_document, whole busy pad",
  getDocument,
  "SDK relay of GET",
  relayed,
  1,
);
const relayTwice = await stdioClient("bench/_relay_server.ts", pad.url, [
  "--twice",
]);
const relayedTwice = await timed(
  runs,
  () => relayTwice.callTool({ name: "get_document", arguments: { id: BUSY } }),
);
row(
  "get_document, whole busy pad",
  getDocument,
  "relay, text in both",
  relayedTwice,
  1,
);

// 4. The first call on the busy pad.
const rawCold = await timed(QUICK ? 3 : 5, async () => {
  const socket = await RawSocket.open(pad.url, BUSY);
  socket.close();
}, 1);
const coldTimes: number[] = [];
for (let i = 0; i < (QUICK ? 3 : 5); i++) {
  const fresh = await stdioClient("mod.ts", pad.url);
  await fresh.ping();
  const start = performance.now();
  await callTool(fresh, "get_document_info", { id: BUSY });
  coldTimes.push(performance.now() - start);
  await fresh.close();
}
row(
  "first call on the busy pad (cold)",
  median(coldTimes),
  "raw connect + history",
  rawCold,
  2,
);

// 5. 100 concurrent appends against 100 pipelined raw edits.
const pipelined = await timed(QUICK ? 3 : 5, async (i) => {
  const socket = await RawSocket.open(pad.url, `bench-pipe-${i + 10}`);
  await socket.pipeline(Array.from({ length: 100 }, (_, k) => `<${k}>`));
  socket.close();
}, 1);
let lost = 0;
let doubled = 0;
const concurrent = await timed(QUICK ? 3 : 5, async (i) => {
  const id = `bench-concurrent-${i + 10}`;
  const markers = Array.from({ length: 100 }, (_, k) => `<${k}>`);
  await Promise.all(
    markers.map((text) => callTool(mcp, "append_to_document", { id, text })),
  );
  const text = await (await fetch(`${pad.url}/api/text/${id}`)).text();
  for (const marker of markers) {
    const count = text.split(marker).length - 1;
    if (count === 0) lost++;
    if (count > 1) doubled++;
  }
}, 1);
row(
  "100 concurrent appends, one client",
  concurrent,
  "100 pipelined raw edits",
  pipelined,
  20,
);
notes.push(`concurrent appends: ${lost} lost, ${doubled} doubled`);

await relay.close();
await relayTwice.close();
await mcp.close();
small.close();
busy.close();
echo.close();
for (const server of [pad, bare]) {
  server.child.kill();
  await server.child.status;
}
await Deno.remove(textFile);

console.log(
  `Busy pad: ${DOCUMENT_LENGTH.toLocaleString("en")} code points, ${
    EDIT_COUNT.toLocaleString("en")
  }-edit history; ${notes.join("; ")}.`,
);
console.log(
  `Floors: ping ${ping.toFixed(2)} ms, raw edit ${
    smallRtt.toFixed(2)
  } ms (busy ${busyRtt.toFixed(2)} ms), bare GET ${
    bareGet.toFixed(2)
  } ms, WS echo ${echoRtt.toFixed(2)} ms.`,
);
let missed = 0;
const width = Math.max(...rows.map((r) => r.what.length));
const floorWidth = Math.max(...rows.map((r) => r.floor.length));
for (const r of rows) {
  const ratio = r.ms / r.floorMs;
  const ok = ratio <= r.target;
  if (!ok) missed++;
  console.log(
    `${r.what.padEnd(width)}  ${r.ms.toFixed(2).padStart(8)} ms  / ${
      r.floor.padEnd(floorWidth)
    } ${r.floorMs.toFixed(2).padStart(8)} ms  = ${
      ratio.toFixed(2).padStart(5)
    }x  (target ${r.target}x) ${ok ? "ok" : "MISSED"}`,
  );
}
if (lost > 0 || doubled > 0) missed++;
Deno.exit(missed === 0 ? 0 : 1);
