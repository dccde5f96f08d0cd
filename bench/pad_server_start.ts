// How long the shared pad server takes from spawn to its first page: the
// process `--embedded` starts (pad_server_main.ts, SQLite pads in a fresh
// data directory) spawned, then `GET /` polled until it answers 200. The
// floor, measured in the same run: Deno spawned on a script that only
// serves "ok" with Deno.serve, polled the same way. A third row: the first
// `mod.ts --embedded` agent spawned (stdin kept open, as a client keeps it)
// until its pad server's `GET /` answers, which includes the agent finding
// no pad server and starting one. Each row is the median of RUNS spawns,
// and the ratio to the floor.
//
//   deno run -A bench/pad_server_start.ts [--runs N]

import { parseArgs } from "node:util";

const MAIN = new URL("../src/cli/pad_server_main.ts", import.meta.url).href;
const MOD = new URL("../mod.ts", import.meta.url).href;
const FLOOR =
  `Deno.serve({ hostname: "127.0.0.1", port: Number(Deno.args[0]), onListen() {} }, () => new Response("ok"));`;

/** A port free a moment ago. */
function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const { port } = listener.addr;
  listener.close();
  return port;
}

/** Milliseconds from spawning `args` to `GET /` answering 200 on `port`. */
async function startToPage(
  args: string[],
  port: number,
  env: Record<string, string>,
): Promise<number> {
  const started = performance.now();
  const child = new Deno.Command(Deno.execPath(), {
    args,
    env,
    // An agent on stdio serves until its stdin closes.
    stdin: "piped",
    stdout: "null",
    stderr: "null",
  }).spawn();
  try {
    for (;;) {
      try {
        const response = await fetch(`http://127.0.0.1:${port}/`);
        await response.body?.cancel();
        if (response.status === 200) return performance.now() - started;
      } catch {
        // Not listening yet.
      }
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
  } finally {
    child.kill("SIGTERM");
    await child.status;
  }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

async function main(args: string[]): Promise<number> {
  const { values } = parseArgs({
    args,
    options: { runs: { type: "string", default: "7" } },
  });
  const runs = Number(values.runs);
  if (!Number.isInteger(runs) || runs < 1) {
    console.error(
      `pad_server_start: Cannot run as --runs is not a positive whole number: current value is ${
        JSON.stringify(values.runs)
      }`,
    );
    return 2;
  }
  const dir = await Deno.makeTempDir({ prefix: "rustpad-start-bench-" });
  const floorScript = `${dir}/floor.ts`;
  await Deno.writeTextFile(floorScript, FLOOR);
  const floor: number[] = [];
  const padServer: number[] = [];
  const agent: number[] = [];
  try {
    for (let i = 0; i < runs; i++) {
      const port = freePort();
      floor.push(
        await startToPage(["run", "-A", floorScript, String(port)], port, {}),
      );
      const data = `${dir}/data-${i}`;
      const padPort = freePort();
      padServer.push(
        await startToPage(
          ["run", "-A", MAIN, "--listen", `127.0.0.1:${padPort}`],
          padPort,
          { XDG_DATA_HOME: data, NO_COLOR: "1" },
        ),
      );
      const agentData = `${dir}/agent-${i}`;
      const agentPort = freePort();
      agent.push(
        await startToPage(
          ["run", "-A", MOD, "--embedded", `127.0.0.1:${agentPort}`],
          agentPort,
          { XDG_DATA_HOME: agentData, NO_COLOR: "1" },
        ),
      );
      // The pad server the agent started outlives it: stop it.
      const address = `${agentData}/rustpad-mcp/pads.server.json`;
      Deno.kill(JSON.parse(await Deno.readTextFile(address)).pid, "SIGTERM");
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
  const floorMs = median(floor);
  const padMs = median(padServer);
  console.log(`runs: ${runs} each, median`);
  console.log(
    `floor: Deno.serve script, spawn to GET / 200: ${floorMs.toFixed(0)} ms`,
  );
  console.log(
    `shared pad server (SQLite, fresh data directory), spawn to GET / 200: ${
      padMs.toFixed(0)
    } ms (${(padMs / floorMs).toFixed(2)}x the floor)`,
  );
  const agentMs = median(agent);
  console.log(
    `first --embedded agent, spawn to its pad server's GET / 200: ${
      agentMs.toFixed(0)
    } ms (${(agentMs / floorMs).toFixed(2)}x the floor)`,
  );
  return 0;
}

if (import.meta.main) Deno.exit(await main(Deno.args));
