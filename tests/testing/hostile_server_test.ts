// The hostile servers do what they say to the hostile pad, and pass every
// other request to the ordinary pad server behind them.

import assert from "node:assert/strict";
import {
  type HostileServerOptions,
  startHostileServer,
  startPadServer,
} from "../../src/testing/mod.ts";
import { TestClient, waitUntil } from "../pad_server/_test_client.ts";

async function framesFrom(
  options: HostileServerOptions,
  until: (frames: string[]) => boolean,
): Promise<string[]> {
  await using server = await startHostileServer(options);
  const client = new TestClient(server.url, "hostile");
  assert.ok(await waitUntil(() => until(client.frames), 5000));
  await client.close();
  assert.equal(server.attacks, 1);
  return client.frames;
}

Deno.test("startHostileServer() huge-history sends Identity, then one History of that many operations by another user", async () => {
  const frames = await framesFrom(
    { mode: "huge-history", operations: 1001 },
    (frames) => frames.length >= 2,
  );
  assert.equal(frames[0], '{"Identity":0}');
  const { History } = JSON.parse(frames[1]!);
  assert.equal(History.start, 0);
  assert.equal(History.operations.length, 1001);
  assert.deepEqual(History.operations.slice(0, 2), [
    { id: 1, operation: ["x"] },
    { id: 1, operation: [-1] },
  ]);
});

Deno.test("startHostileServer() huge-frame sends one text frame of exactly frameBytes bytes", async () => {
  const frames = await framesFrom(
    { mode: "huge-frame", frameBytes: 1_000_000 },
    (frames) => frames.length >= 2,
  );
  assert.equal(new TextEncoder().encode(frames[1]!).length, 1_000_000);
  assert.match(
    frames[1]!,
    /^\{"History":\{"start":0,"operations":\[\{"id":0,"operation":\["xxx/,
  );
});

Deno.test("startHostileServer() dribble sends its answer and Identity one byte per interval", async () => {
  const started = performance.now();
  const frames = await framesFrom(
    { mode: "dribble", byteIntervalMs: 2 },
    (frames) => frames.length >= 1,
  );
  assert.deepEqual(frames, ['{"Identity":0}']);
  // About 150 bytes of answer and frame, 2 ms apart at least.
  assert.ok(performance.now() - started >= 250);
});

Deno.test("startHostileServer() userinfo-flood sends UserInfo of ever new users after Identity", async () => {
  const frames = await framesFrom(
    { mode: "userinfo-flood" },
    (frames) => frames.length >= 5000,
  );
  assert.equal(frames[0], '{"Identity":0}');
  assert.deepEqual(JSON.parse(frames[4000]!), {
    UserInfo: { id: 4000, info: { name: "user 4000", hue: 4000 % 360 } },
  });
});

Deno.test("HostileServer passes other pads' sockets and HTTP to its backend, which it leaves open if given", async () => {
  await using backend = await startPadServer({
    pads: { fine: { text: "ok" } },
  });
  const server = await startHostileServer({ mode: "huge-frame", backend });
  const client = new TestClient(server.url, "fine");
  assert.deepEqual(await client.next(2), [
    '{"Identity":0}',
    '{"History":{"start":0,"operations":[{"id":18446744073709551615,"operation":["ok"]}]}}',
  ]);
  client.send('{"Edit":{"revision":1,"operation":[2,"!"]}}');
  assert.equal((await client.next()).length, 1);
  const response = await fetch(`${server.url}/api/text/fine`);
  assert.equal(await response.text(), "ok!");
  assert.equal(server.attacks, 0);
  await client.close();
  await server.close();
  assert.equal(backend.text("fine"), "ok!", "the backend still runs");
});
