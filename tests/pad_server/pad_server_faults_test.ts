// Fault injection: every fault does what it says, and only once.

import assert from "node:assert/strict";
import { type PadServer, startPadServer } from "../../src/pad_server/mod.ts";
import { TestClient, waitForQuiet } from "./_test_client.ts";

/** A server with pad `pad` holding "hi", and two clients A and B on it. */
async function withTwoClients(
  test: (server: PadServer, a: TestClient, b: TestClient) => Promise<void>,
): Promise<void> {
  const server = await startPadServer({ pads: { pad: { text: "hi" } } });
  const a = new TestClient(server.url, "pad");
  await a.next(2);
  const b = new TestClient(server.url, "pad");
  await b.next(2);
  try {
    await test(server, a, b);
  } finally {
    await Promise.all([a.close(), b.close()]);
    await server.close();
  }
}

Deno.test("PadServer.dropNextEdit() before-apply closes the sender without applying its edit", async () => {
  await withTwoClients(async (server, a, b) => {
    server.dropNextEdit({ pad: "pad", when: "before-apply" });
    a.send('{"Edit":{"revision":1,"operation":[2,"!"]}}');
    await a.closed;
    assert.ok(a.closedByServer);
    assert.deepEqual(a.take(), []);
    assert.deepEqual(await b.next(), ['{"UserInfo":{"id":0,"info":null}}']);
    await waitForQuiet([b], 15);
    assert.deepEqual(b.take(), []);
    const response = await fetch(`${server.url}/api/text/pad`);
    assert.equal(await response.text(), "hi");
  });
});

Deno.test("PadServer.dropNextEdit() after-apply applies and broadcasts the edit, but closes the sender before its acknowledgement", async () => {
  await withTwoClients(async (server, a, b) => {
    server.dropNextEdit({ when: "after-apply" });
    a.send('{"Edit":{"revision":1,"operation":[2,"!"]}}');
    await a.closed;
    assert.ok(a.closedByServer);
    assert.deepEqual(a.take(), []);
    assert.deepEqual(await b.next(2), [
      '{"History":{"start":1,"operations":[{"id":0,"operation":[2,"!"]}]}}',
      '{"UserInfo":{"id":0,"info":null}}',
    ]);
    const response = await fetch(`${server.url}/api/text/pad`);
    assert.equal(await response.text(), "hi!");
  });
});

Deno.test("PadServer.dropNextEdit() drops one edit, and only on its pad", async () => {
  await withTwoClients(async (server, a, b) => {
    server.dropNextEdit({ pad: "other", when: "before-apply" });
    a.send('{"Edit":{"revision":1,"operation":[2,"!"]}}');
    assert.equal((await b.next()).length, 1);
    assert.equal((await a.next()).length, 1);

    const other = new TestClient(server.url, "other");
    await other.next();
    other.send('{"Edit":{"revision":0,"operation":["x"]}}');
    await other.closed;
    assert.ok(other.closedByServer);

    // The fault is spent: the next edit on "other" goes through.
    const again = new TestClient(server.url, "other");
    await again.next();
    again.send('{"Edit":{"revision":0,"operation":["y"]}}');
    assert.deepEqual(await again.next(), [
      '{"History":{"start":0,"operations":[{"id":1,"operation":["y"]}]}}',
    ]);
    await again.close();
  });
});

Deno.test("PadServer.closeNextConnectMidHistory() sends Identity then closes, once", async () => {
  await withTwoClients(async (server, _a, b) => {
    server.closeNextConnectMidHistory({ pad: "pad" });
    const cut = new TestClient(server.url, "pad");
    await cut.closed;
    assert.ok(cut.closedByServer);
    assert.deepEqual(cut.take(), ['{"Identity":2}']);
    assert.deepEqual(await b.next(), ['{"UserInfo":{"id":2,"info":null}}']);

    const whole = new TestClient(server.url, "pad");
    assert.deepEqual(await whole.next(2), [
      '{"Identity":3}',
      '{"History":{"start":0,"operations":[{"id":18446744073709551615,"operation":["hi"]}]}}',
    ]);
    await whole.close();
  });
});

Deno.test("PadServer.setFrameDelay() holds every frame back, in order, hang-ups included", async () => {
  await withTwoClients(async (server, a, b) => {
    server.setFrameDelay(60);
    const started = performance.now();
    a.send('{"SetLanguage":"rust"}');
    a.send('{"Edit":{"revision":1,"operation":[2,"!"]}}');
    a.send("{not json");
    assert.deepEqual(await b.next(3), [
      '{"Language":"rust"}',
      '{"History":{"start":1,"operations":[{"id":0,"operation":[2,"!"]}]}}',
      '{"UserInfo":{"id":0,"info":null}}',
    ]);
    assert.ok(performance.now() - started >= 55, "the frames were delayed");
    // The server applied everything at once; only the frames were late.
    assert.equal(server.text("pad"), "hi!");
    await a.closed;
    // The sender's own connection, busy reading, may forward its Language
    // after the History, or not at all before the bad frame ends it, as the
    // real server's select! may: its History always comes.
    const own = a.take();
    assert.ok(own.includes(
      '{"History":{"start":1,"operations":[{"id":0,"operation":[2,"!"]}]}}',
    ));
    assert.deepEqual(
      own.filter((f) => !f.startsWith('{"History"')).length <= 1,
      true,
    );
    assert.ok(a.closedByServer);

    server.setFrameDelay(0);
    b.send('{"SetLanguage":"go"}');
    assert.deepEqual(await b.next(), ['{"Language":"go"}']);
    assert.throws(() => server.setFrameDelay(-1), RangeError);
  });
});

