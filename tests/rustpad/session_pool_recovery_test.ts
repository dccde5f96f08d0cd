// What `SessionPool.edit()` answers when an edit's acknowledgement never
// came: after the server ended the connection, and after our own side gave up
// (a timeout, a malformed frame), it reconnects, waits until the server has
// finished with the old connection, and reads the answer from the history.

import assert from "node:assert/strict";
import {
  EditNotAcknowledgedError,
  SessionPool,
  TextOperation,
} from "../../src/mod.ts";
import {
  type PadServer,
  SqlitePadDatabase,
  startPadServer,
} from "../../src/testing/mod.ts";
import { freePort } from "../_free_port.ts";

const AGENT = { name: "agent", hue: 1 };
const append = (text: string) => (session: { length: number }) =>
  new TextOperation().retain(session.length).insert(text);

/**
 * A pad server holding pad `pad` with `text`, and a pool of our agent's
 * sessions (with `timeoutMs`) that has it open; both closed on disposal.
 */
async function openPad(
  pad: string,
  text: string,
  timeoutMs: number,
): Promise<
  { server: PadServer; pool: SessionPool } & AsyncDisposable
> {
  const server = await startPadServer({ pads: { [pad]: { text } } });
  const pool = new SessionPool(server.url, { user: AGENT, timeoutMs });
  await pool.get(pad);
  return {
    server,
    pool,
    async [Symbol.asyncDispose]() {
      await pool[Symbol.asyncDispose]();
      await server[Symbol.asyncDispose]();
    },
  };
}

/** The error a call fails with; a call that succeeds fails the test. */
async function failureOf(call: Promise<unknown>): Promise<Error> {
  try {
    await call;
  } catch (error) {
    return error as Error;
  }
  return assert.fail("the edit must fail");
}

Deno.test("`SessionPool.edit()` answers applied when the edit landed but its acknowledgement came after our timeout", async () => {
  await using opened = await openPad("slow", "a", 300);
  const { server, pool } = opened;
  server.setFrameDelay(2_000);
  const outcome = pool.edit("slow", append("b"));
  // Only frames already queued stay late; the check's new connection is not.
  setTimeout(() => server.setFrameDelay(0), 50);
  const result = await outcome;
  assert.equal(result.recovered, true);
  assert.equal(result.text, "ab");
  assert.equal(server.text("slow"), "ab");
});

Deno.test("`SessionPool.edit()` answers applied when the server closed the connection after applying the edit", async () => {
  await using opened = await openPad("cut", "x", 2_000);
  const { server, pool } = opened;
  server.dropNextEdit({ pad: "cut", when: "after-apply" });
  const result = await pool.edit("cut", append("y"));
  assert.deepEqual([result.recovered, result.text], [true, "xy"]);
});

Deno.test("`SessionPool.edit()` says not applied and safe to retry when the server closed the connection before applying", async () => {
  await using opened = await openPad("cut", "x", 2_000);
  const { server, pool } = opened;
  server.dropNextEdit({ pad: "cut", when: "before-apply" });
  const error = await failureOf(pool.edit("cut", append("y")));
  assert.ok(error instanceof EditNotAcknowledgedError);
  assert.match(error.message, /did not land .* it is safe to try again/);
  assert.equal(server.text("cut"), "x");
});

Deno.test("`SessionPool.edit()` says unknown only when Rustpad cannot be reached to check", async () => {
  const server = await startPadServer({ pads: { gone: { text: "x" } } });
  await using pool = new SessionPool(server.url, {
    user: AGENT,
    timeoutMs: 300,
  });
  await pool.get("gone");
  server.setFrameDelay(5_000);
  const outcome = failureOf(pool.edit("gone", append("y")));
  await new Promise((resolve) => setTimeout(resolve, 50));
  await server.close();
  const error = await outcome;
  assert.ok(error instanceof EditNotAcknowledgedError);
  assert.match(
    error.message,
    /Reconnecting to check failed too .* whether the edit landed is unknown/,
  );
});

Deno.test("`SessionPool.edit()` says not applied and safe to retry when the server never read the edit before our timeout", async () => {
  await using opened = await openPad("stuck", "x", 300);
  const { server, pool } = opened;
  server.stallNextEdit({ pad: "stuck" });
  const error = await failureOf(pool.edit("stuck", append("y")));
  assert.ok(error instanceof EditNotAcknowledgedError);
  assert.equal(error.kind, "timeout");
  assert.match(error.message, /did not land .* it is safe to try again/);
  assert.equal(server.text("stuck"), "x");
});

Deno.test("`SessionPool.edit()` waits for a late departure before it reads the answer", async () => {
  await using opened = await openPad("late", "x", 400);
  const { server, pool } = opened;
  server.delayNextAck({ pad: "late", ms: 2_000 });
  server.delayNextDeparture({ pad: "late", ms: 200 });
  const result = await pool.edit("late", append("y"));
  assert.deepEqual([result.recovered, result.text], [true, "xy"]);
  assert.equal(server.text("late"), "xy");
});

Deno.test("`SessionPool.edit()` says not applied when a stalled edit's departure is late", async () => {
  await using opened = await openPad("late", "x", 400);
  const { server, pool } = opened;
  server.stallNextEdit({ pad: "late" });
  server.delayNextDeparture({ pad: "late", ms: 200 });
  const error = await failureOf(pool.edit("late", append("y")));
  assert.match(error.message, /did not land .* it is safe to try again/);
  assert.equal(server.text("late"), "x");
});

