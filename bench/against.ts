/**
 * Ours against another commit of this repository, in one run on one
 * machine: `deno task bench:against <git-ref> [--pairs N]`.
 *
 * `bench/speed.ts` sets each row against a floor and its ratio against the
 * ratio accepted in `speed_baseline.json`, which was measured on whatever
 * machine ran it then. A ratio moves with the machine (its floors, its
 * load, how long V8 runs our code before it is optimized), so a row over
 * its accepted ratio may be the machine, not the code. This script answers
 * the other question: is this code slower than that commit's, here and
 * now? It checks `ref` out into a temporary worktree, starts its server and
 * ours in turn (fresh processes, the same pad server, the same busy pad)
 * and times the rows issue 32 names (the append end to end through the
 * 1.x client, the others inside the server), and the common writes and
 * `get_changes`, as `bench/speed.ts` does (3 warm calls, then the median of
 * the next ones). Each row is read two ways: the median of the pairs'
 * ratios and the ratio of the two medians. A row is slower when both are
 * over 1 + {@linkcode PAIRED_NOISE}: in three runs against `HEAD` itself
 * (11 rows, 6 pairs each) every row read 0.98x to 1.13x one way and 0.95x
 * to 1.13x the other, where runs of `bench/speed.ts` vary by a quarter.
 *
 * Exits 1 when a row is slower or could not be compared (an older commit
 * may lack a tool or an argument), listing them.
 *
 * @module
 */

import { parseArgs } from "node:util";
import { RawRpc } from "./_raw_rpc.ts";
import { RawSocket } from "./_raw_socket.ts";
import {
  callTool,
  median,
  spawnServer,
  stdioClient,
  timed,
  timedInside,
} from "./_speed_tools.ts";
import { timeRawStart, timeStart } from "./_start_row.ts";
import { EDIT_COUNT, replayFixture } from "./replay.ts";

/** How far past 1 a row's two ratios may both be before it is slower (or faster). */
export const PAIRED_NOISE = 0.15;
const ROOT = new URL("../", import.meta.url).pathname;
const BUSY = "bench-busy";
const COLD = "bench-cold";
/** The busy pad again, which no row writes to: its revision stays put. */
const CHANGES = "bench-changes";

/** One row: how to time a server at `entry` once (a fresh process). */
interface Compared {
  what: string;
  time: (entry: string) => Promise<number>;
}

/**
 * What a row's ratios say, by the rule above: `paired` the median of the
 * pairs' ratios, `medians` the ratio of the two medians; both must be past
 * the noise (a single pair's spike moves the first, a slow spell on one
 * side the second).
 */
export function pairedVerdict(
  paired: number,
  medians: number,
): "slower" | "same" | "faster" {
  const bound = 1 + PAIRED_NOISE;
  if (paired > bound && medians > bound) return "slower";
  if (paired < 1 / bound && medians < 1 / bound) return "faster";
  return "same";
}

/**
 * Time `row` for ours and `refEntry` in turn, `pairs` times, the first of
 * a pair alternating.
 *
 * @returns The medians and the pairwise median ratio (ours / ref).
 */
async function compare(
  row: Compared,
  refEntry: string,
  pairs: number,
): Promise<{ ours: number; ref: number; ratio: number }> {
  const ours: number[] = [];
  const ref: number[] = [];
  // A failure says whose server failed: an older commit may lack a tool.
  const time = async (entry: string, into: number[], whose: string) => {
    try {
      into.push(await row.time(entry));
    } catch (error) {
      throw new Error(`${whose} failed: ${(error as Error).message}`);
    }
  };
  const timeOurs = () => time(`${ROOT}mod.ts`, ours, "this checkout");
  const timeRef = () => time(refEntry, ref, "the other commit");
  for (let pair = 0; pair < pairs; pair++) {
    const [first, second] = pair % 2 === 0
      ? [timeOurs, timeRef]
      : [timeRef, timeOurs];
    await first();
    await second();
  }
  return {
    ours: median(ours),
    ref: median(ref),
    ratio: median(ours.map((ms, i) => ms / ref[i]!)),
  };
}

