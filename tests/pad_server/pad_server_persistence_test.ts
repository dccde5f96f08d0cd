import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import {
  type PadStorage,
  SqlitePadDatabase,
  startPadServer,
} from "../../src/pad_server/mod.ts";
import { TestClient, waitUntil } from "./_test_client.ts";

const RESTORED_ID = "18446744073709551615";

async function stats(url: string): Promise<Record<string, number>> {
  return await (await fetch(`${url}/api/stats`)).json();
}

/** Open a socket on `padId`, send `frames` after its Identity, close it. */
async function write(url: string, padId: string, frames: string[]) {
  const client = new TestClient(url, padId);
  await client.next(1);
  for (const frame of frames) client.send(frame);
  await client.next(frames.filter((f) => f.includes('"Edit"')).length);
  await client.close();
}

Deno.test("a pad edited over a socket is in the SQLite file once acknowledged, and a server started on the file replays its log: the same revisions, authors and language", async () => {
  const path = await Deno.makeTempFile({ suffix: ".sqlite" });
  try {
    {
      using database = new SqlitePadDatabase(path);
      await using server = await startPadServer({ database });
      await write(server.url, "kept", [
        '{"ClientInfo":{"name":"Ada","hue":10}}',
        '{"SetLanguage":"rust"}',
        '{"Edit":{"revision":0,"operation":["fn main() {}"]}}',
        '{"Edit":{"revision":1,"operation":[12," // 🎉"]}}',
      ]);
      // No snapshot, no close: each edit was stored before its echo.
      assert.deepEqual(
        database.load("kept")?.log.map(({ author }) => author),
        [
          { userId: 0, name: "Ada", agent: false },
          { userId: 0, name: "Ada", agent: false },
        ],
      );
    }
    using database = new SqlitePadDatabase(path);
    await using server = await startPadServer({ database });
    const client = new TestClient(server.url, "kept");
    assert.deepEqual(await client.next(3), [
      '{"Identity":1}',
      '{"History":{"start":0,"operations":[{"id":0,"operation":["fn main() {}"]},{"id":0,"operation":[12," // 🎉"]}]}}',
      '{"Language":"rust"}',
    ]);
    await client.close();
    assert.equal(
      await (await fetch(`${server.url}/api/text/kept`)).text(),
      "fn main() {} // 🎉",
    );
  } finally {
    await Deno.remove(path);
  }
});

Deno.test("/api/stats counts the pads in the SQLite file as database_size and the pads in memory as num_documents", async () => {
  using database = new SqlitePadDatabase(":memory:");
  database.set("a", { text: "one", language: null });
  database.set("b", { text: "two", language: "markdown" });
  await using server = await startPadServer({ database, startTime: 7 });
  assert.deepEqual(await stats(server.url), {
    start_time: 7,
    num_documents: 0,
    database_size: 2,
  });
  await write(server.url, "c", ['{"Edit":{"revision":0,"operation":["x"]}}']);
  server.snapshot();
  assert.deepEqual(await stats(server.url), {
    start_time: 7,
    num_documents: 1,
    database_size: 3,
  });
});

Deno.test("a pad no socket opened for EXPIRY_DAYS leaves memory: its sockets close, and it comes back from the file with its log", async () => {
  using database = new SqlitePadDatabase(":memory:");
  await using server = await startPadServer({
    database,
    snapshotIntervalMs: 0,
    expiryDays: 0.3 / 86_400,
    cleanupIntervalMs: 20,
  });
  const client = new TestClient(server.url, "idle");
  await client.next(1);
  client.send('{"Edit":{"revision":0,"operation":["last words"]}}');
  await client.next(1);
  await client.closed;
  assert.equal(client.closedByServer, true);
  assert.equal((await stats(server.url)).num_documents, 0);
  assert.deepEqual(database.get("idle"), {
    text: "last words",
    language: null,
  });
  const again = new TestClient(server.url, "idle");
  assert.deepEqual(await again.next(2), [
    '{"Identity":1}',
    '{"History":{"start":0,"operations":[{"id":0,"operation":["last words"]}]}}',
  ]);
  await again.close();
});

Deno.test("without persistence an expired pad is gone and reads as empty", async () => {
  await using server = await startPadServer({
    expiryDays: 0.1 / 86_400,
    cleanupIntervalMs: 20,
  });
  await write(server.url, "gone", [
    '{"Edit":{"revision":0,"operation":["x"]}}',
  ]);
  assert.equal(server.text("gone"), "x");
  assert.ok(await waitUntil(() => server.text("gone") === ""), "expired");
  assert.equal((await stats(server.url)).num_documents, 0);
});

