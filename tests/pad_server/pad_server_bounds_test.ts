// The pad server's bounds per socket and per pad, driven past each over
// real sockets: a client that never reads is dropped once its queue is
// full (memory stays bounded), a pad refuses one socket more than its cap
// with a close reason, a long name is cut, a half-sent head gets 408.

import assert from "node:assert/strict";
import { startPadServer } from "../../src/pad_server/mod.ts";
import { firstFrame, openRaw } from "./_crowd.ts";
import { TestClient } from "./_test_client.ts";
import { RawConnection } from "../_tcp.ts";
import { spawnServer } from "../../bench/_speed_tools.ts";

const MIB = 1024 * 1024;

/** Read and drop everything until the server closes; the bytes read. */
async function drainUntilClosed(conn: Deno.Conn): Promise<number> {
  const chunk = new Uint8Array(1 << 20);
  let total = 0;
  for (;;) {
    const count = await conn.read(chunk).catch(() => null);
    if (count === null) return total;
    total += count;
  }
}

/** The resident memory of process `pid`, in bytes, from /proc. */
async function residentBytes(pid: number): Promise<number> {
  const status = await Deno.readTextFile(`/proc/${pid}/status`);
  return Number(/^VmRSS:\s+(\d+) kB/m.exec(status)?.[1]) * 1024;
}

Deno.test("clients that never read are dropped once 64 MiB wait for them, while the server stays under 512 MiB and the pad goes on", async () => {
  const server = await spawnServer([
    new URL("../../src/pad_server/pad_server.ts", import.meta.url).pathname,
  ]);
  try {
    const readers = await Promise.all(
      Array.from({ length: 5 }, () => openRaw(server.url, "big")),
    );
    // A writer that keeps nothing it receives, so only the server holds.
    const writer = new WebSocket(`${server.url}/api/socket/big`);
    let received = 0;
    writer.onmessage = () => received++;
    const until = async (count: number) => {
      while (received < count) {
        await new Promise((resolve) => setTimeout(resolve, 1));
      }
    };
    await until(1);
    // 1 MiB per History frame (262,144 four-byte code points), 160 frames:
    // 160 MiB for each client that does not read.
    const text = "🎉".repeat(262_144);
    let peak = 0;
    for (let revision = 0; revision < 160; revision++) {
      const operation = revision % 2 === 0 ? [text] : [-262_144];
      writer.send(JSON.stringify({ Edit: { revision, operation } }));
      await until(revision + 2);
      peak = Math.max(peak, await residentBytes(server.child.pid));
    }
    assert.ok(peak < 512 * MIB, `peak RSS ${Math.round(peak / MIB)} MiB`);
    // Each was dropped: what reached its kernel buffers, then the end.
    for (const { conn } of readers) {
      const read = await drainUntilClosed(conn);
      assert.ok(read < 160 * MIB, `${read} bytes reached a dropped client`);
      conn.close();
    }
    const response = await fetch(`${server.url}/api/text/big`);
    assert.equal(await response.text(), "");
    writer.close();
  } finally {
    server.child.kill();
    await server.child.status;
  }
});

Deno.test("a pad takes maxSocketsPerPad sockets and closes the next with 1013 and the reason, other pads unaffected", async () => {
  await using server = await startPadServer({ maxSocketsPerPad: 3 });
  const ws = server.url;
  const held = [0, 1, 2].map(() => new TestClient(ws, "full"));
  await Promise.all(held.map((client) => client.next(1)));
  const refused = await firstFrame(server.url, "full");
  assert.equal(refused.opcode, 8);
  assert.match(
    refused.text ?? "",
    /^1013 Cannot join the pad as 3 sockets are open on it \(RUSTPAD_EMBEDDED_MAX_SOCKETS_PER_PAD\)$/,
  );
  const other = await firstFrame(server.url, "other");
  assert.deepEqual([other.opcode, other.text], [1, '{"Identity":0}']);
  // A slot freed is a slot taken; the refused socket took no user id.
  await held[0]!.close();
  let again = await firstFrame(server.url, "full");
  for (let i = 0; i < 50 && again.opcode !== 1; i++) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    again = await firstFrame(server.url, "full");
  }
  assert.deepEqual([again.opcode, again.text], [1, '{"Identity":3}']);
  await Promise.all(held.slice(1).map((client) => client.close()));
});

Deno.test("a name of 5 MB is cut to 256 code points before it is stored and broadcast", async () => {
  await using server = await startPadServer();
  const ws = server.url;
  const person = new TestClient(ws, "names");
  await person.next(1);
  person.send(
    JSON.stringify({ ClientInfo: { name: "é".repeat(2_500_000), hue: 7 } }),
  );
  const [echo] = await person.next(1);
  const name = `${"é".repeat(255)}…`;
  assert.equal(
    echo,
    JSON.stringify({ UserInfo: { id: 0, info: { name, hue: 7 } } }),
  );
  const joiner = new TestClient(ws, "names");
  const welcome = await joiner.next(2);
  assert.equal(
    welcome[1],
    JSON.stringify({ UserInfo: { id: 0, info: { name, hue: 7 } } }),
  );
  await joiner.close();
  await person.close();
});

Deno.test("a message over maxMessageBytes closes its socket with 1009, and the pad takes the next one", async () => {
  await using server = await startPadServer({
    socketLimits: { maxMessageBytes: 1024 },
  });
  const ws = server.url;
  const person = new TestClient(ws, "big-message");
  await person.next(1);
  const closed = new Promise<CloseEvent>((resolve) =>
    person.socket.addEventListener("close", resolve)
  );
  person.send(JSON.stringify({ SetLanguage: "x".repeat(2000) }));
  assert.equal((await closed).code, 1009);
  const next = new TestClient(ws, "big-message");
  await next.next(1);
  next.send('{"Edit":{"revision":0,"operation":["ok"]}}');
  await next.next(1);
  assert.equal(server.text("big-message"), "ok");
  await next.close();
});

Deno.test("a request head that stops halfway gets 408 after requestTimeoutMs, and an idle keep-alive connection is closed", async () => {
  await using server = await startPadServer({
    requestTimeoutMs: 200,
    keepAliveTimeoutMs: 200,
  });
  const url = new URL(server.url);
  using half = await RawConnection.open(url, "GET /api/stats HTTP/1.1\r\n");
  assert.match(await half.untilClosed(), /^HTTP\/1\.1 408 /);
  using idle = await RawConnection.open(
    url,
    `GET /api/stats HTTP/1.1\r\nhost: ${url.host}\r\n\r\n`,
  );
  const answered = await idle.untilClosed();
  assert.match(answered, /^HTTP\/1\.1 200 /);
  assert.match(answered, /"num_documents":0/);
});
