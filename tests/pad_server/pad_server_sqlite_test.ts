// The SQLite file under pressure from outside. Held exclusively (the
// default), a file another process holds is refused at open in one line.
// Shared, a real `sqlite3` shell holds a read transaction (writes go on,
// WAL) or the write lock (an edit is never acknowledged: its pad's sockets
// are closed, a line logged, and the process stays up). NUL and every
// other code point survive a restart, and many pads edited at once are
// each stored before their echo.

import assert from "node:assert/strict";
import { SqlitePadDatabase, startPadServer } from "../../src/pad_server/mod.ts";
import { TestClient, waitUntil } from "./_test_client.ts";

/** A fresh SQLite file, removed with its WAL and shared-memory files. */
async function sqliteFile(): Promise<AsyncDisposable & { path: string }> {
  const path = await Deno.makeTempFile({ suffix: ".sqlite" });
  return {
    path,
    async [Symbol.asyncDispose]() {
      await Deno.remove(path);
      await Deno.remove(`${path}-wal`).catch(() => {});
      await Deno.remove(`${path}-shm`).catch(() => {});
    },
  };
}

/** A `sqlite3` shell on `path`, fed lines; resolves once `marker` prints. */
class Shell implements AsyncDisposable {
  readonly #child: Deno.ChildProcess;
  readonly #input: WritableStreamDefaultWriter<Uint8Array>;
  readonly #output: ReadableStreamDefaultReader<string>;
  #seen = "";

  constructor(path: string) {
    this.#child = new Deno.Command("sqlite3", {
      args: [path],
      stdin: "piped",
      stdout: "piped",
      stderr: "null",
    }).spawn();
    this.#input = this.#child.stdin.getWriter();
    this.#output = this.#child.stdout.pipeThrough(new TextDecoderStream())
      .getReader();
  }

  /** Run `sql`, then wait until the shell printed `marker`. */
  async run(sql: string, marker: string): Promise<void> {
    await this.#input.write(
      new TextEncoder().encode(`${sql}\nSELECT '${marker}';\n`),
    );
    while (!this.#seen.includes(marker)) {
      const { value, done } = await this.#output.read();
      if (done) {
        throw new Error(`sqlite3 ended before ${marker}: ${this.#seen}`);
      }
      this.#seen += value;
    }
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.#input.close().catch(() => {});
    await this.#output.cancel().catch(() => {});
    await this.#child.status;
  }
}

/** Append `texts` to the empty pad `padId`, each after the last one's echo. */
async function type(url: string, padId: string, texts: string[]) {
  const client = new TestClient(url, padId);
  await client.next(1);
  let length = 0;
  for (const [revision, text] of texts.entries()) {
    const operation = length === 0 ? [text] : [length, text];
    client.send(JSON.stringify({ Edit: { revision, operation } }));
    await client.next(1);
    length += [...text].length;
  }
  await client.close();
}

Deno.test("a sqlite3 shell holding the write lock of a shared file: an edit is never acknowledged, its socket is closed and a line logged, the server goes on, and once the lock is gone the pad reads back what is stored", async () => {
  await using file = await sqliteFile();
  const { path } = file;
  using database = new SqlitePadDatabase(path, { shared: true });
  const lines: string[] = [];
  await using server = await startPadServer({
    database,
    log: (line) => lines.push(line),
  });
  await type(server.url, "held", ["a"]);
  {
    await using shell = new Shell(path);
    await shell.run("BEGIN IMMEDIATE;", "locked");
    const client = new TestClient(server.url, "held");
    assert.equal((await client.next(2)).length, 2, "Identity and History");
    client.send('{"Edit":{"revision":1,"operation":[1,"b"]}}');
    await client.closed;
    assert.equal(client.closedByServer, true);
    assert.deepEqual(client.take(), [], "never acknowledged");
    // Its join could not be stored either, yet it was served.
    assert.match(
      lines[0]!,
      /^rustpad-mcp: pad server: Cannot store pad held in .* as SQLite failed: database is locked; a new connection's user id was not stored yet$/,
    );
    assert.match(
      lines[1]!,
      /^rustpad-mcp: pad server: Cannot store pad held in .* as SQLite failed: database is locked; its 1 newest operations were not acknowledged, and its sockets were closed so its clients reload what is stored$/,
    );
    assert.deepEqual(server.unstored.map(({ padId }) => padId), ["held"]);
    await shell.run("ROLLBACK;", "released");
  }
  const again = new TestClient(server.url, "held");
  // User 1 authored nothing stored, so its id is given again.
  assert.deepEqual(await again.next(2), [
    '{"Identity":1}',
    '{"History":{"start":0,"operations":[{"id":0,"operation":["a"]}]}}',
  ]);
  again.send('{"Edit":{"revision":1,"operation":[1,"c"]}}');
  assert.deepEqual(await again.next(1), [
    '{"History":{"start":1,"operations":[{"id":1,"operation":[1,"c"]}]}}',
  ]);
  await again.close();
  assert.deepEqual(server.unstored, []);
  assert.equal(database.get("held")?.text, "ac");
});