Deno.test("PadServer.sendRaw() writes a frame as it is to every connection of the pad", async () => {
  await withTwoClients(async (server, a, b) => {
    server.sendRaw("pad", '{"Identity":"not a number"}');
    server.sendRaw("nobody-here", "ignored");
    assert.deepEqual(await a.next(), ['{"Identity":"not a number"}']);
    assert.deepEqual(await b.next(), ['{"Identity":"not a number"}']);
  });
});

Deno.test("PadServer.delayNextAck() applies the edit and tells the others at once, but acknowledges it to the sender late", async () => {
  await withTwoClients(async (server, a, b) => {
    server.delayNextAck({ pad: "pad", ms: 150 });
    const started = performance.now();
    a.send('{"Edit":{"revision":1,"operation":[2,"!"]}}');
    const echo =
      '{"History":{"start":1,"operations":[{"id":0,"operation":[2,"!"]}]}}';
    assert.deepEqual(await b.next(), [echo]);
    assert.ok(performance.now() - started < 120, "the others heard at once");
    assert.equal(server.text("pad"), "hi!");
    assert.equal(a.unread, 0, "no acknowledgement yet");
    // Everything later to the sender waits behind the late acknowledgement.
    b.send('{"SetLanguage":"go"}');
    assert.deepEqual(await b.next(), ['{"Language":"go"}']);
    assert.deepEqual(await a.next(2), [echo, '{"Language":"go"}']);
    assert.ok(
      performance.now() - started >= 145,
      "the acknowledgement was late",
    );
    assert.throws(() => server.delayNextAck({ ms: -1 }), RangeError);
  });
});

Deno.test("PadServer.stallNextEdit() never applies the edit nor reads on, but keeps broadcasting to the sender until it leaves", async () => {
  await withTwoClients(async (server, a, b) => {
    server.stallNextEdit({ pad: "pad" });
    a.send('{"Edit":{"revision":1,"operation":[2,"!"]}}');
    a.send('{"SetLanguage":"never read"}');
    b.send('{"SetLanguage":"go"}');
    assert.deepEqual(await a.next(), ['{"Language":"go"}']);
    assert.deepEqual(await b.next(), ['{"Language":"go"}']);
    await waitForQuiet([a, b], 30);
    assert.deepEqual([a.take(), b.take()], [[], []]);
    assert.equal(server.text("pad"), "hi");
    await a.close();
    assert.deepEqual(await b.next(), ['{"UserInfo":{"id":0,"info":null}}']);
    assert.equal(server.text("pad"), "hi");
    // The fault is spent.
    b.send('{"Edit":{"revision":1,"operation":[2,"?"]}}');
    assert.equal((await b.next()).length, 1);
    assert.equal(server.text("pad"), "hi?");
  });
});

Deno.test("PadServer.delayNextHistory() lets the sender's departure reach the others before the history holding its edit", async () => {
  await withTwoClients(async (server, a, b) => {
    server.delayNextHistory({ pad: "pad", ms: 80 });
    a.send('{"Edit":{"revision":1,"operation":[2,"!"]}}');
    assert.equal((await a.next()).length, 1, "the sender is acknowledged");
    await a.close();
    assert.deepEqual(await b.next(2), [
      '{"UserInfo":{"id":0,"info":null}}',
      '{"History":{"start":1,"operations":[{"id":0,"operation":[2,"!"]}]}}',
    ]);
    assert.equal(server.text("pad"), "hi!");
  });
});

Deno.test("PadServer.delayNextDeparture() announces a departure late and replays the departed user until then", async () => {
  await withTwoClients(async (server, a, b) => {
    a.send('{"ClientInfo":{"name":"Ann","hue":1}}');
    const ann = '{"UserInfo":{"id":0,"info":{"name":"Ann","hue":1}}}';
    assert.deepEqual(await b.next(), [ann]);
    assert.deepEqual(await a.next(), [ann]);
    server.delayNextDeparture({ pad: "pad", ms: 150 });
    const started = performance.now();
    await a.close();
    const early = new TestClient(server.url, "pad");
    assert.deepEqual((await early.next(3)).slice(2), [ann]);
    assert.deepEqual(await b.next(), ['{"UserInfo":{"id":0,"info":null}}']);
    assert.ok(performance.now() - started >= 145, "the departure was late");
    assert.deepEqual(await early.next(), ['{"UserInfo":{"id":0,"info":null}}']);
    const late = new TestClient(server.url, "pad");
    assert.deepEqual(await late.next(2), [
      '{"Identity":3}',
      '{"History":{"start":0,"operations":[{"id":18446744073709551615,"operation":["hi"]}]}}',
    ]);
    await waitForQuiet([late], 20);
    assert.deepEqual(late.take(), [], "the departed user is not replayed");
    await Promise.all([early.close(), late.close()]);
  });
});

Deno.test("PadServer.delayNextDeparture() timers stop when the server closes", async () => {
  const server = await startPadServer();
  const a = new TestClient(server.url, "pad");
  await a.next();
  server.delayNextDeparture({ ms: 60_000 });
  await a.close();
  await server.close(); // the sanitizers fail the test if the timer leaked
});
