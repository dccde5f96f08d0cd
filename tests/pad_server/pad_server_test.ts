import assert from "node:assert/strict";
import {
  PadDatabase,
  type PadServer,
  startPadServer,
} from "../../src/pad_server/mod.ts";
import { TestClient, waitUntil } from "./_test_client.ts";

async function get(
  server: PadServer,
  path: string,
  init?: RequestInit,
): Promise<{ status: number; type: string | null; body: string }> {
  const response = await fetch(`${server.url}${path}`, init);
  return {
    status: response.status,
    type: response.headers.get("content-type"),
    body: await response.text(),
  };
}

Deno.test("startPadServer() listens on 127.0.0.1 on a free port by default", async () => {
  const server = await startPadServer();
  try {
    assert.equal(server.url, `http://127.0.0.1:${server.port}`);
    assert.ok(server.port > 0);
    assert.equal(server.database, null);
  } finally {
    await server.close();
  }
});

Deno.test("startPadServer() rejects a negative snapshot interval", async () => {
  await assert.rejects(
    startPadServer({ snapshotIntervalMs: -1 }),
    RangeError,
  );
});

Deno.test("PadServer serves a preloaded pad with one history entry by user 18446744073709551615, written exactly", async () => {
  const server = await startPadServer({
    pads: { doc: { text: "h🎉llo", language: "python" } },
  });
  const client = new TestClient(server.url, "doc");
  try {
    assert.deepEqual(await client.next(3), [
      '{"Identity":0}',
      '{"History":{"start":0,"operations":[{"id":18446744073709551615,"operation":["h🎉llo"]}]}}',
      '{"Language":"python"}',
    ]);
    client.send('{"Edit":{"revision":1,"operation":[5,"!"]}}');
    assert.deepEqual(await client.next(), [
      '{"History":{"start":1,"operations":[{"id":0,"operation":[5,"!"]}]}}',
    ]);
    assert.equal(server.text("doc"), "h🎉llo!");
  } finally {
    await client.close();
    await server.close();
  }
});

Deno.test("PadServer counts preloaded pads in database_size and in num_documents only once opened", async () => {
  const server = await startPadServer({
    pads: { a: { text: "one" }, b: { text: "two" } },
    startTime: 1700000000,
  });
  try {
    assert.deepEqual(await get(server, "/api/stats"), {
      status: 200,
      type: "application/json",
      body: '{"start_time":1700000000,"num_documents":0,"database_size":2}',
    });
    // Reading a pad over HTTP does not bring it into memory.
    assert.equal((await get(server, "/api/text/a")).body, "one");
    assert.equal(
      (await get(server, "/api/stats")).body,
      '{"start_time":1700000000,"num_documents":0,"database_size":2}',
    );
    const client = new TestClient(server.url, "a");
    await client.next(2);
    await client.close();
    assert.equal(
      (await get(server, "/api/stats")).body,
      '{"start_time":1700000000,"num_documents":1,"database_size":2}',
    );
  } finally {
    await server.close();
  }
});

Deno.test("PadServer restores an empty persisted pad as one empty insert", async () => {
  const server = await startPadServer({ pads: { empty: { text: "" } } });
  const client = new TestClient(server.url, "empty");
  try {
    assert.deepEqual(await client.next(2), [
      '{"Identity":0}',
      '{"History":{"start":0,"operations":[{"id":18446744073709551615,"operation":[]}]}}',
    ]);
  } finally {
    await client.close();
    await server.close();
  }
});

Deno.test("PadServer answers 404 under /api/, and 400 to a socket route without an upgrade or with a bad pad id", async () => {
  const server = await startPadServer();
  try {
    for (
      const path of ["/api", "/api/stats/", "/api/text/", "/api/text/a/b"]
    ) {
      const { status, type } = await get(server, path);
      assert.deepEqual({ path, status, type }, {
        path,
        status: 404,
        type: "text/plain; charset=utf-8",
      });
    }
    assert.equal(
      (await get(server, "/api/text/a", { method: "POST" })).status,
      404,
    );
    assert.equal((await get(server, "/api/socket/a")).status, 400);
    assert.equal(
      (await get(server, "/api/socket/a%20b", {
        headers: { upgrade: "websocket" },
      })).status,
      400,
    );
    // Neither request created a pad.
    assert.match(
      (await get(server, "/api/stats")).body,
      /"num_documents":0,/,
    );
  } finally {
    await server.close();
  }
});

