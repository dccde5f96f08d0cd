/**
 * Every speed target of the server in one run, each as a ratio to a floor
 * measured in the same run that does not flatter us:
 *
 * - a start (spawn, `initialize`, `tools/list`) against a bare v2 SDK
 *   stdio server on Deno with one trivial tool, and against
 *   ni-c/rustpad-mcp on Node (`_start_row.ts` says how to build it);
 * - the compatible pad server against a bare `Deno.serve` (`GET` of the
 *   same text, a WebSocket echo), so a bench on it measures us, not it;
 * - `append_to_document` against an MCP `ping` plus a raw socket's edit
 *   round trip (small and busy pads), and against a bare SDK tool making
 *   that edit (`_sdk_share_rows.ts`): the SDK's share and ours; over a
 *   fresh server's first 300 calls, as a session makes them, and warm,
 *   once V8 has compiled the path (`_warm_append_rows.ts`);
 * - whole `get_document`, `get_changes` of the whole pad against it, a
 *   2,000-line `read_lines`, literal and regex `search_document` and a
 *   10-edit `edit_document` on the busy pad against a bare `GET` of it;
 * - `get_document` against a bare relay of `GET /api/text` through the SDK
 *   (what a server that only relays does), inside the server and end to
 *   end through the SDK client;
 * - the first call on a busy pad (connect, take the history, answer) in a
 *   fresh server against a raw socket's connect-and-history, with no one's
 *   cursor in the pad and with a person's (whose line and column need the
 *   history folded in);
 * - 100 concurrent appends over one client against 100 edits pipelined on
 *   one raw socket, each checked to land exactly once;
 * - the warm append and the whole `get_document` end to end in the
 *   2026-07-28 era (the v2 client pinned to it) against the same rows in
 *   the 2025 era, the two eras' calls timed in turn (and the append of the
 *   v2 client in the 2025 era with them, as a row, to tell the
 *   client's share of a difference from the era's), and the append timed
 *   inside the server by bare peers of either era;
 * - 50 concurrent 2026-era clients on `--http`, each reading and appending
 *   on its own pad in a loop for 20 s, against a bare v2 server with one
 *   trivial tool: calls per second and p95.
 *
 * The busy pad has 200,000 code points and a 10,000-edit history (the
 * fixture of `replay.ts`). Every process is its own, as in production: the
 * pad server, the bare floor server, the MCP server and the relay, each
 * spoken to over stdio or loopback by this one. Calls are timed inside the
 * server, from the request written to the answer's last byte read, by a
 * bare JSON-RPC peer (`_raw_rpc.ts`), and so are their floors (`ping`);
 * rows marked "end to end" go through the SDK's `Client`, whose read buffer
 * costs grow with the square of an answer's size.
 *
 * Each row is also set against its last accepted ratio
 * (`speed_baseline.json`, see `_baseline.ts` for the rule): beside it,
 * whether it regressed past noise, and at the end the list of the rows that
 * did. Whether the code or the machine did: `against.ts`.
 *
 * Run: `deno run -A bench/speed.ts [--quick] [--start] [--accept]`
 * (`deno task bench`): `--start` runs the start rows only; `--accept`
 * writes this run's ratios as the accepted ones. Exit code 1 if a target is
 * missed or a row regressed. Not part of CI: these are timings.
 *
 * @module
 */

import { DOCUMENT_LENGTH, EDIT_COUNT, replayFixture } from "./replay.ts";
import { RawRpc } from "./_raw_rpc.ts";
import {
  callTool,
  finishRun,
  modernStdioClient,
  type Row,
  spawnServer,
  stdioClient,
  timed,
  timedInside,
  timedInTurn,
} from "./_speed_tools.ts";
import { RawSocket } from "./_raw_socket.ts";
import { appendInsideRows, loadRows } from "./_era_rows.ts";
import { warmAppendRows } from "./_warm_append_rows.ts";
import { bigPadRows } from "./_big_pad_rows.ts";
import { startRows } from "./_start_row.ts";
import { coldRows } from "./_cold_rows.ts";
import { concurrentRow } from "./_concurrent_row.ts";
import { sdkShareRows } from "./_sdk_share_rows.ts";

