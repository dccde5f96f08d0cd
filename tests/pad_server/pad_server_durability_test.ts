// Nothing acknowledged is lost, through real processes: a pad server child
// killed with SIGKILL in a loop while raw sockets type on several pads, a
// pads file garbled on disk, and a store on a tmpfs that fills.

import assert from "node:assert/strict";
import { SqlitePadDatabase } from "../../src/pad_server/mod.ts";
import {
  padServerArgs,
  spawnServer,
  startChild,
  Typist,
} from "./_child_server.ts";
import { delay, TestClient } from "./_test_client.ts";

const TRIALS = 8;
const PADS = ["one", "two", "three", "four"];

/** The tokens a pad holds, each with its `;`. */
async function tokensOf(url: string, padId: string): Promise<string[]> {
  const text = await (await fetch(`${url}/api/text/${padId}`)).text();
  return text.match(/[^;]*;/g) ?? [];
}

Deno.test("a pad server killed with SIGKILL while four people type loses no acknowledged edit in any of 8 trials, and revisions go on after each restart", async () => {
  const dir = await Deno.makeTempDir();
  const path = `${dir}/pads.sqlite`;
  /** Per pad, every token acknowledged in any trial, in order. */
  const acknowledged = new Map(PADS.map((padId) => [padId, [] as string[]]));
  let lost = 0;
  try {
    for (let trial = 0; trial < TRIALS; trial++) {
      const server = await startChild(path);
      // Before typing: every token acknowledged so far is there, in order.
      for (const padId of PADS) {
        const stored = await tokensOf(server.url, padId);
        const known = acknowledged.get(padId)!;
        const kept = known.filter((token, i) => stored[i] === token).length;
        lost += known.length - kept;
        assert.equal(kept, known.length, `trial ${trial}, pad ${padId}`);
        // Tokens stored but never acknowledged count as known from here.
        known.splice(0, known.length, ...stored);
      }
      const typists = PADS.map((padId) =>
        new Typist(server.url, padId, (n) => `${trial}.${n};`)
      );
      await delay(150 + Math.floor(Math.random() * 350));
      server.child.kill("SIGKILL");
      await server.child.status;
      await Promise.all(typists.map((typist) => typist.closed));
      for (const [index, typist] of typists.entries()) {
        const known = acknowledged.get(PADS[index]!)!;
        // Revisions went on from what was stored: one per token.
        if (typist.joinedAt !== -1) assert.equal(typist.joinedAt, known.length);
        known.push(...typist.acknowledged);
      }
    }
    const server = await startChild(path);
    for (const padId of PADS) {
      const stored = await tokensOf(server.url, padId);
      const known = acknowledged.get(padId)!;
      lost += known.filter((token, i) => stored[i] !== token).length;
    }
    server.child.kill("SIGTERM");
    assert.equal((await server.child.status).code, 0, await server.stderr);
    const total = [...acknowledged.values()].reduce((n, t) => n + t.length, 0);
    console.log(
      `SIGKILL trials: ${TRIALS}, edits acknowledged: ${total}, lost: ${lost}`,
    );
    assert.equal(lost, 0);
    assert.ok(total > TRIALS * PADS.length, `only ${total} edits typed`);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a pad server killed with SIGKILL hands out no user id of a stored pad again, even the ids of connections that never edited", async () => {
  const dir = await Deno.makeTempDir();
  const path = `${dir}/pads.sqlite`;
  const identity = async (client: TestClient) =>
    JSON.parse((await client.next(1))[0]!).Identity as number;
  try {
    const server = await startChild(path);
    const writer = new TestClient(server.url, "ids");
    assert.equal(await identity(writer), 0);
    writer.send(JSON.stringify({ Edit: { revision: 0, operation: ["a"] } }));
    await writer.next(1); // its own edit, acknowledged: the pad is stored
    const watchers = [1, 2].map(() => new TestClient(server.url, "ids"));
    const ids = await Promise.all(watchers.map(identity));
    assert.deepEqual(ids.sort(), [1, 2]);
    server.child.kill("SIGKILL");
    await server.child.status;
    await Promise.all([writer, ...watchers].map((client) => client.closed));
    const again = await startChild(path);
    const next = new TestClient(again.url, "ids");
    assert.equal(await identity(next), 3);
    await next.close();
    again.child.kill("SIGTERM");
    assert.equal((await again.child.status).code, 0, await again.stderr);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a pads file with a garbled page is refused at start with one line naming it and what to do", async () => {
  const dir = await Deno.makeTempDir();
  const path = `${dir}/pads.sqlite`;
  try {
    {
      using database = new SqlitePadDatabase(path);
      for (let i = 0; i < 40; i++) {
        database.set(`pad-${i}`, { text: `${i} `.repeat(500), language: null });
      }
    }
    const file = await Deno.open(path, { read: true, write: true });
    // The third page: the index of pad ids.
    const garbage = new Uint8Array(4096).map((_, i) => (i * 73 + 11) & 0xff);
    await file.seek(4096 * 2, Deno.SeekMode.Start);
    await file.write(garbage);
    file.close();
    const child = new Deno.Command(Deno.execPath(), {
      args: padServerArgs("--db", path),
      stdout: "piped",
      stderr: "piped",
    });
    const { code, stdout, stderr } = await child.output();
    const lines = new TextDecoder().decode(stderr).trim().split("\n");
    assert.equal(code, 2);
    assert.equal(new TextDecoder().decode(stdout), "", "never served");
    assert.equal(lines.length, 1, lines.join("\n"));
    assert.match(
      lines[0]!,
      new RegExp(
        `^error: Cannot persist pads in ${path} as it is not a usable SQLite database: .+; move it aside \\(mv ${path} ${path}\\.damaged\\) to start with an empty file, or restore it from a backup$`,
      ),
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

/** Whether this machine lets `unshare -rm` mount a tmpfs. */
function canMountTmpfs(): boolean {
  try {
    return new Deno.Command("unshare", {
      args: ["-rm", "sh", "-c", "mount -t tmpfs -o size=64k tmpfs /mnt"],
      stdout: "null",
      stderr: "null",
    }).outputSync().success;
  } catch {
    return false;
  }
}

/** Open a socket on `padId`, send one edit, and say what came back. */
async function editOnce(
  url: string,
  padId: string,
  frame: string,
): Promise<{ echoed: boolean; closedByServer: boolean }> {
  const client = new TestClient(url, padId);
  await client.next(1);
  client.send(frame);
  const frames = await client.next(1);
  const echoed = frames.some((f) => f.startsWith('{"History"'));
  if (echoed) await client.close();
  await client.closed;
  return { echoed, closedByServer: client.closedByServer };
}

Deno.test({
  name:
    "a store on a tmpfs that fills: the edit that does not fit is never acknowledged, a pad that fits is stored, and SIGTERM exits 1 naming the pad not stored",
  ignore: !canMountTmpfs(),
  async fn() {
    const dir = await Deno.makeTempDir();
    try {
      // The pad server runs in a mount namespace of its own, on a tmpfs
      // of 256 KiB holding its pads file.
      const args = padServerArgs("--db", `${dir}/pads.sqlite`);
      const script =
        `mount -t tmpfs -o size=256k tmpfs ${dir} && exec "$0" "$@"`;
      const server = await spawnServer("unshare", [
        "-rm",
        "sh",
        "-c",
        script,
        Deno.execPath(),
        ...args,
      ]);
      const small = '{"Edit":{"revision":0,"operation":["a"]}}';
      assert.deepEqual(await editOnce(server.url, "small", small), {
        echoed: true,
        closedByServer: false,
      });
      const big = JSON.stringify({
        Edit: { revision: 0, operation: ["x".repeat(200_000)] },
      });
      assert.deepEqual(await editOnce(server.url, "big", big), {
        echoed: false,
        closedByServer: true,
      });
      const more = '{"Edit":{"revision":1,"operation":[1,"b"]}}';
      assert.deepEqual(await editOnce(server.url, "small", more), {
        echoed: true,
        closedByServer: false,
      });
      // What memory holds is what is stored.
      const text = async (padId: string) =>
        await (await fetch(`${server.url}/api/text/${padId}`)).text();
      assert.equal(await text("big"), "");
      assert.equal(await text("small"), "ab");
      server.child.kill("SIGTERM");
      const { code } = await server.child.status;
      const stderr = await server.stderr;
      assert.equal(code, 1, stderr);
      assert.match(
        stderr,
        /rustpad-mcp: pad server: Cannot store pad big in .* as SQLite failed: database or disk is full; its 1 newest operations were not acknowledged/,
      );
      assert.match(
        stderr,
        /\nerror: Cannot stop with every pad stored as the last write of 1 failed: big \(Cannot store pad big in .*: database or disk is full\)\n$/,
      );
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test({
  name:
    "one group commit of two pads on a tmpfs that fills stores the pad that fits and names the one that does not",
  ignore: !canMountTmpfs(),
  async fn() {
    const dir = await Deno.makeTempDir();
    try {
      const script = new URL("./_fill_store.ts", import.meta.url).href;
      const { code, stdout, stderr } = await new Deno.Command("unshare", {
        args: [
          "-rm",
          "sh",
          "-c",
          `mount -t tmpfs -o size=160k tmpfs ${dir} && exec "$0" "$@"`,
          Deno.execPath(),
          "run",
          "-A",
          script,
          `${dir}/pads.sqlite`,
        ],
      }).output();
      const decoder = new TextDecoder();
      assert.equal(code, 0, decoder.decode(stderr));
      assert.deepEqual(JSON.parse(decoder.decode(stdout)), {
        failed: ["big"],
        big: null,
        small: "fits",
      });
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});
