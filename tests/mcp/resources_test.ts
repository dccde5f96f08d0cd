import assert from "node:assert/strict";
// @ts-types="@modelcontextprotocol/sdk/types"
import {
  ResourceListChangedNotificationSchema,
  ResourceUpdatedNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { connect, waitFor } from "../_mcp.ts";
import { RawPerson } from "../_person.ts";
import { LivePads } from "../../src/backend/live_pads.ts";

/** The text of the first content item of a resource read. */
function textOf(contents: readonly Record<string, unknown>[]): unknown {
  return contents[0]?.text;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

Deno.test("the pad resource template is listed as text/plain with a title and description", async () => {
  await using h = await connect();
  const { resourceTemplates } = await h.client.listResourceTemplates();
  assert.equal(resourceTemplates.length, 1);
  const [template] = resourceTemplates;
  assert.equal(template?.uriTemplate, "rustpad://pad/{id}");
  assert.equal(template?.mimeType, "text/plain");
  assert.ok(template?.title);
  assert.match(String(template?.description), /untrusted/);
  assert.equal(h.client.getServerCapabilities()?.resources?.subscribe, true);
});

Deno.test("reading a pad resource returns its text marked untrusted, with source and revision", async () => {
  await using h = await connect();
  await using person = await RawPerson.open(h.pads.url, "res-read");
  await person.type(0, "hi🎉");
  const { contents } = await h.client.readResource({
    uri: "rustpad://pad/res-read",
  });
  assert.equal(contents.length, 1);
  assert.equal(textOf(contents), "hi🎉");
  assert.equal(contents[0]?.mimeType, "text/plain");
  assert.deepEqual(
    { ...contents[0]?._meta, url: undefined },
    { untrusted: true, source: "rustpad", revision: 3, url: undefined },
  );
});

Deno.test("reading a URI that is not a pad fails naming the template", async () => {
  await using h = await connect();
  await assert.rejects(
    h.client.readResource({ uri: "rustpad://pad/a%2Fb" }),
    /rustpad:\/\/pad\/\{id\}/,
  );
});

Deno.test("resources/list lists the open pads and completion offers their ids", async () => {
  await using h = await connect();
  assert.deepEqual((await h.client.listResources()).resources, []);
  await h.call("append_to_document", { id: "notes-a", text: "x" });
  await h.call("append_to_document", { id: "notes-b", text: "y" });
  await h.call("append_to_document", { id: "other", text: "z" });
  const { resources } = await h.client.listResources();
  assert.deepEqual(resources.map((resource) => resource.uri), [
    "rustpad://pad/notes-a",
    "rustpad://pad/notes-b",
    "rustpad://pad/other",
  ]);
  const { completion } = await h.client.complete({
    ref: { type: "ref/resource", uri: "rustpad://pad/{id}" },
    argument: { name: "id", value: "notes" },
  });
  assert.deepEqual(completion.values, ["notes-a", "notes-b"]);
});

Deno.test("a subscription sees each change, then nothing after unsubscribe", async () => {
  await using h = await connect();
  const updates: string[] = [];
  h.client.setNotificationHandler(
    ResourceUpdatedNotificationSchema,
    (notification) => void updates.push(notification.params.uri),
  );
  const uri = "rustpad://pad/res-sub";
  await using person = await RawPerson.open(h.pads.url, "res-sub");
  await h.client.subscribeResource({ uri });
  for (const [index, character] of ["a", "b", "c"].entries()) {
    await person.type(index, character);
    await waitFor(() => updates.length === index + 1, `update ${index + 1}`);
    const read = await h.client.readResource({ uri });
    assert.equal(textOf(read.contents), "abc".slice(0, index + 1));
    // Past the coalescing window, so the next change is its own update.
    await sleep(300);
  }
  assert.deepEqual(updates, [uri, uri, uri]);
  await h.client.unsubscribeResource({ uri });
  await person.type(3, "d");
  await sleep(400);
  assert.equal(updates.length, 3);
});

Deno.test("a burst of changes is coalesced, and the last change is never swallowed", async () => {
  await using h = await connect();
  let updates = 0;
  h.client.setNotificationHandler(
    ResourceUpdatedNotificationSchema,
    () => void updates++,
  );
  const uri = "rustpad://pad/res-burst";
  await using person = await RawPerson.open(h.pads.url, "res-burst");
  await h.client.subscribeResource({ uri });
  const started = performance.now();
  await person.type(0, "x".repeat(40));
  const elapsed = performance.now() - started;
  // The trailing update comes within one window of the last keystroke.
  await waitFor(async () => {
    const read = await h.client.readResource({ uri });
    return textOf(read.contents) === "x".repeat(40);
  }, "the whole burst");
  await sleep(300);
  assert.ok(updates >= 1, "at least one update");
  assert.ok(
    updates <= Math.ceil(elapsed / 250) + 2,
    `${updates} updates for 40 changes in ${Math.round(elapsed)} ms`,
  );
  const settled = updates;
  await sleep(300);
  assert.equal(updates, settled, "no update after the burst is reported");
});

Deno.test("a subscription keeps the pad's connection open until the last unsubscribe", async () => {
  await using h = await connect();
  const uri = "rustpad://pad/res-hold";
  await h.client.subscribeResource({ uri });
  const live = LivePads;
  const pool = h.server.backend.sessions;
  assert.equal(live.of(pool).watchers("res-hold"), 1);
  await h.client.subscribeResource({ uri });
  assert.equal(live.of(pool).watchers("res-hold"), 1, "one per client");
  await h.client.unsubscribeResource({ uri });
  assert.equal(live.of(pool).watchers("res-hold"), 0);
});

Deno.test("a client going away ends its subscriptions and lets the pad go", async () => {
  await using h = await connect();
  await h.client.subscribeResource({ uri: "rustpad://pad/res-gone" });
  const live = LivePads.of(h.server.backend.sessions);
  assert.equal(live.watchers("res-gone"), 1);
  await h.client.close();
  await waitFor(() => live.watchers("res-gone") === 0, "the release");
});

Deno.test("the client is told when the list of open pads changes", async () => {
  await using h = await connect();
  let changes = 0;
  h.client.setNotificationHandler(
    ResourceListChangedNotificationSchema,
    () => void changes++,
  );
  await h.call("append_to_document", { id: "res-listed", text: "x" });
  await waitFor(() => changes >= 1, "a list_changed notification");
});
