import assert from "node:assert/strict";
// @ts-types="@modelcontextprotocol/sdk/client/index"
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
// @ts-types="@modelcontextprotocol/sdk/inMemory"
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { connect, errorOf, structured, textOf } from "../_mcp.ts";
import { createBackend, createServer, loadConfig } from "../../src/mod.ts";
import { startPadServer } from "../../src/testing/mod.ts";

Deno.test("a retried append with the same idempotency_key lands once and says replayed", async () => {
  await using h = await connect();
  const args = { id: "log", text: "entry\n", idempotency_key: "append-1" };
  const first = structured(await h.call("append_to_document", args));
  const retry = await h.call("append_to_document", args);
  assert.equal(first.replayed, undefined);
  assert.deepEqual(structured(retry), { ...first, replayed: true });
  assert.match(textOf(retry), /^Replayed/);
  assert.equal(await h.text("log"), "entry\n");
});

Deno.test("a retried suggestion with the same idempotency_key holds one suggestion and replays its id", async () => {
  await using h = await connect();
  await h.call("append_to_document", { id: "proposal", text: "draft\n" });
  const args = {
    id: "proposal",
    text: "more\n",
    suggest: true,
    idempotency_key: "suggest-1",
  };
  const first = structured(await h.call("append_to_document", args));
  const retry = structured(await h.call("append_to_document", args));
  assert.equal(first.status, "suggested");
  assert.deepEqual(retry, { ...first, replayed: true });
  const listed = structured(
    await h.call("list_suggestions", { id: "proposal" }),
  );
  assert.deepEqual(
    (listed.suggestions as { suggestion_id: string }[]).map((s) =>
      s.suggestion_id
    ),
    [first.suggestion_id],
  );
  assert.equal(await h.text("proposal"), "draft\n");
});

Deno.test("the same idempotency_key with other arguments is refused, changing nothing", async () => {
  await using h = await connect();
  structured(
    await h.call("append_to_document", {
      id: "log2",
      text: "a",
      idempotency_key: "k-other",
    }),
  );
  const message = errorOf(
    await h.call("append_to_document", {
      id: "log2",
      text: "b",
      idempotency_key: "k-other",
    }),
  );
  assert.match(message, /idempotency_key "k-other" .* other arguments/);
  assert.equal(await h.text("log2"), "a");
});

Deno.test("a retry while the first call still waits on a slow server lands once", async () => {
  await using h = await connect();
  structured(await h.call("append_to_document", { id: "slow", text: "[" }));
  h.pads.setFrameDelay(300);
  const args = { id: "slow", text: "x", idempotency_key: "slow-1" };
  const first = h.call("append_to_document", args);
  await new Promise((resolve) => setTimeout(resolve, 50));
  const retry = await h.call("append_to_document", args);
  const original = structured(await first);
  h.pads.setFrameDelay(0);
  assert.deepEqual(structured(retry), { ...original, replayed: true });
  assert.equal(await h.text("slow"), "[x");
});

Deno.test("idempotency keys are shared by the MCP connections of one backend", async () => {
  await using pads = await startPadServer();
  await using backend = createBackend(loadConfig({ RUSTPAD_URL: pads.url }));
  const clients: Client[] = [];
  for (let i = 0; i < 2; i++) {
    const server = createServer(backend.config, { backend });
    const client = new Client({ name: `agent-${i}`, version: "1.0.0" });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
    clients.push(client);
  }
  const args = {
    id: "shared-key",
    edits: [{ start_line: 1, end_line: 0, new_string: "top" }],
    idempotency_key: "edit-1",
  };
  const results = [];
  for (const client of clients) {
    results.push(
      await client.callTool({ name: "edit_document", arguments: args }),
    );
    await client.close();
  }
  assert.equal(
    (results[1]?.structuredContent as { replayed?: boolean }).replayed,
    true,
  );
  assert.equal(
    await (await fetch(`${pads.url}/api/text/shared-key`)).text(),
    "top",
  );
});

Deno.test("a call that changed nothing does not hold its key: the retry runs", async () => {
  await using h = await connect();
  const args = {
    id: "later",
    edits: [{ old_string: "missing", new_string: "x" }],
    idempotency_key: "not-yet",
  };
  errorOf(await h.call("edit_document", args));
  structured(
    await h.call("append_to_document", {
      id: "later",
      text: "missing words and more",
    }),
  );
  const retry = structured(await h.call("edit_document", args));
  assert.equal(retry.status, "applied");
  assert.equal(await h.text("later"), "x words and more");
});

Deno.test("a retry after the Rustpad connection dropped once the edit had landed replays it, landing once", async () => {
  await using h = await connect();
  h.pads.dropNextEdit({ pad: "drop", when: "after-apply" });
  const args = { id: "drop", text: "once", idempotency_key: "drop-1" };
  const first = structured(await h.call("append_to_document", args));
  assert.match(String(first.note), /history shows it landed/);
  const retry = structured(await h.call("append_to_document", args));
  assert.equal(retry.replayed, true);
  assert.equal(await h.text("drop"), "once");
});

Deno.test("a retry after an edit that did not land runs again under the same key", async () => {
  await using h = await connect();
  await h.call("append_to_document", { id: "lost", text: "[" });
  h.pads.dropNextEdit({ pad: "lost", when: "before-apply" });
  const args = { id: "lost", text: "x", idempotency_key: "lost-1" };
  assert.match(
    errorOf(await h.call("append_to_document", args)),
    /did not land/,
  );
  const retry = structured(await h.call("append_to_document", args));
  assert.equal(retry.replayed, undefined);
  assert.equal(await h.text("lost"), "[x");
});