Deno.test("PadServer.text() reads memory, then the database, then gives an empty string", async () => {
  const database = new PadDatabase({ stored: { text: "from disk" } });
  const server = await startPadServer({ database });
  try {
    assert.equal(server.text("stored"), "from disk");
    assert.equal(server.text("unknown"), "");
  } finally {
    await server.close();
  }
});

Deno.test("PadServer.snapshot() persists pads whose revision grew, with their language", async () => {
  const database = new PadDatabase();
  const server = await startPadServer({ database, snapshotIntervalMs: 0 });
  const client = new TestClient(server.url, "a");
  try {
    await client.next();
    client.send('{"SetLanguage":"rust"}');
    await client.next();
    server.snapshot();
    assert.equal(database.size, 0, "a language change alone is not saved");
    client.send('{"Edit":{"revision":0,"operation":["fn main() {}"]}}');
    await client.next();
    server.snapshot();
    assert.deepEqual(database.get("a"), {
      text: "fn main() {}",
      language: "rust",
    });
  } finally {
    await client.close();
    await server.close();
  }
});

Deno.test("PadServer snapshots into the database every snapshotIntervalMs", async () => {
  const database = new PadDatabase();
  const server = await startPadServer({ database, snapshotIntervalMs: 10 });
  const client = new TestClient(server.url, "a");
  try {
    await client.next();
    client.send('{"Edit":{"revision":0,"operation":["later"]}}');
    assert.ok(await waitUntil(() => database.get("a")?.text === "later"));
  } finally {
    await client.close();
    await server.close();
  }
});

Deno.test("PadServer restarted on the same PadDatabase restores text and language but not the revision", async () => {
  const database = new PadDatabase();
  const first = await startPadServer({ database, snapshotIntervalMs: 0 });
  const writer = new TestClient(first.url, "a");
  try {
    await writer.next();
    writer.send('{"Edit":{"revision":0,"operation":["a"]}}');
    writer.send('{"Edit":{"revision":1,"operation":[1,"b"]}}');
    writer.send('{"SetLanguage":"go"}');
    await writer.next(3);
    first.snapshot();
  } finally {
    await writer.close();
    await first.close();
  }
  const second = await startPadServer({ database });
  const reader = new TestClient(second.url, "a");
  try {
    assert.deepEqual(await reader.next(3), [
      '{"Identity":0}',
      '{"History":{"start":0,"operations":[{"id":18446744073709551615,"operation":["ab"]}]}}',
      '{"Language":"go"}',
    ]);
  } finally {
    await reader.close();
    await second.close();
  }
});

Deno.test("PadServer.close() closes open sockets, and a second call returns the same promise", async () => {
  const server = await startPadServer();
  const client = new TestClient(server.url, "a");
  await client.next();
  const closing = server.close();
  assert.equal(server.close(), closing);
  await closing;
  await client.closed;
  assert.ok(client.closedByServer);
});

Deno.test("PadDatabase rejects an invalid pad id", () => {
  assert.throws(() => new PadDatabase({ "..": { text: "" } }), TypeError);
  assert.throws(
    () => new PadDatabase().set("a b", { text: "", language: null }),
    TypeError,
  );
});

Deno.test("PadServer closes itself at the end of an `await using` block", async () => {
  let port: number;
  {
    await using server = await startPadServer();
    port = server.port;
  }
  await assert.rejects(fetch(`http://127.0.0.1:${port}/api/stats`), TypeError);
});

Deno.test("PadServer hangs up on an Edit inserting half a surrogate pair, applies nothing, and the pad goes on", async () => {
  await using server = await startPadServer({ pads: { s: { text: "ok" } } });
  const writer = new TestClient(server.url, "s");
  const other = new TestClient(server.url, "s");
  await writer.next(2); // Identity, History
  await other.next(2);
  // As JSON.stringify writes it: the lone half as a \u escape.
  writer.send(
    JSON.stringify({ Edit: { revision: 1, operation: [2, "\ud83d"] } }),
  );
  await writer.closed;
  assert.ok(writer.closedByServer);
  assert.equal((await get(server, "/api/text/s")).body, "ok");
  // The whole pair is one character, and the pad takes it.
  other.send(JSON.stringify({ Edit: { revision: 1, operation: [2, "😀"] } }));
  assert.ok(
    await waitUntil(() =>
      other.frames.some((frame) => frame.startsWith('{"History":{"start":1'))
    ),
  );
  assert.equal((await get(server, "/api/text/s")).body, "ok😀");
  await other.close();
});