const ROOT = new URL("../", import.meta.url).pathname;
const QUICK = Deno.args.includes("--quick");
const ACCEPT = Deno.args.includes("--accept");
const START_ONLY = Deno.args.includes("--start");
const BUSY = "bench-busy";

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

// 0. The start, first, on a machine no row has loaded yet. The servers
// are given a pad server that is not there: a start does not reach it.
// The default configuration: what an MCP client starts (no tool is called).
const started = await startRows(
  { RUSTPAD_URL: "http://127.0.0.1:9" },
  QUICK ? 5 : 15,
);
rows.push(...started.rows);
notes.push(started.note);
if (START_ONLY) await report();

// The fixture: the busy pad's text and history.
const fixture = replayFixture();
const pad = await spawnServer([`${ROOT}src/pad_server/pad_server.ts`]);
const busy = await RawSocket.open(pad.url, BUSY);
await busy.load(fixture.document, fixture.operations);
const busyText = await (await fetch(`${pad.url}/api/text/${BUSY}`)).text();
const textFile = await Deno.makeTempFile({ suffix: ".txt" });
await Deno.writeTextFile(textFile, busyText);
const bare = await spawnServer([`${ROOT}bench/_bare_server.ts`, textFile]);
const runs = QUICK ? 10 : 40;
const many = QUICK ? 50 : 300;
/** Calls after which V8 has compiled the append path (_warm_append_rows.ts). */
const WARM = QUICK ? 300 : 2000;

