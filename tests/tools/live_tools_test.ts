import assert from "node:assert/strict";
import { connect, errorOf, structured, waitFor } from "../_mcp.ts";
import { RawPerson } from "../_person.ts";
import { LivePads } from "../../src/live_pads.ts";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

Deno.test("`wait_for_change` returns at a person's edit with who and a diff", async () => {
  await using h = await connect();
  await h.call("append_to_document", { id: "w-edit", text: "one\n" });
  await using person = await RawPerson.open(h.pads.url, "w-edit");
  person.announce("Ann");
  const waiting = h.call("wait_for_change", {
    id: "w-edit",
    since_revision: 1,
  });
  await waitFor(
    () => LivePads.of(h.server.backend.sessions).watchers("w-edit") === 1,
    "the wait to start",
  );
  await person.type(4, "two");
  const result = structured(await waiting);
  assert.equal(result.changed, true);
  assert.equal(result.timed_out, false);
  assert.ok((result.revision as number) >= 2);
  assert.deepEqual(result.authors, [{ name: "Ann", self: false }]);
  assert.match(String(result.diff), /^\+t/m);
});

Deno.test("`wait_for_change` marks the agent's own edits and returns at once when already past", async () => {
  await using h = await connect();
  await h.call("append_to_document", { id: "w-own", text: "a" });
  const result = structured(
    await h.call("wait_for_change", { id: "w-own", since_revision: 0 }),
  );
  assert.equal(result.changed, true);
  assert.deepEqual(result.authors, [{ name: "this agent", self: true }]);
  assert.equal(result.diff, "@@ -0,0 +1,1 @@\n+a");
});

Deno.test("`wait_for_change` until quiet returns only after the typing stopped", async () => {
  await using h = await connect();
  await using person = await RawPerson.open(h.pads.url, "w-quiet");
  const waiting = h.call("wait_for_change", {
    id: "w-quiet",
    since_revision: 0,
    until: "quiet",
    quiet_ms: 800,
  });
  await waitFor(
    () => LivePads.of(h.server.backend.sessions).watchers("w-quiet") === 1,
    "the wait to start",
  );
  await person.type(0, "hello");
  await sleep(100);
  await person.type(5, " world");
  const result = structured(await waiting);
  assert.equal(result.changed, true);
  assert.equal(result.revision, 11, "every keystroke is in");
  assert.match(String(result.diff), /^\+hello world$/m);
});

Deno.test("`wait_for_change` times out unchanged", async () => {
  await using h = await connect();
  const result = structured(
    await h.call("wait_for_change", {
      id: "w-timeout",
      since_revision: 0,
      timeout_seconds: 0.2,
    }),
  );
  assert.deepEqual(
    { ...result },
    {
      id: "w-timeout",
      changed: false,
      timed_out: true,
      revision: 0,
      diff: "",
      authors: [],
      untrusted: true,
    },
  );
});

Deno.test("`wait_for_change` refuses a since_revision ahead of the pad", async () => {
  await using h = await connect();
  const message = errorOf(
    await h.call("wait_for_change", { id: "w-ahead", since_revision: 5 }),
  );
  assert.match(message, /Cannot wait on pad "w-ahead".*current revision is 0/);
});

Deno.test("a cancelled `wait_for_change` ends at once on the server and lets the pad go", async () => {
  await using h = await connect();
  const live = LivePads.of(h.server.backend.sessions);
  const controller = new AbortController();
  const waiting = h.client.callTool(
    {
      name: "wait_for_change",
      arguments: { id: "w-cancel", since_revision: 0, timeout_seconds: 600 },
    },
    undefined,
    { signal: controller.signal },
  );
  await waitFor(() => live.watchers("w-cancel") === 1, "the wait to start");
  controller.abort("changed my mind");
  await assert.rejects(waiting);
  await waitFor(() => live.watchers("w-cancel") === 0, "the wait to end");
});

Deno.test("`wait_for_change` sends progress when asked, and many waits share one connection", async () => {
  await using h = await connect();
  await using person = await RawPerson.open(h.pads.url, "w-many");
  const progress: number[] = [];
  const waits = [0, 1, 2].map((index) =>
    h.client.callTool(
      {
        name: "wait_for_change",
        arguments: { id: "w-many", since_revision: 0, timeout_seconds: 0.6 },
      },
      undefined,
      index === 0 ? { onprogress: (p) => void progress.push(p.progress) } : {},
    )
  );
  const results = await Promise.all(waits);
  for (const result of results) {
    assert.equal(structured(result as never).timed_out, true);
  }
  assert.ok(progress.length >= 1, "progress notifications arrived");
  const joins = person.frames.filter((frame) =>
    frame.startsWith('{"UserInfo"') && frame.includes("rustpad-mcp")
  );
  assert.equal(joins.length, 1, "the agent joined the pad once");
});

Deno.test("`undo_last_edit` reverts the agent's edits newest first, then says none is left", async () => {
  await using h = await connect();
  await h.call("append_to_document", { id: "u-seq", text: "a" });
  await h.call("append_to_document", { id: "u-seq", text: "b" });
  const first = structured(await h.call("undo_last_edit", { id: "u-seq" }));
  assert.equal(await h.text("u-seq"), "a");
  assert.equal(first.undone_revision, 1);
  assert.equal(first.remaining, 1);
  assert.match(String(first.diff), /^-ab$/m);
  structured(await h.call("undo_last_edit", { id: "u-seq" }));
  assert.equal(await h.text("u-seq"), "");
  const message = errorOf(await h.call("undo_last_edit", { id: "u-seq" }));
  assert.match(
    message,
    /Cannot undo on pad "u-seq" as this server has no edit/,
  );
});

Deno.test("`undo_last_edit` keeps what a person typed inside the agent's edit", async () => {
  await using h = await connect();
  await h.call("append_to_document", { id: "u-person", text: "hello world" });
  await using person = await RawPerson.open(h.pads.url, "u-person");
  await person.type(5, ",");
  structured(await h.call("undo_last_edit", { id: "u-person" }));
  assert.equal(await h.text("u-person"), ",");
});

Deno.test("`undo_last_edit` still reverts an edit made on a connection that has since dropped", async () => {
  await using h = await connect();
  await h.call("append_to_document", { id: "u-drop", text: "mine" });
  h.pads.sendRaw("u-drop", "{oops");
  await waitFor(
    () => LivePads.of(h.server.backend.sessions).openPads.length === 0,
    "the connection to drop",
  );
  structured(await h.call("undo_last_edit", { id: "u-drop" }));
  assert.equal(await h.text("u-drop"), "");
  const waited = structured(
    await h.call("wait_for_change", { id: "u-drop", since_revision: 0 }),
  );
  assert.deepEqual(waited.authors, [{ name: "this agent", self: true }]);
});
