/**
 * The 2026-era load rows of `speed.ts` alone: 50 v2 clients pinned to
 * 2026-07-28 on `mod.ts --http`, each reading and appending on its own pad
 * in a loop, against a bare v2 server with one trivial tool in the same
 * run; the table and the note as `speed.ts` prints them. For working on
 * the MCP server's cost per request without the minutes of the whole run.
 *
 * Run: `deno run -A bench/load.ts [seconds]` (20 by default, as in
 * `speed.ts`). Exit code 1 if a target is missed.
 *
 * @module
 */

import { printRows, spawnServer } from "./_speed_tools.ts";
import { loadRows } from "./_era_rows.ts";

const ROOT = new URL("../", import.meta.url).pathname;
const seconds = Number(Deno.args[0] ?? 20);
if (!Number.isFinite(seconds) || seconds <= 0) {
  throw new RangeError(
    `Cannot run the load for ${Deno.args[0]} seconds: give a positive number`,
  );
}

const pad = await spawnServer([`${ROOT}src/pad_server/pad_server.ts`]);
const env = { RUSTPAD_URL: pad.url, RUSTPAD_CONFIRM: "never" };
const { rows, note } = await loadRows(env, seconds);
pad.child.kill();
await pad.child.status;
const { missed } = printRows(rows);
console.log(note);
Deno.exit(missed === 0 ? 0 : 1);
