// A pad's operation log in a pad store: revisions, user ids and authors go
// on across a restart; past maxLogOperations the pad starts over at
// revision 1 with its text as one insert, and its sockets are closed so
// clients see the restart; at the connection cap, the socket idle longest
// on the busiest pad makes room for a newcomer.

import assert from "node:assert/strict";
import { MemoryPadStore, startPadServer } from "../../src/pad_server/mod.ts";
import { TestClient } from "./_test_client.ts";

const RESTORED_ID = "18446744073709551615";

Deno.test("a pad server restarted on the same MemoryPadStore goes on at the same revision, gives new user ids, and the store names each operation's author", async () => {
  const database = new MemoryPadStore();
  {
    await using server = await startPadServer({ database });
    const ada = new TestClient(server.url, "a");
    await ada.next(1);
    ada.send('{"ClientInfo":{"name":"Ada","hue":1}}');
    ada.send('{"Edit":{"revision":0,"operation":["one"]}}');
    await ada.next(2);
    const bob = new TestClient(server.url, "a");
    await bob.next(3);
    bob.send('{"Edit":{"revision":1,"operation":[3," two"]}}');
    await bob.next(1);
    await ada.close();
    await bob.close();
  }
  await using server = await startPadServer({ database });
  const carol = new TestClient(server.url, "a");
  assert.deepEqual(await carol.next(2), [
    '{"Identity":2}',
    '{"History":{"start":0,"operations":[{"id":0,"operation":["one"]},{"id":1,"operation":[3," two"]}]}}',
  ]);
  carol.send('{"Edit":{"revision":2,"operation":[7,"!"]}}');
  assert.deepEqual(await carol.next(1), [
    '{"History":{"start":2,"operations":[{"id":2,"operation":[7,"!"]}]}}',
  ]);
  await carol.close();
  assert.deepEqual(database.load("a")?.log.map(({ author }) => author), [
    { userId: 0, name: "Ada", agent: false },
    { userId: 1, name: null, agent: false },
    { userId: 2, name: null, agent: false },
  ]);
});

Deno.test("a pad whose log passes maxLogOperations starts over at revision 1 with its text as one insert, after acknowledging the edit, and its sockets are closed", async () => {
  const database = new MemoryPadStore();
  const lines: string[] = [];
  await using server = await startPadServer({
    database,
    maxLogOperations: 3,
    log: (line) => lines.push(line),
  });
  const writer = new TestClient(server.url, "long");
  const watcher = new TestClient(server.url, "long");
  await writer.next(1);
  await watcher.next(1);
  for (const [revision, operation] of [["a"], [1, "b"], [2, "c"]].entries()) {
    writer.send(JSON.stringify({ Edit: { revision, operation } }));
    await writer.next(1);
  }
  assert.equal(writer.isClosed, false, "3 operations are within the bound");
  writer.send('{"Edit":{"revision":3,"operation":[3,"d"]}}');
  assert.deepEqual(await writer.next(1), [
    '{"History":{"start":3,"operations":[{"id":0,"operation":[3,"d"]}]}}',
  ]);
  await writer.closed;
  await watcher.closed;
  assert.equal(writer.closedByServer, true);
  assert.equal(watcher.closedByServer, true);
  assert.equal(
    watcher.frames.filter((f) => f.startsWith('{"History"')).length,
    4,
  );
  assert.match(
    lines.join("\n"),
    /pad long passed 3 operations \(at revision 4\): it starts over at revision 1 with its text as one insert/,
  );
  const again = new TestClient(server.url, "long");
  assert.deepEqual(await again.next(2), [
    '{"Identity":2}',
    `{"History":{"start":0,"operations":[{"id":${RESTORED_ID},"operation":["abcd"]}]}}`,
  ]);
  again.send('{"Edit":{"revision":1,"operation":[4,"e"]}}');
  await again.next(1);
  await again.close();
  assert.equal(database.load("long")?.log.length, 2);
  assert.equal(database.get("long")?.text, "abcde");
});

Deno.test("at the connection cap a newcomer's socket and /api/stats get in: the socket heard from longest ago on the busiest pad is closed with 1013", async () => {
  const lines: string[] = [];
  // 8 connections: 6 for sockets, two kept for HTTP (one may be a socket
  // still closing).
  await using server = await startPadServer({
    maxConnections: 8,
    log: (line) => lines.push(line),
  });
  const crowd = Array.from(
    { length: 4 },
    () => new TestClient(server.url, "crowd"),
  );
  const pair = Array.from(
    { length: 2 },
    () => new TestClient(server.url, "pair"),
  );
  for (const client of [...crowd, ...pair]) await client.next(1);
  // Everyone but crowd[2] says something: it is the idle one.
  for (const [index, client] of [...crowd, ...pair].entries()) {
    if (index === 2) continue;
    client.send('{"CursorData":{"cursors":[0],"selections":[]}}');
  }
  await crowd[0]!.next(5);
  const codes: number[] = [];
  crowd[2]!.socket.addEventListener("close", (event) => codes.push(event.code));
  // A new connection per request: one kept alive is idle, and shed.
  using client = Deno.createHttpClient({ poolMaxIdlePerHost: 0 });
  const stats = () => fetch(`${server.url}/api/stats`, { client });
  // The seventh socket: sockets would pass their share, so crowd[2] goes.
  const newcomer = new TestClient(server.url, "new");
  assert.deepEqual(await newcomer.next(1), ['{"Identity":0}']);
  await crowd[2]!.closed;
  assert.deepEqual(codes, [1013]);
  for (const [index, client] of [...crowd, ...pair].entries()) {
    assert.equal(client.isClosed, index === 2, `socket ${index}`);
  }
  const answer = await stats();
  assert.equal(answer.status, 200);
  assert.equal((await answer.json()).num_documents, 3);
  // Another newcomer: crowd[0], who spoke first, is now heard longest ago.
  const another = new TestClient(server.url, "new");
  assert.deepEqual(await another.next(1), ['{"Identity":1}']);
  await crowd[0]!.closed;
  assert.equal(crowd[1]!.isClosed, false);
  assert.equal((await stats()).status, 200);
  assert.match(
    lines.join("\n"),
    /closed the socket heard from longest ago on pad crowd/,
  );
  for (const client of [...crowd, ...pair, newcomer, another]) {
    await client.close();
  }
});
