// The rows of bench/speed.ts that set the 2026 era against a floor of its
// own: the append inside the server against the same in the 2025 era, and
// 50 clients on `--http` against a bare v2 server.

import { RawRpc } from "./_raw_rpc.ts";
import {
  type Row,
  spawnHttp,
  spawnServer,
  timedInBlocks,
  timedInTurn,
} from "./_speed_tools.ts";
import { load } from "./_modern_load.ts";

const ROOT = new URL("../", import.meta.url).pathname;

/**
 * The append inside the server, timed in turn by bare JSON-RPC peers of
 * either era, each with a fresh server: what the era costs the server,
 * without the clients' share. First over the servers' first `runs` calls,
 * as a session makes them; then again once each has made `warm` more,
 * when V8 has compiled both eras' paths, in blocks of 50 calls. The bare
 * SDK append server (`_bare_append_server.ts`) is timed the same way in the
 * same rounds: its own ratio, in the note, is what the SDK's path of each
 * era costs with nothing of ours.
 */
export async function appendInsideRows(
  env: Record<string, string>,
  runs: number,
  warm: number,
): Promise<{ rows: Row[]; note: string }> {
  const bare = `${ROOT}bench/_bare_append_server.ts`;
  const peers = [
    await RawRpc.start(`${ROOT}mod.ts`, env),
    await RawRpc.start(`${ROOT}mod.ts`, env, [], true),
    await RawRpc.start(bare, env),
    await RawRpc.start(bare, env, [], true),
  ];
  const pads = ["2025", "2026", "bare-2025", "bare-2026"];
  const tasks = peers.map((peer, i) => () =>
    peer.timeTool("append_to_document", {
      id: `bench-inside-${pads[i]}`,
      text: "a\n",
    })
  );
  const first = await timedInTurn(runs, tasks, 3, true);
  const warmed = await timedInBlocks(Math.ceil(runs / 50), 50, tasks, warm);
  for (const peer of peers) await peer.close();
  const row = (times: number[], when: string): Row => ({
    what: `append inside the server, 2026-07-28${when}`,
    ms: times[1]!,
    floor: `the same, 2025 era${when}`,
    floorMs: times[0]!,
    target: 1.1,
  });
  const bareRatio = (times: number[]) =>
    `${times[3]!.toFixed(2)} ms in the 2026 era, ${
      times[2]!.toFixed(2)
    } ms in the 2025 era (${(times[3]! / times[2]!).toFixed(2)}x)`;
  return {
    rows: [row(first, ""), row(warmed, ", warm")],
    note: `the bare SDK append inside its server, timed in the same rounds: ${
      bareRatio(first)
    }; warm, ${bareRatio(warmed)}`,
  };
}

/**
 * Load in the 2026 era: 50 clients on `--http`, each reading and appending
 * on its own pad in a loop for `seconds`, against a bare v2 server with one
 * trivial tool in the same run: at least half its calls/s, p95 within 2x.
 */
export async function loadRows(
  env: Record<string, string>,
  seconds: number,
): Promise<{ rows: Row[]; note: string }> {
  const http = await spawnHttp(env);
  const ours = await load(http.url, 50, seconds, async (call, index) => {
    await call("get_document", { id: `bench-load-${index}` });
    await call("append_to_document", {
      id: `bench-load-${index}`,
      text: "x\n",
    });
  });
  const bare = await spawnServer([`${ROOT}bench/_bare_modern_server.ts`]);
  const floor = await load(bare.url, 50, seconds, async (call) => {
    await call("echo", { text: "x" });
    await call("echo", { text: "x" });
  });
  for (const server of [http, bare]) {
    server.child.kill();
    await server.child.status;
  }
  const rows = [{
    what: "2026 era, 50 clients on --http: 1 / calls per s",
    ms: 1000 / ours.callsPerSecond,
    floor: "bare v2 server, 1 / calls per s",
    floorMs: 1000 / floor.callsPerSecond,
    target: 2,
  }, {
    what: "2026 era, 50 clients on --http: p95",
    ms: ours.p95,
    floor: "bare v2 server, p95",
    floorMs: floor.p95,
    target: 2,
  }];
  const note = `2026 load over ${seconds} s: ${
    ours.callsPerSecond.toFixed(0)
  } calls/s, p50 ${ours.p50.toFixed(1)} ms, p95 ${
    ours.p95.toFixed(1)
  } ms (bare v2 server: ${floor.callsPerSecond.toFixed(0)} calls/s, p50 ${
    floor.p50.toFixed(1)
  } ms, p95 ${floor.p95.toFixed(1)} ms)`;
  return { rows, note };
}
