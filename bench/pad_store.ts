/**
 * What storing every operation before acknowledging it costs on the edit
 * path: the pad server in a child process keeping its pads in a SQLite
 * file (`--db`, WAL, `synchronous=NORMAL`, a group commit per turn of the
 * event loop), against the same pad server in memory, spoken to by one
 * raw socket over loopback, alternately in the same run:
 *
 * - one raw person's acknowledged edits per second, sending 100 edits at
 *   once and waiting for all 100 echoes, as time per edit (target 1.5x,
 *   that is at least 0.67x the in-memory rate);
 * - one edit's round trip, each sent once the last is echoed (target
 *   1.5x).
 *
 * A note gives the same with `--sync full` (each commit synced to the
 * disk), which has no target: it costs what the disk's fsync costs.
 *
 * ```sh
 * deno run -A bench/pad_store.ts
 * ```
 *
 * @module
 */

import { RawSocket } from "./_raw_socket.ts";
import { median, printRows, type Row, spawnServer } from "./_speed_tools.ts";

const SCRIPT = new URL("../src/pad_server/pad_server.ts", import.meta.url)
  .pathname;
const ROUNDS = 5;
const BURST = 100;
const BURSTS = 20;
const ROUND_TRIPS = 400;

interface Measure {
  /** Milliseconds per edit, sent 100 at a time, the median burst. */
  perEdit: number;
  /** Milliseconds of one edit's round trip, the median. */
  roundTrip: number;
}

/**
 * Time one person's edits on a fresh pad of each server, turn and turn
 * about (a burst or a round trip on one, then the same on the other), so
 * the machine's load weighs on both alike.
 */
async function measure(urls: string[], pad: string): Promise<Measure[]> {
  const sockets = await Promise.all(
    urls.map((url) => RawSocket.open(url, pad)),
  );
  const bursts = urls.map(() => [] as number[]);
  const trips = urls.map(() => [] as number[]);
  const burst = () => Array.from({ length: BURST }, () => "x");
  // Warm up both paths before timing.
  for (let i = 0; i < 5; i++) {
    for (const socket of sockets) await socket.pipeline(burst());
  }
  for (let i = 0; i < BURSTS; i++) {
    for (const [index, socket] of sockets.entries()) {
      const start = performance.now();
      await socket.pipeline(burst());
      bursts[index]!.push((performance.now() - start) / BURST);
    }
  }
  for (let i = 0; i < ROUND_TRIPS; i++) {
    for (const [index, socket] of sockets.entries()) {
      const start = performance.now();
      await socket.append("y");
      trips[index]!.push(performance.now() - start);
    }
  }
  for (const socket of sockets) socket.close();
  return sockets.map((_, index) => ({
    perEdit: median(bursts[index]!),
    roundTrip: median(trips[index]!),
  }));
}

/** A pad server child, in memory or on a fresh SQLite file. */
async function server(
  args: string[],
): Promise<{ url: string; stop(): Promise<void> }> {
  const { url, child } = await spawnServer([SCRIPT, "--port", "0", ...args]);
  return {
    url,
    async stop() {
      child.kill("SIGTERM");
      await child.status;
    },
  };
}

const dir = await Deno.makeTempDir();
try {
  const memory = await server([]);
  const durable = await server(["--db", `${dir}/normal.sqlite`]);
  const fullSync = await server([
    "--db",
    `${dir}/full.sqlite`,
    "--sync",
    "full",
  ]);
  const results = { memory: [] as Measure[], durable: [] as Measure[] };
  let synced: Measure | undefined;
  for (let round = 0; round < ROUNDS; round++) {
    const [inMemory, stored, full] = await measure(
      [memory.url, durable.url, ...(round === 0 ? [fullSync.url] : [])],
      `pad-${round}`,
    );
    results.memory.push(inMemory!);
    results.durable.push(stored!);
    synced ??= full;
  }
  for (const running of [memory, durable, fullSync]) await running.stop();
  const of = (measures: Measure[], key: keyof Measure) =>
    median(measures.map((m) => m[key]));
  const rows: Row[] = [
    {
      what: "one person's acknowledged edit, 100 at once, durable",
      ms: of(results.durable, "perEdit"),
      floor: "in memory",
      floorMs: of(results.memory, "perEdit"),
      target: 1.5,
    },
    {
      what: "one edit's round trip, durable",
      ms: of(results.durable, "roundTrip"),
      floor: "in memory",
      floorMs: of(results.memory, "roundTrip"),
      target: 1.5,
    },
  ];
  const { missed } = printRows(rows);
  const rate = (ms: number) => Math.round(1000 / ms).toLocaleString("en");
  console.log(
    `acknowledged edits per second: durable ${rate(rows[0]!.ms)}, in memory ${
      rate(rows[0]!.floorMs)
    } (${
      (rows[0]!.floorMs / rows[0]!.ms).toFixed(2)
    }x the in-memory rate, target at least 0.67x)`,
  );
  console.log(
    `with --sync full (no target): ${
      synced!.perEdit.toFixed(3)
    } ms per edit 100 at once, ${synced!.roundTrip.toFixed(3)} ms round trip`,
  );
  Deno.exitCode = missed > 0 ? 1 : 0;
} finally {
  await Deno.remove(dir, { recursive: true });
}
