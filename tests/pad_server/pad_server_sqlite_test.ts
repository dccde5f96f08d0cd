// The SQLite file under pressure from outside: a real `sqlite3` shell holds
// a read transaction (snapshots go on, WAL) or the write lock (snapshots
// fail, are logged and retried; the process stays up and nothing applied
// is lost). NUL and every other code point survive a restart, and all the
// changed pads of a snapshot go in one transaction.

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

Deno.test("a sqlite3 shell holding the write lock makes snapshots fail, logged, never fatal, and the next snapshot after it lets go writes every edit", async () => {
  await using file = await sqliteFile();
  const { path } = file;
  using database = new SqlitePadDatabase(path);
  const lines: string[] = [];
  await using server = await startPadServer({
    database,
    snapshotIntervalMs: 30,
    log: (line) => lines.push(line),
  });
  {
    await using shell = new Shell(path);
    await shell.run("BEGIN IMMEDIATE;", "locked");
    await type(server.url, "held", ["a", "b", "c"]);
    assert.ok(
      await waitUntil(() => lines.length >= 2),
      "two failed snapshots logged",
    );
    assert.match(
      lines[0]!,
      /^rustpad-mcp: pad server: Cannot store 1 pads in .* as SQLite failed: database is locked; it is retried at the next snapshot$/,
    );
    // Still serving, other pads included.
    await type(server.url, "other", ["d"]);
    assert.equal(
      await (await fetch(`${server.url}/api/text/held`)).text(),
      "abc",
    );
    await shell.run("ROLLBACK;", "released");
  }
  assert.ok(
    await waitUntil(() =>
      database.get("held")?.text === "abc" &&
      database.get("other")?.text === "d"
    ),
    "written once the lock is gone",
  );
});

Deno.test("a sqlite3 shell holding a read transaction does not stop snapshots", async () => {
  await using file = await sqliteFile();
  const { path } = file;
  using database = new SqlitePadDatabase(path);
  const lines: string[] = [];
  await using server = await startPadServer({
    database,
    snapshotIntervalMs: 30,
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

Deno.test("a snapshot writes 2,000 changed pads in one transaction: all of them, or none while the file is locked", async () => {
  await using file = await sqliteFile();
  const { path } = file;
  using database = new SqlitePadDatabase(path);
  await using server = await startPadServer({
    database,
    snapshotIntervalMs: 0,
    log: () => {},
  });
  const ids = Array.from({ length: 2000 }, (_, i) => `pad-${i}`);
  for (let i = 0; i < ids.length; i += 100) {
    await Promise.all(
      ids.slice(i, i + 100).map((id) => type(server.url, id, [id])),
    );
  }
  {
    await using shell = new Shell(path);
    await shell.run("BEGIN IMMEDIATE;", "locked");
    assert.equal(server.snapshot(), false);
    assert.equal(database.size, 0);
    await shell.run("ROLLBACK;", "released");
  }
  assert.equal(server.snapshot(), true);
  assert.equal(database.size, 2000);
  assert.equal(database.get("pad-1999")?.text, "pad-1999");
});