/** Pads made for one server each, so rows on a small pad start alike. */
let padsMade = 0;

/**
 * A fresh server's median of `runs` calls of `name` after 3 warm ones (as
 * `bench/speed.ts` times its rows), or its first call with `runs` 0.
 * `args` gets a pad of this server's own (`setup` writes to it first) and
 * the call's number.
 */
async function timeCalls(
  entry: string,
  env: Record<string, string>,
  runs: number,
  name: string,
  args: (pad: string, call: number) => Record<string, unknown>,
  setup?: (rpc: RawRpc, pad: string) => Promise<unknown>,
): Promise<number> {
  const rpc = await RawRpc.start(entry, env);
  const pad = `against-${padsMade++}`;
  let calls = 0;
  const call = () => rpc.timeTool(name, args(pad, calls++));
  try {
    await setup?.(rpc, pad);
    if (runs === 0) {
      await rpc.call("ping", {});
      return await call();
    }
    return await timedInside(runs, call);
  } finally {
    await rpc.close();
  }
}

/**
 * A fresh server's median of `runs` appends end to end, through the 1.x
 * SDK client (as `bench/speed.ts`'s end-to-end row), after 3 warm ones.
 */
async function timeEndToEnd(
  entry: string,
  padUrl: string,
  runs: number,
): Promise<number> {
  const client = await stdioClient(entry, padUrl);
  const arguments_ = { id: `against-${padsMade++}`, text: "a\n" };
  try {
    return await timed(
      runs,
      () => callTool(client, "append_to_document", arguments_),
    );
  } finally {
    await client.close();
  }
}

/** A detached worktree of `ref` in a temporary directory. */
async function checkout(ref: string): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "rustpad-mcp-against-" });
  const { code, stderr } = await new Deno.Command("git", {
    args: ["worktree", "add", "--detach", "--force", dir, ref],
    cwd: ROOT,
    stdout: "null",
    stderr: "piped",
  }).output();
  if (code !== 0) {
    await Deno.remove(dir, { recursive: true });
    throw new Error(
      `Cannot check out ${JSON.stringify(ref)} as git worktree add failed: ${
        new TextDecoder().decode(stderr).trim()
      }`,
    );
  }
  return dir;
}

async function removeCheckout(dir: string): Promise<void> {
  await new Deno.Command("git", {
    args: ["worktree", "remove", "--force", dir],
    cwd: ROOT,
    stdout: "null",
    stderr: "null",
  }).output();
  await Deno.remove(dir, { recursive: true }).catch(() => {});
}

