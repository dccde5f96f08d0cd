/**
 * The pad server's crowd and snapshot bounds, each as a ratio to a floor
 * measured in the same run:
 *
 * - 10,000 sockets on one pad, idle: an edit round trip on another pad,
 *   against the same before they opened (target 2x);
 * - the 10,000 leaving at once: the same edit meanwhile (target 2x), and
 *   how long until the pad takes a socket again (freed);
 * - a snapshot of 2,000 changed pads into SQLite, which holds the event
 *   loop while it runs, against a bare `node:sqlite` transaction of the
 *   same rows (target 2x, and under 100 ms).
 *
 * The pad server of the first two runs in a process of its own, spoken to
 * over loopback by raw sockets of this one.
 *
 * ```sh
 * bash -c 'ulimit -n 20000 && deno run -A bench/pad_server_bounds.ts'
 * ```
 *
 * @module
 */

import { DatabaseSync } from "node:sqlite";
import { SqlitePadDatabase, startPadServer } from "../src/pad_server/mod.ts";
import { Crowd, firstFrame } from "../tests/pad_server/_crowd.ts";
import { RawSocket } from "./_raw_socket.ts";
import { median, printRows, type Row, spawnServer } from "./_speed_tools.ts";

const SOCKETS = Number(Deno.args[0] ?? 10_000);
const PADS = 2000;
const rows: Row[] = [];
const notes: string[] = [];

/** Each round trip of `count` appends on `socket`, in ms. */
async function roundTrips(socket: RawSocket, count: number): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < count; i++) {
    const start = performance.now();
    await socket.append("x");
    times.push(performance.now() - start);
  }
  return times;
}

// 1 and 2. The crowd, in a pad server of its own.
const server = await spawnServer([
  new URL("../src/pad_server/pad_server.ts", import.meta.url).pathname,
  "--max-connections",
  String(SOCKETS + 100),
  "--max-sockets-per-pad",
  String(SOCKETS),
]);
const typist = await RawSocket.open(server.url, "other");
await roundTrips(typist, 1000);
const quiet = median(await roundTrips(typist, 1000));
let start = performance.now();
const crowd = await Crowd.open(server.url, "crowd", SOCKETS);
notes.push(
  `${SOCKETS} sockets opened in ${(performance.now() - start).toFixed(0)} ms`,
);
const idle = median(await roundTrips(typist, 1000));
rows.push({
  what: `edit beside ${SOCKETS} idle sockets`,
  ms: idle,
  floor: "edit, quiet",
  floorMs: quiet,
  target: 2,
});
start = performance.now();
crowd.leave();
const during: number[] = [];
let freed: number | undefined;
const probing = (async () => {
  while ((await firstFrame(server.url, "crowd")).opcode !== 1) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  freed = performance.now() - start;
})();
while (freed === undefined) during.push(...await roundTrips(typist, 10));
await probing;
rows.push({
  what: `edit while ${SOCKETS} sockets leave`,
  ms: median(during),
  floor: "edit, quiet",
  floorMs: quiet,
  target: 2,
});
notes.push(
  `${SOCKETS} sockets leaving one pad freed in ${
    freed.toFixed(0)
  } ms; ${during.length} edits meanwhile, the slowest ${
    Math.max(...during).toFixed(1)
  } ms`,
);
typist.close();
server.child.kill();
await server.child.status;

// 3. The snapshot of 2,000 changed pads, in this process.
const path = await Deno.makeTempFile({ suffix: ".sqlite" });
const floorPath = await Deno.makeTempFile({ suffix: ".sqlite" });
try {
  using database = new SqlitePadDatabase(path);
  await using pads = await startPadServer({
    database,
    snapshotIntervalMs: 0,
  });
  for (let i = 0; i < PADS; i += 100) {
    await Promise.all(
      Array.from({ length: 100 }, async (_, j) => {
        const socket = await RawSocket.open(pads.url, `pad-${i + j}`);
        await socket.append(`pad ${i + j} `.repeat(20));
        socket.close();
      }),
    );
  }
  start = performance.now();
  if (!pads.snapshot()) throw new Error("The snapshot failed");
  const snapshotMs = performance.now() - start;
  // The floor: the same rows in one bare transaction, the same pragmas.
  const bare = new DatabaseSync(floorPath);
  bare.exec("PRAGMA journal_mode = WAL");
  bare.exec("PRAGMA synchronous = NORMAL");
  bare.exec(
    "CREATE TABLE document(id TEXT PRIMARY KEY, text TEXT NOT NULL, language TEXT)",
  );
  const upsert = bare.prepare(
    `INSERT INTO document (id, text, language) VALUES (?, ?, ?)
     ON CONFLICT(id) DO UPDATE SET text = excluded.text, language = excluded.language`,
  );
  start = performance.now();
  bare.exec("BEGIN IMMEDIATE");
  for (let i = 0; i < PADS; i++) {
    upsert.run(`pad-${i}`, `pad ${i} `.repeat(20), null);
  }
  bare.exec("COMMIT");
  const floorMs = performance.now() - start;
  bare.close();
  rows.push({
    what: `snapshot of ${PADS} changed pads`,
    ms: snapshotMs,
    floor: "bare transaction",
    floorMs,
    target: 2,
  });
  notes.push(
    `the snapshot of ${PADS} pads held the event loop ${
      snapshotMs.toFixed(1)
    } ms (bound: 100 ms)`,
  );
  if (snapshotMs > 100) notes.push("MISSED: the snapshot held it over 100 ms");
} finally {
  for (const file of [path, floorPath]) {
    for (const suffix of ["", "-wal", "-shm"]) {
      await Deno.remove(`${file}${suffix}`).catch(() => {});
    }
  }
}

const missed = printRows(rows);
for (const note of notes) console.log(note);
Deno.exit(missed > 0 || notes.some((n) => n.startsWith("MISSED")) ? 1 : 0);
