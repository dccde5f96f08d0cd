// The editor page's OT client against the pad server, over real sockets,
// without a browser: what the page does when people type at once, when the
// connection is cut, and when the server restarts.

import assert from "node:assert/strict";
import { TextOperation } from "../../src/ot/operation.ts";
import { PadDatabase, startPadServer } from "../../src/pad_server/mod.ts";
import { PadClient } from "../../src/pad_server/editor/pad_client.ts";
import {
  diffOperation,
  fromUtf16Changes,
  toCodePointOffset,
  toUtf16Changes,
  toUtf16Offset,
} from "../../src/pad_server/editor/units.ts";
import { waitUntil } from "./_test_client.ts";

const FAMILY = "👨‍👨‍👦‍👦"; // 7 code points, 11 UTF-16 units

function socketUrl(url: string, padId: string): string {
  return `${url.replace("http", "ws")}/api/socket/${padId}`;
}

function open(url: string, padId: string, name: string): PadClient {
  return new PadClient({
    url: socketUrl(url, padId),
    user: { name, hue: 10 },
    reconnectMs: 20,
  });
}

/** Type `text` one character at a time, from code point `from` on. */
function typeAt(client: PadClient, from: number, text: string): void {
  let at = from;
  for (const character of text) {
    const length = [...client.text].length;
    client.edit(
      new TextOperation().retain(at).insert(character).retain(length - at),
    );
    at++;
  }
}

Deno.test("positions convert between code points on the wire and UTF-16 in the editor, astral characters included", () => {
  const text = `a🎉b${FAMILY}c`;
  assert.equal(toUtf16Offset(text, 2), 3);
  assert.equal(toUtf16Offset(text, 3), 4);
  assert.equal(toUtf16Offset(text, 10), 15);
  assert.equal(toUtf16Offset(text, 99), text.length);
  assert.equal(toCodePointOffset(text, 3), 2);
  assert.equal(toCodePointOffset(text, 15), 10);
  // Delete the family, insert an emoji after the party popper.
  const operation = TextOperation.fromJSON([2, "🎈", 1, -7, 1]);
  const changes = toUtf16Changes(operation, text);
  assert.deepEqual(changes, [
    { from: 3, to: 3, insert: "🎈" },
    { from: 4, to: 15, insert: "" },
  ]);
  assert.deepEqual(fromUtf16Changes(text, changes).toJSON(), [
    2,
    "🎈",
    1,
    -7,
    1,
  ]);
  assert.equal(operation.apply(text), "a🎉🎈bc");
  // A change inside one emoji for another widens to the whole pair.
  assert.deepEqual(diffOperation("x🎉y", "x🎊y").toJSON(), [1, "🎊", -1, 1]);
  assert.deepEqual(diffOperation("🎉", "🎉🎉").toJSON(), [1, "🎉"]);
});

Deno.test("two editor clients typing at once, with emoji, end with the same text as the server, every character once", async () => {
  await using server = await startPadServer({
    pads: { pair: { text: "|" } },
  });
  const ada = open(server.url, "pair", "Ada");
  const bob = open(server.url, "pair", "Bob");
  try {
    await Promise.all([ada.connected, bob.connected]);
    typeAt(ada, 0, "Ada 🎉 ");
    typeAt(bob, 1, ` Bob ${FAMILY}`);
    await Promise.all([ada.settled(), bob.settled()]);
    assert.ok(
      await waitUntil(() =>
        ada.text === server.text("pair") && bob.text === server.text("pair")
      ),
      `${ada.text} / ${bob.text} / ${server.text("pair")}`,
    );
    assert.equal(server.text("pair"), `Ada 🎉 | Bob ${FAMILY}`);
    assert.equal(ada.peers.size, 1);
    assert.equal([...ada.peers.values()][0]?.info.name, "Bob");
  } finally {
    ada.close();
    bob.close();
  }
});

Deno.test("an edit the server applied just before cutting the connection is not sent again after the reconnect", async () => {
  await using server = await startPadServer({ pads: { cut: { text: "" } } });
  const ada = open(server.url, "cut", "Ada");
  try {
    await ada.connected;
    server.dropNextEdit({ pad: "cut", when: "after-apply" });
    ada.edit(TextOperation.fromJSON(["once"]));
    await ada.settled();
    assert.equal(ada.status, "connected");
    assert.equal(server.text("cut"), "once");
    assert.equal(ada.text, "once");
  } finally {
    ada.close();
  }
});

Deno.test("when the connection is cut after the server applied an edit, the edits buffered behind it go once on the new connection", async () => {
  await using server = await startPadServer({ pads: { buf: { text: "" } } });
  const ada = open(server.url, "buf", "Ada");
  try {
    await ada.connected;
    server.dropNextEdit({ pad: "buf", when: "after-apply" });
    ada.edit(TextOperation.fromJSON(["one"]));
    // Both wait behind "one": composed into one buffered edit.
    ada.edit(TextOperation.fromJSON([3, " two"]));
    ada.edit(TextOperation.fromJSON([7, " three"]));
    await ada.settled();
    assert.equal(server.text("buf"), "one two three");
    assert.equal(ada.text, "one two three");
    assert.equal(ada.status, "connected");
  } finally {
    ada.close();
  }
});

Deno.test("after the server restarts with the pad restored, a client keeps its text and an edit typed while it was away", async () => {
  const database = new PadDatabase({ back: { text: "before 🎉" } });
  const first = await startPadServer({ database, snapshotIntervalMs: 0 });
  const port = first.port;
  const ada = open(first.url, "back", "Ada");
  try {
    await ada.connected;
    ada.edit(TextOperation.fromJSON([8, " more"]));
    await ada.settled();
    first.snapshot();
    await first.close();
    assert.ok(await waitUntil(() => ada.status !== "connected"), "noticed");
    // Typed while the server was down: it waits, then goes to the new one.
    ada.edit(TextOperation.fromJSON(["> ", 13]));
    await using second = await startPadServer({ database, port });
    await ada.settled();
    assert.equal(ada.status, "connected");
    assert.equal(second.text("back"), "> before 🎉 more");
    assert.equal(ada.text, "> before 🎉 more");
  } finally {
    ada.close();
  }
});

Deno.test("after the server restarts without the pad, a client's text becomes the server's and its own unsent edit is kept", async () => {
  const first = await startPadServer();
  const port = first.port;
  const ada = open(first.url, "lost", "Ada");
  try {
    await ada.connected;
    ada.edit(TextOperation.fromJSON(["lost text"]));
    await ada.settled();
    await first.close();
    assert.ok(await waitUntil(() => ada.status !== "connected"), "noticed");
    ada.edit(TextOperation.fromJSON([9, "!"]));
    await using second = await startPadServer({
      port,
      pads: { lost: { text: "other" } },
    });
    await ada.settled();
    assert.equal(second.text("lost"), "other!");
    assert.equal(ada.text, "other!");
  } finally {
    ada.close();
  }
});
