// What a client may conclude from a departure, as the real server behaves
// (rustpad-server/src/rustpad.rs, `Rustpad::on_connection`): the departure
// is announced only after the connection's handler is done with every
// message it read, and the user is forgotten before the announcement.

import assert from "node:assert/strict";
import { startPadServer } from "../../src/pad_server/mod.ts";
import { TestClient, waitForQuiet } from "./_test_client.ts";

Deno.test("PadServer announces a departure only after the edits sent just before the close were handled", async () => {
  await using server = await startPadServer();
  const watcher = new TestClient(server.url, "pad");
  await watcher.next();
  const leaver = new TestClient(server.url, "pad");
  await leaver.next();
  leaver.send('{"Edit":{"revision":0,"operation":["one"]}}');
  leaver.send('{"Edit":{"revision":0,"operation":["two"]}}');
  await leaver.close();
  assert.deepEqual(await watcher.next(3), [
    '{"History":{"start":0,"operations":[{"id":1,"operation":["one"]}]}}',
    '{"History":{"start":1,"operations":[{"id":1,"operation":["two",3]}]}}',
    '{"UserInfo":{"id":1,"info":null}}',
  ]);
  assert.equal(server.text("pad"), "twoone");
  await watcher.close();
});

Deno.test("PadServer announces the departure of a connection it hung up on after its rejected edit, which changed nothing", async () => {
  await using server = await startPadServer({ pads: { pad: { text: "ab" } } });
  const watcher = new TestClient(server.url, "pad");
  await watcher.next(2);
  const leaver = new TestClient(server.url, "pad");
  await leaver.next(2);
  leaver.send('{"Edit":{"revision":1,"operation":[5,"x"]}}');
  leaver.send('{"Edit":{"revision":1,"operation":[2,"y"]}}'); // never read
  await leaver.closed;
  assert.deepEqual(await watcher.next(), ['{"UserInfo":{"id":1,"info":null}}']);
  await waitForQuiet([watcher], 20);
  assert.deepEqual(watcher.take(), []);
  assert.equal(server.text("pad"), "ab");
  await watcher.close();
});

Deno.test("PadServer leaves a departed announced user out of the users replayed to a new connection", async () => {
  await using server = await startPadServer();
  const watcher = new TestClient(server.url, "pad");
  await watcher.next();
  const leaver = new TestClient(server.url, "pad");
  await leaver.next();
  leaver.send('{"ClientInfo":{"name":"Lee","hue":7}}');
  leaver.send('{"CursorData":{"cursors":[0],"selections":[]}}');
  leaver.send('{"Edit":{"revision":0,"operation":["x"]}}');
  assert.equal((await watcher.next(3)).length, 3);
  const before = new TestClient(server.url, "pad");
  assert.deepEqual(await before.next(4), [
    '{"Identity":2}',
    '{"History":{"start":0,"operations":[{"id":1,"operation":["x"]}]}}',
    '{"UserInfo":{"id":1,"info":{"name":"Lee","hue":7}}}',
    '{"UserCursor":{"id":1,"data":{"cursors":[1],"selections":[]}}}',
  ]);
  await leaver.close();
  assert.deepEqual(await watcher.next(), ['{"UserInfo":{"id":1,"info":null}}']);
  const after = new TestClient(server.url, "pad");
  assert.deepEqual(await after.next(2), [
    '{"Identity":3}',
    '{"History":{"start":0,"operations":[{"id":1,"operation":["x"]}]}}',
  ]);
  await waitForQuiet([after], 20);
  assert.deepEqual(after.take(), [], "no UserInfo, no UserCursor for id 1");
  await Promise.all([watcher.close(), before.close(), after.close()]);
});
