// How the page carries a suggestion's positions, listed on the pad's text
// at some revision, to the text it shows: through the operations since and
// through its own edits not yet acknowledged. Real sockets, no browser.

import assert from "node:assert/strict";
import { TextOperation } from "../../src/ot/operation.ts";
import { startPadServer } from "../../src/pad_server/mod.ts";
import { PadClient } from "../../src/pad_server/editor/pad_client.ts";
import { waitUntil } from "./_test_client.ts";

function open(url: string, padId: string, name: string): PadClient {
  return new PadClient({
    url: `${url.replace("http", "ws")}/api/socket/${padId}`,
    user: { name, hue: 10 },
  });
}

Deno.test("PadClient.carry() moves positions of an earlier revision through others' operations since and its own edit in flight", async () => {
  await using server = await startPadServer({
    pads: { carry: { text: "ab🎉cd" } },
  });
  const page = open(server.url, "carry", "Page");
  const other = open(server.url, "carry", "Other");
  try {
    await Promise.all([page.connected, other.connected]);
    const listed = page.revision;
    // "cd" starts at 4 in UTF-16 (the emoji is two units), 3 in code points.
    const anchors = [
      { at: 4, assoc: 1 as const },
      { at: 6, assoc: -1 as const },
    ];
    assert.deepEqual(page.carry(listed, anchors), [4, 6]);
    // Someone else puts a line before it and deletes the "b".
    other.edit(TextOperation.fromJSON(["// 🎈\n", 1, -1, 3]));
    await waitUntil(() => page.revision === listed + 1, 3000);
    assert.equal(page.text, "// 🎈\na🎉cd");
    assert.deepEqual(page.carry(listed, anchors), [9, 11]);
    // This page's own edit before it, not yet acknowledged, counts too.
    page.edit(TextOperation.fromJSON(["> ", 9]));
    assert.ok(page.pending);
    assert.deepEqual(page.carry(listed, anchors), [11, 13]);
    assert.equal(page.text.slice(11, 13), "cd");
    // A list of a revision this page has not reached cannot be placed yet.
    assert.equal(page.carry(page.revision + 1, anchors), undefined);
    await page.settled();
  } finally {
    page.close();
    other.close();
  }
});

Deno.test("PadClient.carry() keeps an insert point before a person's insert at it with assoc -1, after it with 1", async () => {
  await using server = await startPadServer({ pads: { tie: { text: "xy" } } });
  const page = open(server.url, "tie", "Page");
  try {
    await page.connected;
    const listed = page.revision;
    page.edit(TextOperation.fromJSON([1, "--", 1]));
    await page.settled();
    assert.deepEqual(
      page.carry(listed, [{ at: 1, assoc: -1 }, { at: 1, assoc: 1 }]),
      [1, 3],
    );
  } finally {
    page.close();
  }
});
