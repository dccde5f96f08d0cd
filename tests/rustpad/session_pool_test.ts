import assert from "node:assert/strict";
import { SessionPool, TextOperation } from "../../src/mod.ts";
import { startPadServer } from "../../src/testing/mod.ts";
import { waitFor } from "../_wait.ts";

const users = async (url: string, pad: string): Promise<number> => {
  // A fresh listener counts the announced users it is told about.
  await using pool = new SessionPool(url);
  const session = await pool.get(pad);
  return session.users.size;
};

Deno.test("`SessionPool.get()` shares one connection per pad, even for concurrent calls", async () => {
  await using server = await startPadServer();
  await using pool = new SessionPool(server.url, {
    user: { name: "agent", hue: 1 },
  });
  const [a, b] = await Promise.all([pool.get("shared"), pool.get("shared")]);
  assert.equal(a, b);
  assert.equal(await pool.get("shared"), a);
  assert.notEqual(await pool.get("other"), a);
  assert.equal(await users(server.url, "shared"), 1);
});

Deno.test("`SessionPool.get()` reconnects after the server dropped the session", async () => {
  await using server = await startPadServer();
  await using pool = new SessionPool(server.url);
  const first = await pool.get("flaky");
  server.sendRaw("flaky", "not json");
  await waitFor(() => !first.isOpen, "the session to fail");
  const second = await pool.get("flaky");
  assert.notEqual(second, first);
  assert.equal(second.isOpen, true);
});

Deno.test("`SessionPool` closes a session after it has been idle", async () => {
  await using server = await startPadServer();
  await using pool = new SessionPool(server.url, { idleMs: 50 });
  const session = await pool.get("idle");
  await waitFor(() => !session.isOpen, "the idle session to close");
  assert.notEqual(await pool.get("idle"), session);
});

Deno.test("`SessionPool.edit()` builds on the live text and reports the new length", async () => {
  await using server = await startPadServer();
  await using pool = new SessionPool(server.url);
  const outcome = await pool.edit(
    "edit",
    (session) => new TextOperation().retain(session.length).insert("🎉!"),
  );
  const session = await pool.get("edit");
  assert.deepEqual(outcome, {
    revision: 1,
    text: "🎉!",
    length: 2,
    recovered: false,
    // What names the edit across restarts: the history up to it, and it.
    mark: {
      lineage: session.lineageAt(1),
      operation: session.operationDigest(0),
    },
  });
  assert.match(outcome.mark!.lineage, /^[\w-]{22}$/);
  await assert.rejects(
    pool.edit("edit", () => {
      throw new Error("refused by the builder");
    }),
    /refused by the builder/,
  );
});

Deno.test("`SessionPool.get()` fails after `close()`", async () => {
  await using server = await startPadServer();
  const pool = new SessionPool(server.url);
  const session = await pool.get("gone");
  await pool.close();
  assert.equal(session.isOpen, false);
  await assert.rejects(pool.get("gone"), /session pool is closed/);
});
