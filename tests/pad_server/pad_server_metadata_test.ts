// The metadata queue: the real server forwards Language, UserInfo and
// UserCursor through a broadcast channel of 16 messages per pad, and a
// connection that falls more than 16 behind is dropped with no message
// (rustpad-server/src/rustpad.rs: `broadcast::channel(16)`, `update?`).

import assert from "node:assert/strict";
import { startPadServer } from "../../src/pad_server/mod.ts";
import { delay, TestClient, waitForQuiet, waitUntil } from "./_test_client.ts";

const cursor = (n: number) =>
  `{"CursorData":{"cursors":[${n}],"selections":[]}}`;

Deno.test("PadServer drops a connection that floods cursor data, and only that one, as the real server does", async () => {
  await using server = await startPadServer();
  const [flooder, b, c] = [0, 1, 2].map(() =>
    new TestClient(server.url, "pad")
  );
  await Promise.all([flooder!.next(), b!.next(), c!.next()]);
  // Its own connection reads its flood and forwards the echoes in turns,
  // so it falls behind; the others only forward, and keep up.
  let sent = 0;
  while (!flooder!.isClosed && sent < 20_000) {
    for (let i = 0; i < 100; i++) flooder!.send(cursor(sent++));
    await delay(1);
  }
  // The close event, not readyState: it is CLOSED a moment before the
  // event says who closed it.
  await flooder!.closed;
  assert.ok(flooder!.closedByServer, "the server dropped the flooder");
  assert.ok(!b!.isClosed && !c!.isClosed, "the others stay");
  await waitUntil(() =>
    b!.frames.at(-1) === '{"UserInfo":{"id":0,"info":null}}'
  );
  const handled = server.metadataFrom("pad", 0);
  assert.ok(handled > 16 && handled <= sent, `handled ${handled} of ${sent}`);
  // Every message it got handled reached the others, then its departure.
  for (const watcher of [b!, c!]) {
    const frames = watcher.take();
    assert.equal(frames.length, handled + 1);
    assert.equal(frames.at(-1), '{"UserInfo":{"id":0,"info":null}}');
  }
  b!.send('{"SetLanguage":"go"}');
  assert.deepEqual(await c!.next(), ['{"Language":"go"}']);
  await Promise.all([b!.close(), c!.close()]);
});

Deno.test("PadServer drops a slowly draining connection when a burst puts it 17 behind, and keeps the sender", async () => {
  await using server = await startPadServer();
  const [sender, slow, fast] = [0, 1, 2].map(() =>
    new TestClient(server.url, "pad")
  );
  await Promise.all([sender!.next(), slow!.next(), fast!.next()]);
  assert.ok(server.setDrainDelay("pad", 1, 40));
  // The first is forwarded at once; 17 then wait, one more than fit.
  for (let i = 0; i < 18; i++) sender!.send(cursor(i));
  await slow!.closed;
  assert.ok(slow!.closedByServer);
  // Hung up with no message, not even a close frame, as its task ended.
  assert.equal(slow!.closedCleanly, false);
  assert.deepEqual(slow!.take(), [
    '{"UserCursor":{"id":0,"data":{"cursors":[0],"selections":[]}}}',
  ]);
  assert.equal((await fast!.next(19)).length, 19, "18 cursors, 1 departure");
  assert.equal(fast!.frames.at(-1), '{"UserInfo":{"id":1,"info":null}}');
  assert.equal(server.metadataFrom("pad", 0), 18);
  assert.ok(!sender!.isClosed);
  await Promise.all([sender!.close(), fast!.close()]);
});

Deno.test("PadServer keeps a slowly draining connection that is exactly 16 behind", async () => {
  await using server = await startPadServer();
  const [sender, slow] = [0, 1].map(() => new TestClient(server.url, "pad"));
  await Promise.all([sender!.next(), slow!.next()]);
  assert.ok(server.setDrainDelay("pad", 1, 5));
  for (let i = 0; i < 17; i++) sender!.send(cursor(i));
  assert.equal((await slow!.next(17)).length, 17);
  await waitForQuiet([slow!], 20);
  assert.ok(!slow!.isClosed);
  assert.equal(server.setDrainDelay("pad", 9, 5), false, "no user 9");
  assert.throws(() => server.setDrainDelay("pad", 1, -1), RangeError);
  await Promise.all([sender!.close(), slow!.close()]);
});

Deno.test("PadServer.metadataFrom() counts the metadata messages handled per connection, not its edits", async () => {
  await using server = await startPadServer();
  const a = new TestClient(server.url, "pad");
  await a.next();
  a.send('{"ClientInfo":{"name":"A","hue":1}}');
  a.send(cursor(0));
  a.send('{"SetLanguage":"go"}');
  a.send('{"Edit":{"revision":0,"operation":["x"]}}');
  await a.next(4);
  assert.equal(server.metadataFrom("pad", 0), 3);
  assert.equal(server.metadataFrom("pad", 1), 0);
  assert.equal(server.metadataFrom("nowhere", 0), 0);
  await a.close();
  assert.equal(server.metadataFrom("pad", 0), 3, "kept after it left");
});

Deno.test("PadServer forwards a metadata message to every reader of a pad of 300, the ones past the first 256 in later turns", async () => {
  await using server = await startPadServer({ maxSocketsPerPad: 300 });
  const readers = Array.from(
    { length: 300 },
    () => new TestClient(server.url, "big"),
  );
  await Promise.all(readers.map((reader) => reader.next()));
  for (const reader of readers) reader.take();
  readers[0]!.send('{"ClientInfo":{"name":"Ann","hue":10}}');
  const frames = await Promise.all(readers.map((reader) => reader.next()));
  for (const frame of frames) {
    assert.deepEqual(frame, [
      '{"UserInfo":{"id":0,"info":{"name":"Ann","hue":10}}}',
    ]);
  }
  assert.ok(readers.every((reader) => !reader.isClosed));
  await Promise.all(readers.map((reader) => reader.close()));
});
