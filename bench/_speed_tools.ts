// The helpers of bench/speed.ts: its child processes, its clocks and its
// table.

// @ts-types="@modelcontextprotocol/sdk/client/index"
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
// @ts-types="@modelcontextprotocol/sdk/client/stdio"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
// @ts-types="@modelcontextprotocol/client"
import { Client as ModernClient } from "@modelcontextprotocol/client";
// @ts-types="@modelcontextprotocol/client/stdio"
import { StdioClientTransport as ModernStdioTransport } from "@modelcontextprotocol/client/stdio";

import {
  acceptRows,
  readBaseline,
  regressionsReport,
  rowKey,
  verdict,
} from "./_baseline.ts";

const ROOT = new URL("../", import.meta.url).pathname;

/** A child process that prints its URL on its first line of stdout. */
export async function spawnServer(
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

/**
 * An SDK client over stdio to `script`: a path in this checkout (mod.ts or
 * the relay) or an absolute one (another checkout's mod.ts).
 */
export async function stdioClient(
  script: string,
  rustpadUrl: string,
  args: string[] = [],
): Promise<Client> {
  const transport = new StdioClientTransport({
    command: Deno.execPath(),
    args: [
      "run",
      "-A",
      script.startsWith("/") ? script : `${ROOT}${script}`,
      ...args,
    ],
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

/** `mod.ts --http` on a free loopback port, with `env`; its MCP URL. */
export async function spawnHttp(
  env: Record<string, string>,
): Promise<{ url: string; child: Deno.ChildProcess }> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", `${ROOT}mod.ts`, "--http", "127.0.0.1:0"],
    env: { NO_COLOR: "1", ...env },
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).spawn();
  let text = "";
  const reader = child.stderr.pipeThrough(new TextDecoderStream())
    .getReader();
  while (true) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`Cannot start mod.ts --http: ${text}`);
    text += value;
    const url = /serving MCP over HTTP at (\S+)/.exec(text)?.[1];
    if (url !== undefined) {
      // Keep reading, so the access log never fills the pipe.
      void (async () => {
        while (!(await reader.read()).done);
      })().catch(() => {});
      return { url, child };
    }
  }
}

/**
 * A v2 SDK client over stdio to mod.ts: pinned to 2026-07-28, or in its
 * default mode, which falls back to the 2025-11-25 handshake.
 */
