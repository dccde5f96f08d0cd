// RUSTPAD_MAX_OPEN_PADS through the SDK client: idle pads make room, held
// ones (a subscription, a running wait, a call in flight) never close under
// their holder, a call on one more pad is refused naming the variable and
// the count, and reaching the bound loses nothing and stops nothing.

import assert from "node:assert/strict";
import { connect, errorOf, structured, waitFor } from "../_mcp.ts";
import { LivePads } from "../../src/backend/live_pads.ts";

const LIMIT =
  /RUSTPAD_MAX_OPEN_PADS=5 allows.*current count is 5\. Nothing was changed/;

Deno.test("with RUSTPAD_MAX_OPEN_PADS=5, writes to 12 pads all land while at most 5 stay open", async () => {
  await using h = await connect({ env: { RUSTPAD_MAX_OPEN_PADS: "5" } });
  for (let n = 0; n < 12; n++) {
    structured(
      await h.call("append_to_document", { id: `p${n}`, text: `text ${n}` }),
    );
    const { resources } = await h.client.listResources();
    assert.ok(resources.length <= 5, `${resources.length} open after ${n}`);
  }
  for (let n = 0; n < 12; n++) assert.equal(await h.text(`p${n}`), `text ${n}`);
  // A pad closed to make room opens again on the next call, as it was.
  const read = structured(await h.call("get_document", { id: "p0" }));
  assert.equal(read.text, "text 0");
});

Deno.test("with 5 pads held by subscriptions, a call or a subscription on a 6th is refused, held pads answer, and unsubscribing makes room", async () => {
  await using h = await connect({ env: { RUSTPAD_MAX_OPEN_PADS: "5" } });
  for (let n = 0; n < 5; n++) {
    await h.client.subscribeResource({ uri: `rustpad://pad/s${n}` });
  }
  const refused = errorOf(await h.call("get_document", { id: "s5" }));
  assert.match(refused, /^Cannot open pad "s5" as/);
  assert.match(refused, LIMIT);
  await assert.rejects(
    h.client.subscribeResource({ uri: "rustpad://pad/s5" }),
    LIMIT,
  );
  // Every held pad goes on answering and taking writes.
  structured(await h.call("append_to_document", { id: "s0", text: "kept" }));
  assert.equal(await h.text("s0"), "kept");
  await h.client.unsubscribeResource({ uri: "rustpad://pad/s4" });
  structured(await h.call("append_to_document", { id: "s5", text: "room" }));
  assert.equal(await h.text("s5"), "room");
  assert.equal((await h.client.listResources()).resources.length, 5);
  assert.ok(Deno.memoryUsage().heapUsed < 512 * 2 ** 20);
});

Deno.test("a running `wait_for_change` holds its pad; cancelling it lets the pad go at once", async () => {
  await using h = await connect({ env: { RUSTPAD_MAX_OPEN_PADS: "1" } });
  const live = LivePads.of(h.server.backend.sessions);
  const controller = new AbortController();
  const waiting = h.client.callTool(
    {
      name: "wait_for_change",
      arguments: { id: "held", since_revision: 0, timeout_seconds: 600 },
    },
    undefined,
    { signal: controller.signal },
  );
  await waitFor(() => live.watchers("held") === 1, "the wait to start");
  const refused = errorOf(await h.call("get_document", { id: "other" }));
  assert.match(refused, /RUSTPAD_MAX_OPEN_PADS=1 allows.*current count is 1/);
  controller.abort("done waiting");
  await assert.rejects(waiting);
  await waitFor(() => live.watchers("held") === 0, "the wait to end");
  structured(await h.call("get_document", { id: "other" }));
  assert.deepEqual(live.openPads, ["other"]);
});

Deno.test("a call in flight holds its pad: while a person is asked, another pad is refused, and the write then lands", async () => {
  const answer = Promise.withResolvers<void>();
  let asked = false;
  await using h = await connect({
    env: { RUSTPAD_MAX_OPEN_PADS: "1" },
    elicit: async () => {
      asked = true;
      await answer.promise;
      return { action: "accept", content: { confirm: true } };
    },
  });
  structured(await h.call("append_to_document", { id: "a", text: "old" }));
  const writing = h.call("set_document", { id: "a", text: "new" });
  await waitFor(() => asked, "the person to be asked");
  const refused = errorOf(await h.call("get_document", { id: "b" }));
  assert.match(refused, /RUSTPAD_MAX_OPEN_PADS=1 allows.*current count is 1/);
  answer.resolve();
  assert.equal(structured(await writing).status, "applied");
  assert.equal(await h.text("a"), "new");
  structured(await h.call("get_document", { id: "b" }));
});