Deno.test("a pad server refuses a non-positive expiry with the value it was given", async () => {
  await assert.rejects(
    startPadServer({ expiryDays: 0 }),
    /Cannot expire pads as the expiry days is not a positive number: current value is 0/,
  );
});

Deno.test("SqlitePadDatabase refuses a file that is not a SQLite database, saying why", async () => {
  const path = await Deno.makeTempFile({ suffix: ".sqlite" });
  try {
    await Deno.writeTextFile(path, "not a database, just words ".repeat(40));
    assert.throws(
      () => new SqlitePadDatabase(path),
      /Cannot persist pads in .* as it is not a usable SQLite database/,
    );
  } finally {
    await Deno.remove(path);
  }
});

Deno.test("a SqlitePadDatabase is a PadStorage with the PadDatabase answers", () => {
  using sqlite = new SqlitePadDatabase(":memory:");
  const storage: PadStorage = sqlite;
  assert.equal(storage.get("none"), undefined);
  storage.set("a", { text: "🎉 emoji and\nlines", language: null });
  storage.set("a", { text: "replaced", language: "go" });
  assert.deepEqual(storage.get("a"), { text: "replaced", language: "go" });
  assert.equal(storage.size, 1);
  assert.throws(() => storage.set("a b", { text: "", language: null }));
});

Deno.test("a pads file of the previous version (a document table of text and language) opens migrated in place: each pad one insert by user 2^64-1, its log going on from there", async () => {
  const path = await Deno.makeTempFile({ suffix: ".sqlite" });
  try {
    {
      // What the previous version (and the real Rustpad) wrote.
      const old = new DatabaseSync(path);
      old.exec(
        "CREATE TABLE document(id TEXT PRIMARY KEY, text TEXT NOT NULL, language TEXT)",
      );
      old.prepare("INSERT INTO document VALUES (?, ?, ?)").run(
        "old",
        "a\0b 🎉",
        "markdown",
      );
      old.close();
    }
    {
      using database = new SqlitePadDatabase(path);
      assert.deepEqual(database.get("old"), {
        text: "a\0b 🎉",
        language: "markdown",
      });
      await using server = await startPadServer({ database });
      const client = new TestClient(server.url, "old");
      assert.deepEqual(await client.next(3), [
        '{"Identity":0}',
        `{"History":{"start":0,"operations":[{"id":${RESTORED_ID},"operation":["a\\u0000b 🎉"]}]}}`,
        '{"Language":"markdown"}',
      ]);
      client.send('{"Edit":{"revision":1,"operation":[5,"!"]}}');
      assert.deepEqual(await client.next(1), [
        '{"History":{"start":1,"operations":[{"id":0,"operation":[5,"!"]}]}}',
      ]);
      await client.close();
    }
    using database = new SqlitePadDatabase(path);
    assert.equal(database.load("old")?.log.length, 2);
    assert.equal(database.get("old")?.text, "a\0b 🎉!");
  } finally {
    await Deno.remove(path);
  }
});

/** Open a pads file in a child with `env`; what it printed, or its error. */
async function syncModeIn(env: Record<string, string>): Promise<string> {
  const module = new URL("../../src/pad_server/mod.ts", import.meta.url).href;
  const { stdout, stderr } = await new Deno.Command(Deno.execPath(), {
    args: [
      "eval",
      `import { SqlitePadDatabase } from "${module}";
       try { console.log(new SqlitePadDatabase(":memory:").synchronous); }
       catch (error) { console.log(error.message); }`,
    ],
    env,
  }).output();
  const decoder = new TextDecoder();
  return (decoder.decode(stdout) + decoder.decode(stderr)).trim();
}

Deno.test("RUSTPAD_EMBEDDED_SYNC chooses how hard a pads file syncs, and a value that is neither mode is refused naming it", async () => {
  assert.equal(await syncModeIn({}), "normal");
  assert.equal(await syncModeIn({ RUSTPAD_EMBEDDED_SYNC: "FULL" }), "full");
  assert.equal(
    await syncModeIn({ RUSTPAD_EMBEDDED_SYNC: "sometimes" }),
    'Cannot open the pads file as RUSTPAD_EMBEDDED_SYNC is neither normal nor full: current value is "sometimes"',
  );
  using database = new SqlitePadDatabase(":memory:", { synchronous: "full" });
  assert.equal(database.synchronous, "full");
});
