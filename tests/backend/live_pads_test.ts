import assert from "node:assert/strict";
import { LivePads } from "../../src/backend/live_pads.ts";
import { SessionPool } from "../../src/rustpad/session_pool.ts";
import { startPadServer } from "../../src/testing/mod.ts";
import { waitFor } from "../_wait.ts";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

Deno.test("a watched pad stays open past the idle time and closes once unwatched", async () => {
  await using pads = await startPadServer();
  await using pool = new SessionPool(pads.url, { idleMs: 50 });
  const live = LivePads.of(pool);
  const { session, unwatch } = await live.watch("held", () => {});
  await sleep(200);
  assert.equal(session.isOpen, true);
  assert.deepEqual(live.openPads, ["held"]);
  unwatch();
  await waitFor(() => !session.isOpen, "the idle session to close");
  assert.deepEqual(live.openPads, []);
});

Deno.test("an unwatched pad closes after the idle time", async () => {
  await using pads = await startPadServer();
  await using pool = new SessionPool(pads.url, { idleMs: 50 });
  LivePads.of(pool);
  const session = await pool.get("idle");
  await waitFor(() => !session.isOpen, "the idle session to close");
});

Deno.test("a watched pad whose connection drops is reconnected and its watchers told", async () => {
  await using pads = await startPadServer();
  await using pool = new SessionPool(pads.url);
  const live = LivePads.of(pool);
  const events: string[] = [];
  const { session, unwatch } = await live.watch("drop", (_, event) => {
    events.push(event.type);
  });
  // A frame the session cannot read makes it fail and close.
  pads.sendRaw("drop", "{oops");
  await waitFor(() => events.includes("reconnected"), "the reconnect");
  assert.equal(session.isOpen, false);
  assert.deepEqual(live.openPads, ["drop"]);
  unwatch();
});
