// The pool's bound on open sessions: idle ones close least recently used
// first to make room; held, opening and unacknowledged ones never do; when
// all are held, opening another is refused with OpenPadLimitError.

import assert from "node:assert/strict";
import {
  OpenPadLimitError,
  SessionPool,
  TextOperation,
} from "../../src/mod.ts";
import { startPadServer } from "../../src/testing/mod.ts";
import { waitFor } from "../_wait.ts";

Deno.test("`SessionPool` closes the least recently used idle session to open one past maxOpen", async () => {
  await using server = await startPadServer();
  await using pool = new SessionPool(server.url, { maxOpen: 3 });
  const a = await pool.get("a");
  const b = await pool.get("b");
  const c = await pool.get("c");
  await pool.get("a"); // a is now the most recently used; b the least.
  const d = await pool.get("d");
  await waitFor(() => !b.isOpen, "b to close");
  assert.ok(a.isOpen && c.isOpen && d.isOpen);
  assert.equal(pool.openCount, 3);
  await pool.get("e");
  await waitFor(() => !c.isOpen, "c to close next");
  assert.equal(pool.openCount, 3);
});

Deno.test("`SessionPool` never closes a held pad; with all held it refuses a new one, naming the variable and the count", async () => {
  await using server = await startPadServer();
  await using pool = new SessionPool(server.url, { maxOpen: 2 });
  const releaseA = pool.retain("a");
  const releaseB = pool.retain("b");
  const a = await pool.get("a");
  const b = await pool.get("b");
  await assert.rejects(pool.get("c"), (error: Error) => {
    assert.ok(error instanceof OpenPadLimitError);
    assert.equal(error.padId, "c");
    assert.equal(error.limit, 2);
    assert.match(
      error.message,
      /^Cannot open pad "c" as this server already has the most pads open that RUSTPAD_MAX_OPEN_PADS=2 allows, each in use by a subscription, a wait or a call in flight: current count is 2\. Nothing was changed/,
    );
    return true;
  });
  assert.ok(a.isOpen && b.isOpen);
  // Held pads still answer; once one is let go, it makes room.
  assert.equal(await pool.get("a"), a);
  releaseB();
  const c = await pool.get("c");
  await waitFor(() => !b.isOpen, "b to close");
  assert.ok(a.isOpen && c.isOpen);
  releaseA();
});

Deno.test("`SessionPool` never closes a session whose edit awaits its acknowledgement", async () => {
  await using server = await startPadServer();
  await using pool = new SessionPool(server.url, { maxOpen: 1 });
  const a = await pool.get("a");
  server.delayNextAck({ pad: "a", ms: 300 });
  const acked = a.submit(new TextOperation().insert("kept"));
  await assert.rejects(pool.get("b"), OpenPadLimitError);
  assert.equal((await acked).text, "kept");
  const b = await pool.get("b");
  await waitFor(() => !a.isOpen, "a to close once acknowledged");
  assert.ok(b.isOpen);
  assert.equal(server.text("a"), "kept");
});

Deno.test("`SessionPool` counts a pad still connecting, so concurrent opens never pass maxOpen", async () => {
  await using server = await startPadServer();
  await using pool = new SessionPool(server.url, { maxOpen: 2 });
  const holds = ["a", "b", "c"].map((id) => pool.retain(id));
  const opened = await Promise.allSettled(
    ["a", "b", "c"].map((id) => pool.get(id)),
  );
  assert.deepEqual(opened.map((outcome) => outcome.status), [
    "fulfilled",
    "fulfilled",
    "rejected",
  ]);
  assert.equal(pool.openCount, 2);
  for (const release of holds) release();
});
