// Three clients edit one pad at once, on stale revisions, and all end with
// the server's text.

import assert from "node:assert/strict";
import { TextOperation } from "../../src/ot/operation.ts";
import {
  encodeMessage,
  parseServerMessage,
  type ServerMessage,
} from "../../src/rustpad/protocol.ts";
import { startPadServer } from "../../src/pad_server/mod.ts";
import { delay, TestClient, waitForQuiet, waitUntil } from "./_test_client.ts";

/**
 * The ot.js client: at most one operation awaiting its acknowledgement
 * (`pending`) and the edits made meanwhile (`buffer`).
 */
class OtClient {
  readonly connection: TestClient;
  userId: number | bigint | undefined;
  /** Operations of the server's history applied here. */
  revision = 0;
  text = "";
  pending: TextOperation | null = null;
  buffer: TextOperation | null = null;
  /** Server operations that arrived while an edit of ours was in flight. */
  concurrent = 0;

  constructor(serverUrl: string, padId: string) {
    this.connection = new TestClient(serverUrl, padId);
    this.connection.socket.addEventListener("message", (event) => {
      this.#receive(parseServerMessage(event.data));
    });
  }

  get idle(): boolean {
    return this.userId !== undefined && this.pending === null;
  }

  edit(operation: TextOperation): void {
    this.text = operation.apply(this.text);
    if (this.pending === null) {
      this.pending = operation;
      this.#send(operation);
    } else {
      this.buffer = this.buffer?.compose(operation) ?? operation;
    }
  }

  #send(operation: TextOperation): void {
    this.connection.send(
      encodeMessage({ Edit: { revision: this.revision, operation } }),
    );
  }

  #receive(message: ServerMessage): void {
    if ("Identity" in message) this.userId = message.Identity;
    if (!("History" in message)) return;
    const { start, operations } = message.History;
    for (const [offset, { id, operation }] of operations.entries()) {
      if (start + offset < this.revision) continue; // already applied
      this.revision++;
      if (id === this.userId && this.pending !== null) {
        this.pending = this.buffer;
        this.buffer = null;
        if (this.pending !== null) this.#send(this.pending);
        continue;
      }
      //         S
      //  pending / \ theirs
      //       /   \
      //       \   /
      // theirs' \ / pending'
      // Our operation goes first, as the server calls it.
      let theirs = operation;
      if (this.pending !== null) {
        this.concurrent++;
        [this.pending, theirs] = this.pending.transform(theirs);
        if (this.buffer !== null) {
          [this.buffer, theirs] = this.buffer.transform(theirs);
        }
      }
      this.text = theirs.apply(this.text);
    }
  }
}

/** mulberry32: a small seeded generator, so a failure replays. */
function seeded(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const INSERTS = ["a", "🎉", "xy ", "\n", "👨‍👨‍👦‍👦", "\u{E000}"];

function randomEdit(text: string, random: () => number): TextOperation {
  const length = [...text].length;
  const position = Math.floor(random() * (length + 1));
  if (position < length && random() < 0.4) {
    const count = 1 + Math.floor(random() * Math.min(3, length - position));
    return new TextOperation().retain(position).delete(count)
      .retain(length - position - count);
  }
  const insert = INSERTS[Math.floor(random() * INSERTS.length)] ?? "a";
  return new TextOperation().retain(position).insert(insert)
    .retain(length - position);
}

Deno.test("PadServer makes concurrent clients on stale revisions converge on its text", async () => {
  const server = await startPadServer();
  const random = seeded(20240611);
  const clients = [
    new OtClient(server.url, "race"),
    new OtClient(server.url, "race"),
  ];
  try {
    assert.ok(await waitUntil(() => clients.every((c) => c.idle)));
    for (let round = 0; round < 30; round++) {
      if (round === 10) {
        // A third joins late, from the whole history, and edits too.
        const late = new OtClient(server.url, "race");
        clients.push(late);
        assert.ok(await waitUntil(() => late.idle));
      }
      // Each edits a few times in the same tick: their edits cross.
      for (const client of clients) {
        const edits = 1 + Math.floor(random() * 3);
        for (let i = 0; i < edits; i++) {
          client.edit(randomEdit(client.text, random));
        }
      }
      await delay(random() < 0.5 ? 0 : 1);
    }
    const revisionsAgree = () =>
      clients.every((c) =>
        c.idle && c.buffer === null && c.revision === clients[0]?.revision
      );
    assert.ok(await waitUntil(revisionsAgree), "every edit was acknowledged");
    await waitForQuiet(clients.map((c) => c.connection), 15);
    assert.ok(revisionsAgree());

    const response = await fetch(`${server.url}/api/text/race`);
    const text = await response.text();
    assert.ok(text.length > 0);
    assert.deepEqual(clients.map((c) => c.text), [text, text, text]);
    assert.ok(
      clients.every((c) => c.concurrent > 0),
      "every client had an edit in flight when another's arrived",
    );
  } finally {
    await Promise.all(clients.map((c) => c.connection.close()));
    await server.close();
  }
});
