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
import { delay } from "./_test_client.ts";

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
