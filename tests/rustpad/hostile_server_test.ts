// Bounded under a hostile server: whatever one pad's server sends, a call
// on it ends in a clear error within RUSTPAD_TIMEOUT_MS, the client's
// memory stays under 512 MiB, and calls on other pads keep working
// meanwhile. The client runs in a subprocess so that its memory is its own.

import assert from "node:assert/strict";
import { type HostileMode, startHostileServer } from "../../src/testing/mod.ts";
import type { HostileRun } from "./_hostile_client.ts";

const TIMEOUT_MS = 1500;
/** Time past the timeout for the error to travel back and sockets to close. */
const SLACK_MS = 1000;
const MAX_RSS = 512 * 1024 * 1024;
const CLIENT = new URL("./_hostile_client.ts", import.meta.url);

async function attack(
  mode: HostileMode,
  options: { operations?: number; othersWithinMs?: number } = {},
): Promise<HostileRun> {
  await using hostile = await startHostileServer({
    mode,
    ...(options.operations === undefined
      ? {}
      : { operations: options.operations }),
  });
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", CLIENT.href, hostile.url, String(TIMEOUT_MS)],
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  const stdout = new TextDecoder().decode(output.stdout);
  assert.ok(
    output.success,
    `the client process failed: ${new TextDecoder().decode(output.stderr)}`,
  );
  assert.ok(hostile.attacks >= 1, "the client met the hostile socket");
  const run: HostileRun = JSON.parse(stdout.trim().split("\n").at(-1)!);
  assert.ok(
    run.elapsedMs < TIMEOUT_MS + SLACK_MS,
    `the hostile call ended after ${Math.round(run.elapsedMs)} ms`,
  );
  assert.ok(run.peakRss < MAX_RSS, `peak RSS ${run.peakRss >> 20} MiB`);
  assert.deepEqual(run.otherErrors, [], "calls on another pad succeed");
  assert.ok(run.othersMs.length >= 2);
  assert.ok(
    Math.max(...run.othersMs) < (options.othersWithinMs ?? TIMEOUT_MS),
    `calls on another pad took up to ${
      Math.round(Math.max(...run.othersMs))
    } ms`,
  );
  assert.ok(run.error !== null, "the hostile call failed");
  return run;
}

Deno.test("a pad whose server sends a history of 1,000,000 operations fails its call within the timeout, within 512 MiB, other pads unhindered", async () => {
  const run = await attack("huge-history");
  assert.match(run.error!, /within 1500 ms/);
});

Deno.test("a pad whose server sends a 16 MB history of 600,000 operations fails its call in time and holds other pads up less than a second", async () => {
  // Read a slice at a time: other pads are answered between slices.
  const run = await attack("huge-history", {
    operations: 600_000,
    // Parsed whole, this held other pads up 1.4 to 1.6 s.
    othersWithinMs: 1_000,
  });
  assert.match(run.error!, /within 1500 ms/);
});

Deno.test("a pad whose server sends a 100 MiB frame fails its call within the timeout, within 512 MiB, other pads unhindered", async () => {
  await attack("huge-frame");
});

Deno.test("a pad whose server sends a 100 MiB frame fails its call saying the frame was too large", async () => {
  const run = await attack("huge-frame");
  assert.match(run.error!, /too large/i);
});

Deno.test("a pad whose server sends one byte a second fails its call within the timeout, other pads unhindered", async () => {
  const run = await attack("dribble");
  assert.match(run.error!, /did not open pad "hostile" within 1500 ms/);
});

Deno.test("a pad whose server floods UserInfo messages fails its call within the timeout, within 512 MiB, other pads unhindered", async () => {
  const run = await attack("userinfo-flood");
  assert.match(
    run.error!,
    /Cannot track another user|did not open pad "hostile" within 1500 ms/,
  );
});