Deno.test("a sqlite3 shell holding a read transaction of a shared file does not stop writes", async () => {
  await using file = await sqliteFile();
  const { path } = file;
  using database = new SqlitePadDatabase(path, { shared: true });
  const lines: string[] = [];
  await using server = await startPadServer({
    database,
    log: (line) => lines.push(line),
  });
  await using shell = new Shell(path);
  await shell.run("BEGIN; SELECT count(*) FROM document;", "reading");
  await type(server.url, "read", ["x", "y"]);
  assert.ok(await waitUntil(() => database.get("read")?.text === "xy"));
  assert.deepEqual(lines, []);
});

Deno.test("NUL and every kind of code point survive a restart on the SQLite file exactly", async () => {
  await using file = await sqliteFile();
  const { path } = file;
  const text =
    "a\0b\u0001\u007f\u0080\u00e9\u2028\uffff\u{10000}🎉\u{10ffff}\0";
  {
    using database = new SqlitePadDatabase(path);
    await using server = await startPadServer({ database });
    await type(server.url, "nul", [text]);
    assert.ok(server.snapshot());
  }
  using database = new SqlitePadDatabase(path);
  await using server = await startPadServer({ database });
  assert.equal(
    await (await fetch(`${server.url}/api/text/nul`)).text(),
    text,
  );
});

Deno.test("500 pads edited at once are each in the file before their edit is echoed, with no snapshot", async () => {
  await using file = await sqliteFile();
  const { path } = file;
  using database = new SqlitePadDatabase(path);
  await using server = await startPadServer({ database, log: () => {} });
  const ids = Array.from({ length: 500 }, (_, i) => `pad-${i}`);
  for (let i = 0; i < ids.length; i += 100) {
    await Promise.all(
      ids.slice(i, i + 100).map((id) => type(server.url, id, [id, "!"])),
    );
  }
  assert.equal(database.size, 500);
  assert.equal(database.get("pad-499")?.text, "pad-499!");
  assert.equal(database.load("pad-499")?.log.length, 2);
});

Deno.test("a pads file a sqlite3 shell holds is refused at open in one line, and a file a pad server holds is refused to another opener while its writes go on", async () => {
  await using file = await sqliteFile();
  const { path } = file;
  {
    await using shell = new Shell(path);
    await shell.run("BEGIN IMMEDIATE;", "locked");
    assert.throws(
      () => new SqlitePadDatabase(path),
      new RegExp(
        `^Error: Cannot persist pads in ${path} as another process holds it \\(a pad server serving it\\?\\): database is locked; stop that process, or use another file$`,
      ),
    );
    await shell.run("ROLLBACK;", "released");
  }
  using database = new SqlitePadDatabase(path);
  await using server = await startPadServer({ database });
  await type(server.url, "mine", ["a"]);
  assert.throws(() => new SqlitePadDatabase(path), /another process holds it/);
  await type(server.url, "other", ["b"]);
  assert.equal(database.get("mine")?.text, "a");
  assert.equal(database.get("other")?.text, "b");
});
