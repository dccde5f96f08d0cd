// The cold rows of bench/speed.ts: the first call on the busy pad in a
// fresh MCP server, with no one's cursor in the pad and with a person's,
// against a raw socket's connect and history: timed in the bench's own
// process (the floor, on code compiled long before) and in a fresh
// process of its own (on code run for the first time, as the server's is).

import { RawRpc } from "./_raw_rpc.ts";
import { RawSocket } from "./_raw_socket.ts";
import type { ReplayFixture } from "./replay.ts";
import { median, type Row, timed } from "./_speed_tools.ts";

const ROOT = new URL("../", import.meta.url).pathname;
const COLD = "bench-cold";

/**
 * Load the busy pad's `fixture` into a pad of its own on `padUrl` (the
 * agents of earlier rows left cursors in theirs) and time its first call,
 * `runs` fresh servers each way.
 *
 * @returns The rows, and a note with each run's figures.
 */
export async function coldRows(
  env: Record<string, string>,
  padUrl: string,
  fixture: ReplayFixture,
  runs: number,
): Promise<{ rows: Row[]; note: string }> {
  const loader = await RawSocket.open(padUrl, COLD);
  await loader.load(fixture.document, fixture.operations);
  // Warm first, as its name says: a process's first opens of this pad took
  // 18 to 37 ms and its later ones mostly 8 to 14 ms, so one open
  // unreported and a median of five read this floor at 7 to 21 ms.
  const rawWarm = await timed(3 * runs, async () => {
    const socket = await RawSocket.open(padUrl, COLD);
    socket.close();
  }, 4 * runs);
  const firstOpens: number[] = [];
  for (let i = 0; i < runs; i++) firstOpens.push(await rawFirstOpen(padUrl));
  const rawFresh = median(firstOpens);
  const firstCall = async (): Promise<number> => {
    const times: number[] = [];
    for (let i = 0; i < runs; i++) {
      const fresh = await RawRpc.start(`${ROOT}mod.ts`, env);
      await fresh.call("ping", {});
      times.push(await fresh.timeTool("get_document_info", { id: COLD }));
      await fresh.close();
    }
    return median(times);
  };
  const alone = await firstCall();
  // A person's cursor (its line and column) needs the text: the 10,000
  // operations are folded in.
  await loader.announce("Ada", 1000);
  const beside = await firstCall();
  loader.close();
  const noCursor = "first call on the busy pad (cold)";
  const cursor = "first call on the busy pad, a person's cursor in it (cold)";
  const warmFloor = "raw connect + history";
  const freshFloor = "raw connect + history, fresh process";
  return {
    rows: [
      {
        what: noCursor,
        ms: alone,
        floor: warmFloor,
        floorMs: rawWarm,
        target: 3,
      },
      {
        what: cursor,
        ms: beside,
        floor: warmFloor,
        floorMs: rawWarm,
        target: 3,
      },
      {
        what: noCursor,
        ms: alone,
        floor: freshFloor,
        floorMs: rawFresh,
        target: 2,
      },
      {
        what: cursor,
        ms: beside,
        floor: freshFloor,
        floorMs: rawFresh,
        target: 2,
      },
    ],
    note: `raw connect + history: ${rawWarm.toFixed(2)} ms in this process, ${
      firstOpens.map((ms) => ms.toFixed(1)).join(" / ")
    } ms in fresh ones`,
  };
}

/** A raw connect and history in a fresh process, timed inside it. */
async function rawFirstOpen(padUrl: string): Promise<number> {
  const { code, stdout } = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", `${ROOT}bench/_raw_first_open.ts`, padUrl, COLD],
    stdout: "piped",
    stderr: "inherit",
  }).output();
  const ms = Number(new TextDecoder().decode(stdout).trim());
  if (code !== 0 || !Number.isFinite(ms)) {
    throw new Error(
      `Cannot time a raw first open as bench/_raw_first_open.ts failed: current exit code is ${code}`,
    );
  }
  return ms;
}