if (import.meta.main) {
  const { positionals, values } = parseArgs({
    args: Deno.args,
    options: { pairs: { type: "string", default: "6" } },
    allowPositionals: true,
  });
  const ref = positionals[0];
  const pairs = Number(values.pairs);
  if (ref === undefined || !Number.isInteger(pairs) || pairs < 1) {
    console.error(
      "Usage: deno task bench:against <git-ref> [--pairs N]: times this checkout's server and <git-ref>'s in turn, N pairs a row (default 6)",
    );
    Deno.exit(2);
  }
  const refDir = await checkout(ref).catch((error: Error) => {
    console.error(error.message);
    Deno.exit(2);
  });
  const pad = await spawnServer([`${ROOT}src/pad_server/pad_server.ts`]);
  try {
    const fixture = replayFixture();
    for (const id of [BUSY, COLD, CHANGES]) {
      const loader = await RawSocket.open(pad.url, id);
      await loader.load(fixture.document, fixture.operations);
      loader.close();
    }
    const env = { RUSTPAD_URL: pad.url, RUSTPAD_CONFIRM: "never" };
    const noPad = { RUSTPAD_URL: "http://127.0.0.1:9" };
    const started = (entry: string) => ({
      command: Deno.execPath(),
      args: ["run", "-A", entry],
    });
    // A row: `runs` calls of `name` on a fresh server.
    const row = (
      what: string,
      runs: number,
      name: string,
      args: (pad: string, call: number) => Record<string, unknown>,
      setup?: (rpc: RawRpc, pad: string) => Promise<unknown>,
    ): Compared => ({
      what,
      time: (entry) => timeCalls(entry, env, runs, name, args, setup),
    });
    const twoLines = (rpc: RawRpc, pad: string) =>
      rpc.call("tools/call", {
        name: "append_to_document",
        arguments: { id: pad, text: "aa one\nbb two\n" },
      });
    const rows: Compared[] = [
      {
        what: "start, no SDK client",
        time: (entry) => timeRawStart(started(entry), noPad),
      },
      {
        what: "start, 1.x SDK client",
        time: (entry) => timeStart(started(entry), noPad),
      },
      row(
        "append_to_document, small pad (300 calls)",
        300,
        "append_to_document",
        (pad) => ({ id: pad, text: "a line\n" }),
      ),
      row(
        "append_to_document, busy pad (300 calls)",
        300,
        "append_to_document",
        () => ({ id: BUSY, text: "a line\n" }),
      ),
      {
        what: "append end to end, 1.x client (300 calls)",
        time: (entry) => timeEndToEnd(entry, pad.url, 300),
      },
      row(
        "get_document, whole busy pad (40 calls)",
        40,
        "get_document",
        () => ({ id: BUSY }),
      ),
      row(
        "read_lines, 2,000 lines (40 calls)",
        40,
        "read_lines",
        () => ({ id: BUSY, start_line: 1, line_count: 2000 }),
      ),
      row(
        "search_document, literal (40 calls)",
        40,
        "search_document",
        () => ({ id: BUSY, pattern: "needle" }),
      ),
      row(
        "get_changes, last 10 revisions (40 calls)",
        40,
        "get_changes",
        () => ({ id: CHANGES, since_revision: EDIT_COUNT - 10 }),
      ),
      row(
        "replace_in_document, small pad (100 calls)",
        100,
        "replace_in_document",
        (pad, call) => ({
          id: pad,
          search: call % 2 === 0 ? "aa" : "cc",
          replace: call % 2 === 0 ? "cc" : "aa",
        }),
        twoLines,
      ),
      row(
        "edit_document, one line, small pad (100 calls)",
        100,
        "edit_document",
        (pad, call) => ({
          id: pad,
          edits: [{ start_line: 1, end_line: 1, new_string: `line ${call}` }],
        }),
        twoLines,
      ),
      row(
        "first call on the busy pad (cold)",
        0,
        "get_document_info",
        () => ({ id: COLD }),
      ),
    ];
    // One unmeasured start of each, which fills the compile caches (the
    // worktree's modules have never been compiled).
    for (const entry of [`${ROOT}mod.ts`, `${refDir}/mod.ts`]) {
      await timeRawStart(started(entry), noPad);
    }
    const slower: string[] = [];
    const failed: string[] = [];
    console.log(`ours (${ROOT}) against ${ref}, ${pairs} pairs a row:`);
    for (const row of rows) {
      const { what } = row;
      let compared;
      try {
        compared = await compare(row, `${refDir}/mod.ts`, pairs);
      } catch (error) {
        // Say which server failed, and go on with the other rows.
        failed.push(what);
        console.log(
          `${what.padEnd(48)} not compared: ${(error as Error).message}`,
        );
        continue;
      }
      const { ours, ref: theirs, ratio } = compared;
      const verdict = pairedVerdict(ratio, ours / theirs);
      if (verdict === "slower") slower.push(what);
      console.log(
        `${what.padEnd(48)} ${ours.toFixed(2).padStart(8)} ms  / ${
          theirs.toFixed(2).padStart(8)
        } ms  =  ${ratio.toFixed(2)}x  ${verdict}`,
      );
    }
    console.log(
      `Slower than ${ref} (paired ratio and ratio of medians over ${
        1 + PAIRED_NOISE
      }x): ${slower.length === 0 ? "none" : slower.join("; ")}${
        failed.length === 0 ? "" : `; not compared: ${failed.join("; ")}`
      }.`,
    );
    Deno.exitCode = slower.length + failed.length === 0 ? 0 : 1;
  } finally {
    pad.child.kill();
    await pad.child.status;
    await removeCheckout(refDir);
  }
}