// 1. The compatible pad server against bare Deno.serve. Bytes, not text:
// decoding the answer is the client's cost (1.6 ms of the 4 ms it takes
// with text()), and the calls below are timed to their last byte too.
const bareGet = await timed(runs, async () => {
  await (await fetch(`${bare.url}/text`)).arrayBuffer();
});
const padGet = await timed(runs, async () => {
  await (await fetch(`${pad.url}/api/text/${BUSY}`)).arrayBuffer();
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

// 2. The write path, timed inside the server against a ping timed the same
// way.
const env = { RUSTPAD_URL: pad.url, RUSTPAD_CONFIRM: "never" };
const rpc = await RawRpc.start(`${ROOT}mod.ts`, env);
const ping = await timed(many, () => rpc.call("ping", {}));
const appendSmall = await timedInside(
  many,
  () =>
    rpc.timeTool("append_to_document", {
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
const appendBusy = await timedInside(
  many,
  () => rpc.timeTool("append_to_document", { id: BUSY, text: "a line\n" }),
);
row(
  "append_to_document, busy pad",
  appendBusy,
  "ping + raw edit (busy)",
  ping + busyRtt,
  1.5,
);

// 3. Big-pad calls against the bare GET of the same text.
const big = await bigPadRows(rpc, BUSY, busyText, bareGet, runs);
rows.push(...big.rows);
notes.push(...big.notes);
const { getDocument } = big;

// get_document against a bare relay of GET /api/text: inside the servers,
// then end to end through the SDK client, where our answer carries the
// text twice (structuredContent and the text block; clients differ in which
// one the model sees) and the relay's once.
const relayRpc = await RawRpc.start(`${ROOT}bench/_relay_server.ts`, env);
const relayInside = await timedInside(
  runs,
  () => relayRpc.timeTool("get_document", { id: BUSY }),
);
await relayRpc.close();
row(
  "get_document, whole busy pad",
  getDocument,
  "relay of GET, inside",
  relayInside,
  1,
);
// The append again, warm: after the busy-pad rows, which its appends
// would otherwise lengthen.
const warmed = await warmAppendRows(
  { env, ours: rpc, small, busy, busyId: BUSY },
  WARM,
  many,
);
rows.push(...warmed.rows);
notes.push(warmed.note);

const mcp = await stdioClient("mod.ts", pad.url);
// The same calls in the 2026 era, end to end with the v2 client pinned to
// it, timed in turn with the 2025-era calls so both see the same load;
// the v2 client in the 2025 era too, which tells the client's share of a
// difference from the era's.
const modern = await modernStdioClient(pad.url);
const v2Legacy = await modernStdioClient(pad.url, false);
// The append end to end: the SDK client's own cost is in both. In a fresh
// server of its own after its pings, as its floor is, beside the bare SDK
// append's (`_sdk_share_rows.ts`); then in turn for the eras.
const append = (client: typeof mcp | typeof modern, id: string) => () =>
  callTool(client, "append_to_document", { id, text: "a\n" });
const share = await sdkShareRows(env, many, smallRtt, QUICK ? 1 : 3);
const { ping: sdkPing, append: sdkAppend } = share.endToEnd;
await timed(many, () => mcp.ping()); // as warm as the era rows always were
const [legacyAppend, modernAppend, v2LegacyAppend] = await timedInTurn(many, [
  append(mcp, "bench-e2e-turn"),
  append(modern, "bench-e2e-2026"),
  append(v2Legacy, "bench-e2e-v2"),
]);
const inTurn = [legacyAppend, v2LegacyAppend, modernAppend].map((ms, i) =>
  `${ms.toFixed(2)} ms (${["1.x client", "v2, 2025 era", "v2, 2026 era"][i]})`
);
notes.push(`append end to end in turn: ${inTurn.join(", ")}`);
row(
  "append end to end (SDK)",
  sdkAppend,
  "SDK ping + raw edit",
  sdkPing + smallRtt,
  1.5,
);
// The same two appends against a bare SDK server's: the SDK's share.
rows.push(...share.rows);
notes.push(share.note);
const [endToEnd, modernRead] = await timedInTurn(runs, [
  () => callTool(mcp, "get_document", { id: BUSY }),
  () => callTool(modern, "get_document", { id: BUSY }),
]);
const relay = await stdioClient("bench/_relay_server.ts", pad.url);
const relayed = await timed(
  runs,
  () => relay.callTool({ name: "get_document", arguments: { id: BUSY } }),
);
row(
  "get_document end to end (SDK)",
  endToEnd,
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
  "get_document end to end (SDK)",
  endToEnd,
  "relay, text in both",
  relayedTwice,
  1,
);

// The 2026-era calls timed above: within 10% of the 2025-era rows; the
// append also against the v2 client's own 2025 era (the client's share).
row(
  "append end to end (v2 client, 2026-07-28)",
  modernAppend,
  "the 2025-era row",
  legacyAppend,
  1.1,
);
row(
  "append end to end (v2 client, 2026-07-28)",
  modernAppend,
  "v2 client, 2025 era",
  v2LegacyAppend,
  1.1,
);
row(
  "get_document end to end (v2 client, 2026-07-28)",
  modernRead,
  "the 2025-era row",
  endToEnd,
  1.1,
);

const inside = await appendInsideRows(env, many, WARM);
rows.push(...inside.rows);
notes.push(inside.note);

// 4. The first call on a busy pad, in a fresh server after its handshake.
const cold = await coldRows(env, pad.url, fixture, QUICK ? 3 : 5);
rows.push(...cold.rows);
notes.push(cold.note);

// 5. 100 concurrent appends against 100 pipelined raw edits.
const concurrent = await concurrentRow(pad.url, mcp, QUICK ? 3 : 5);
rows.push(concurrent.row);
notes.push(concurrent.note);

// 6. Load in the 2026 era, against a bare v2 server.
const loaded = await loadRows(env, QUICK ? 5 : 20);
rows.push(...loaded.rows);
notes.push(loaded.note);

for (const client of [relay, relayTwice, modern, v2Legacy, mcp, rpc]) {
  await client.close();
}
small.close();
busy.close();
echo.close();
for (const server of [pad, bare]) {
  server.child.kill();
  await server.child.status;
}
await Deno.remove(textFile);

await report([
  `Busy pad: ${DOCUMENT_LENGTH.toLocaleString("en")} code points, ${
    EDIT_COUNT.toLocaleString("en")
  }-edit history`,
  `Floors: ping ${ping.toFixed(2)} ms, raw edit ${
    smallRtt.toFixed(2)
  } ms (busy ${busyRtt.toFixed(2)} ms), bare GET ${
    bareGet.toFixed(2)
  } ms, WS echo ${echoRtt.toFixed(2)} ms`,
], concurrent.failures);

/** Print the table, the notes and the regressions, and exit (see finishRun). */
async function report(lines: string[] = [], failures = 0): Promise<never> {
  return await finishRun(rows, [...lines, ...notes], ACCEPT, failures);
}