export async function modernStdioClient(
  rustpadUrl: string,
  pinned = true,
): Promise<ModernClient> {
  const client = new ModernClient(
    { name: "bench", version: "1.0.0" },
    pinned ? { versionNegotiation: { mode: { pin: "2026-07-28" } } } : {},
  );
  await client.connect(
    new ModernStdioTransport({
      command: Deno.execPath(),
      args: ["run", "-A", `${ROOT}mod.ts`],
      env: {
        ...Deno.env.toObject(),
        RUSTPAD_URL: rustpadUrl,
        RUSTPAD_CONFIRM: "never",
      },
      stderr: "ignore",
    }),
  );
  return client;
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/** The median time of `runs` calls of `task`, after `warm` unmeasured. */
export async function timed(
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

/**
 * The median times of `tasks`, `runs` calls each, taken in turn (one call
 * of each, the first of the round moving on every round) after `warm`
 * unmeasured rounds: a ratio between them is then not moved by a change of
 * load on the machine, or by the garbage earlier rows left, between two
 * separate timing windows. With `reported`, a call's time is the number
 * its task resolves to (a time taken inside, as `timedInside` takes it);
 * otherwise the time the task took.
 */
export async function timedInTurn<
  const Tasks extends readonly ((i: number) => Promise<unknown>)[],
>(
  runs: number,
  tasks: Tasks,
  warm = 3,
  reported = false,
): Promise<{ [K in keyof Tasks]: number }> {
  for (let i = 0; i < warm; i++) {
    for (const task of tasks) await task(-1 - i);
  }
  const times = tasks.map((): number[] => []);
  for (let i = 0; i < runs; i++) {
    for (let k = 0; k < tasks.length; k++) {
      const index = (i + k) % tasks.length;
      const start = performance.now();
      const answer = await tasks[index]!(i);
      times[index]!.push(
        reported ? answer as number : performance.now() - start,
      );
    }
  }
  return times.map(median) as { [K in keyof Tasks]: number };
}

/**
 * Like {@linkcode timedInTurn}, with each turn a block of `block` calls of
 * one task: the median of each task's block medians. Called one at a time
 * in turn, each server sleeps while the others answer and wakes cold for
 * every call, which adds the same time to every row and flattens their
 * ratios; a block keeps one warm while the turns still share the load.
 * A call's time is the number its task resolves to.
 */
export async function timedInBlocks<
  const Tasks extends readonly ((i: number) => Promise<number>)[],
>(
  rounds: number,
  block: number,
  tasks: Tasks,
  warm = 3,
): Promise<{ [K in keyof Tasks]: number }> {
  for (const task of tasks) {
    for (let i = 0; i < warm; i++) await task(-1 - i);
  }
  const medians = tasks.map((): number[] => []);
  for (let round = 0; round < rounds; round++) {
    for (let k = 0; k < tasks.length; k++) {
      const index = (round + k) % tasks.length;
      const times: number[] = [];
      for (let i = 0; i < block; i++) {
        times.push(await tasks[index]!(round * block + i));
      }
      medians[index]!.push(median(times));
    }
  }
  return medians.map(median) as { [K in keyof Tasks]: number };
}

/** The median of `runs` times that `task` reports, after `warm` unreported. */
export async function timedInside(
  runs: number,
  task: (i: number) => Promise<number>,
  warm = 3,
): Promise<number> {
  for (let i = 0; i < warm; i++) await task(-1 - i);
  const times: number[] = [];
  for (let i = 0; i < runs; i++) times.push(await task(i));
  return median(times);
}

/** One line of the table: a time against its floor and the target ratio. */
export interface Row {
  what: string;
  ms: number;
  floor: string;
  floorMs: number;
  target: number;
  /** What `ms` and `floorMs` count: milliseconds unless said ("x": a factor). */
  unit?: "ms" | "x";
}

export async function callTool(
  client: Client | ModernClient,
  name: string,
  args: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  const result = await client.callTool({ name, arguments: args });
  if (result.isError) {
    throw new Error(`${name} failed: ${JSON.stringify(result.content)}`);
  }
  return result.structuredContent as Record<string, unknown>;
}

/**
 * Print the table, each row with its verdict against `accepted` (the last
 * accepted ratios, see `_baseline.ts`); returns how many rows missed their
 * target and the rows that regressed, each as a line to print.
 */
export function printRows(
  rows: readonly Row[],
  accepted: ReadonlyMap<string, number> = new Map(),
): { missed: number; regressions: string[] } {
  let missed = 0;
  const regressions: string[] = [];
  const width = Math.max(...rows.map((r) => r.what.length));
  const floorWidth = Math.max(...rows.map((r) => r.floor.length));
  for (const r of rows) {
    const ratio = r.ms / r.floorMs;
    const ok = ratio <= r.target;
    if (!ok) missed++;
    const before = accepted.get(rowKey(r));
    const change = verdict(ratio, before);
    const was = before === undefined ? "" : ` (accepted ${before.toFixed(2)}x)`;
    if (change === "regressed") {
      regressions.push(
        `${rowKey(r)}: ${ratio.toFixed(2)}x${was}, target ${r.target}x`,
      );
    }
    const unit = (r.unit ?? "ms").padEnd(2);
    console.log(
      `${r.what.padEnd(width)}  ${r.ms.toFixed(2).padStart(8)} ${unit}  / ${
        r.floor.padEnd(floorWidth)
      } ${r.floorMs.toFixed(2).padStart(8)} ${unit}  = ${
        ratio.toFixed(2).padStart(5)
      }x  (target ${r.target}x) ${ok ? "ok    " : "MISSED"} ${change}${was}`,
    );
  }
  return { missed, regressions };
}

/**
 * Print `notes`, the table of `rows` and the regressions against the
 * accepted ratios; with `accept`, write this run's as the accepted ones;
 * exit, 1 if a target was missed or a row regressed (or `failures` other
 * checks failed).
 */
export async function finishRun(
  rows: readonly Row[],
  notes: readonly string[],
  accept: boolean,
  failures = 0,
): Promise<never> {
  console.log(`${notes.join("; ")}.`);
  const { missed, regressions } = printRows(rows, await readBaseline());
  console.log(regressionsReport(regressions));
  if (accept) {
    await acceptRows(rows);
    console.log("Accepted: bench/speed_baseline.json now holds these ratios.");
  }
  Deno.exit(missed + regressions.length + failures === 0 ? 0 : 1);
}