Deno.test("`SessionPool.edit()` says unknown when the departure never comes within the timeout", async () => {
  await using opened = await openPad("never", "x", 300);
  const { server, pool } = opened;
  server.stallNextEdit({ pad: "never" });
  server.delayNextDeparture({ pad: "never", ms: 3_000 });
  const error = await failureOf(pool.edit("never", append("y")));
  assert.match(
    error.message,
    /did not confirm within 900 ms that it finished with the old connection, so whether the edit landed is unknown/,
  );
});

Deno.test("`SessionPool.edit()` answers applied when the edit lands after our timeout, with the departure overtaking its history", async () => {
  await using opened = await openPad("race", "x", 300);
  const { server, pool } = opened;
  // The server takes 800 ms over the edit: our side gives up at 300 ms and
  // opens the check's connection before the edit lands; then the departure
  // reaches that connection before the history that holds the edit.
  server.slowNextEdit({ pad: "race", ms: 800 });
  server.delayNextHistory({ pad: "race", ms: 5_000 });
  const result = await pool.edit("race", append("y"));
  assert.deepEqual([result.recovered, result.text], [true, "xy"]);
  assert.equal(server.text("race"), "xy");
});

Deno.test("`SessionPool.edit()` says not applied when a slow server drops the edit after our timeout", async () => {
  await using opened = await openPad("race", "x", 300);
  const { server, pool } = opened;
  server.slowNextEdit({ pad: "race", ms: 800 });
  server.dropNextEdit({ pad: "race", when: "before-apply" });
  const error = await failureOf(pool.edit("race", append("y")));
  assert.match(error.message, /did not land .* it is safe to try again/);
  assert.equal(server.text("race"), "x");
});

Deno.test("`SessionPool.edit()` answers applied at once when the history already holds the edit, however late the departure", async () => {
  await using opened = await openPad("held", "x", 300);
  const { server, pool } = opened;
  server.delayNextAck({ pad: "held", ms: 2_000 });
  server.delayNextDeparture({ pad: "held", ms: 5_000 });
  const result = await pool.edit("held", append("y"));
  assert.deepEqual([result.recovered, result.text], [true, "xy"]);
});

/**
 * Pad `pad` with `text` (none: never stored) on a pad server kept in a
 * file, and a pool whose
 * `upstreamBack` starts the server again on the same port and file (as an
 * embedded agent does) the first time a connection is refused.
 */
async function restartablePad(pad: string, text?: string) {
  const dir = await Deno.makeTempDir();
  const path = `${dir}/pads.sqlite`;
  const databases = [new SqlitePadDatabase(path)];
  if (text !== undefined) databases[0]!.set(pad, { text, language: null });
  // A port nothing else is handed while the pad server is down.
  const port = freePort();
  const servers = [await startPadServer({ database: databases[0]!, port })];
  let backs = 0;
  const pool = new SessionPool(servers[0]!.url, {
    user: AGENT,
    timeoutMs: 2_000,
    upstreamBack: async () => {
      if (++backs === 1) {
        // The file is the first server's until it closed.
        await servers[0]!.close();
        databases[0]!.close();
        databases.push(new SqlitePadDatabase(path));
        servers.push(
          await startPadServer({ database: databases[1]!, port }),
        );
      }
      return true;
    },
  });
  await pool.get(pad);
  return {
    pool,
    first: servers[0]!,
    latest: () => servers.at(-1)!,
    backs: () => backs,
    /** Append `text` to `pad`, its edit never read: the server closes first. */
    async appendAsServerStops(text: string) {
      servers[0]!.stallNextEdit({ pad });
      const outcome = pool.edit(pad, append(text));
      outcome.catch(() => {/* Awaited by the caller. */});
      await new Promise((resolve) => setTimeout(resolve, 50));
      await servers[0]!.close();
      return await outcome;
    },
    async [Symbol.asyncDispose]() {
      await pool.close();
      for (const server of servers) await server.close();
      for (const database of databases) database.close();
      await Deno.remove(dir, { recursive: true });
    },
  };
}

Deno.test("`SessionPool.edit()` sends an edit once more, and lands it, when its server went away before reading it and reopening waited for the server to start again", async () => {
  await using pad = await restartablePad("gone", "x");
  const result = await pad.appendAsServerStops("y");
  assert.equal(result.recovered, false);
  assert.equal(result.text, "xy");
  assert.equal(pad.latest().text("gone"), "xy");
  assert.equal(pad.backs(), 1);
});

Deno.test("`SessionPool.edit()` says not applied, and sends nothing again, when a server that stayed up hung up on the edit, even with a way to wait for it", async () => {
  await using pad = await restartablePad("cut", "x");
  pad.first.dropNextEdit({ pad: "cut", when: "before-apply" });
  const error = await failureOf(pad.pool.edit("cut", append("y")));
  assert.match(error.message, /did not land .* it is safe to try again/);
  assert.equal(pad.first.text("cut"), "x");
  assert.equal(pad.backs(), 0);
});

Deno.test("`SessionPool.edit()` lands an edit sent once more to a pad never stored, whose restarted server gave the lost connection's user id to the new one", async () => {
  await using pad = await restartablePad("blank");
  const result = await pad.appendAsServerStops("y");
  assert.equal(result.text, "y");
  assert.equal(pad.latest().text("blank"), "y");
});
