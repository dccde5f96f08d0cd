import assert from "node:assert/strict";
import { connect, errorOf, structured, waitFor } from "../_mcp.ts";
import { RawPerson } from "../_person.ts";
import { LivePads } from "../../src/backend/live_pads.ts";
import { PadDatabase, startPadServer } from "../../src/testing/mod.ts";

/** A person who agrees when asked (undo of more than half a pad asks). */
const accept = () => ({
  action: "accept" as const,
  content: { confirm: true },
});

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
  assert.deepEqual(result.authors, [{ name: "you", self: true }]);
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
      source: "rustpad",
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
  await using h = await connect({ elicit: accept });
  await h.call("append_to_document", { id: "u-seq", text: "a" });
  const b = structured(
    await h.call("append_to_document", { id: "u-seq", text: "b" }),
  );
  const first = structured(await h.call("undo_last_edit", { id: "u-seq" }));
  assert.equal(await h.text("u-seq"), "a");
  // Named by the revision the write reported.
  assert.equal(first.undone_revision, b.revision);
  assert.equal(first.undone_revision, 2);
  assert.equal(first.remaining, 1);
  assert.match(String(first.diff), /^-ab$/m);
  structured(await h.call("undo_last_edit", { id: "u-seq" }));
  assert.equal(await h.text("u-seq"), "");
  const message = errorOf(await h.call("undo_last_edit", { id: "u-seq" }));
  assert.match(
    message,
    /Cannot undo on pad "u-seq" as you have no edit/,
  );
});

Deno.test("`undo_last_edit` keeps what a person typed inside the agent's edit", async () => {
  await using h = await connect({ elicit: accept });
  await h.call("append_to_document", { id: "u-person", text: "hello world" });
  await using person = await RawPerson.open(h.pads.url, "u-person");
  await person.type(5, ",");
  structured(await h.call("undo_last_edit", { id: "u-person" }));
  assert.equal(await h.text("u-person"), ",");
});

Deno.test("`undo_last_edit` still reverts an edit made on a connection that has since dropped", async () => {
  await using h = await connect({ elicit: accept });
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
  assert.deepEqual(waited.authors, [{ name: "you", self: true }]);
});

Deno.test("`undo_last_edit` twice after an append and a replace of it restores the text before both", async () => {
  await using h = await connect({ elicit: accept });
  await h.call("append_to_document", { id: "u-pair", text: "base " });
  await h.call("append_to_document", { id: "u-pair", text: "one" });
  await h.call("replace_in_document", {
    id: "u-pair",
    search: "one",
    replace: "two",
  });
  const first = structured(await h.call("undo_last_edit", { id: "u-pair" }));
  assert.equal(await h.text("u-pair"), "base one");
  assert.deepEqual([first.undone_revision, first.remaining], [3, 2]);
  const second = structured(await h.call("undo_last_edit", { id: "u-pair" }));
  assert.equal(await h.text("u-pair"), "base ");
  assert.deepEqual([second.undone_revision, second.remaining], [2, 1]);
  assert.match(String(second.diff), /^-base one$/m);
  structured(await h.call("undo_last_edit", { id: "u-pair" }));
  assert.equal(await h.text("u-pair"), "");
});

Deno.test("`undo_last_edit` keeps what a person typed between the agent's edits and between the undos", async () => {
  await using h = await connect({ elicit: accept });
  await h.call("append_to_document", { id: "u-between", text: "[a]" });
  await using person = await RawPerson.open(h.pads.url, "u-between");
  await person.type(0, "p1 ");
  await h.call("append_to_document", { id: "u-between", text: "[b]" });
  await person.type(3, "p2 ");
  await h.call("replace_in_document", {
    id: "u-between",
    search: "[a]",
    replace: "[A]",
  });
  assert.equal(await h.text("u-between"), "p1 p2 [A][b]");
  structured(await h.call("undo_last_edit", { id: "u-between" }));
  assert.equal(await h.text("u-between"), "p1 p2 [a][b]");
  await person.type(9, "p3");
  structured(await h.call("undo_last_edit", { id: "u-between" }));
  assert.equal(await h.text("u-between"), "p1 p2 [a]p3");
  structured(await h.call("undo_last_edit", { id: "u-between" }));
  assert.equal(await h.text("u-between"), "p1 p2 p3");
});

Deno.test("`undo_last_edit` reverts an edit recovered after its acknowledgement was lost, and counts it as the agent's", async () => {
  await using h = await connect({
    env: { RUSTPAD_TIMEOUT_MS: "500" },
    elicit: accept,
  });
  await h.call("append_to_document", { id: "u-lost", text: "one " });
  h.pads.dropNextEdit({ pad: "u-lost", when: "after-apply" });
  const lost = structured(
    await h.call("append_to_document", { id: "u-lost", text: "two " }),
  );
  assert.equal(lost.status, "applied");
  structured(await h.call("append_to_document", { id: "u-lost", text: "3" }));
  const waited = structured(
    await h.call("wait_for_change", { id: "u-lost", since_revision: 0 }),
  );
  assert.deepEqual(waited.authors, [{ name: "you", self: true }]);
  structured(await h.call("undo_last_edit", { id: "u-lost" }));
  assert.equal(await h.text("u-lost"), "one two ");
  const undone = structured(await h.call("undo_last_edit", { id: "u-lost" }));
  assert.equal(await h.text("u-lost"), "one ");
  assert.equal(undone.undone_revision, 2);
  structured(await h.call("undo_last_edit", { id: "u-lost" }));
  assert.equal(await h.text("u-lost"), "");
});

Deno.test("`undo_last_edit` of an edit whose text others deleted changes nothing, says why, and moves on to the one before", async () => {
  await using pads = await startPadServer();
  await using h = await connect({ pads, elicit: accept });
  await using other = await connect({ pads, elicit: accept });
  await h.call("append_to_document", { id: "u-gone", text: "keep " });
  await h.call("append_to_document", { id: "u-gone", text: "gone" });
  await other.call("get_document", { id: "u-gone" });
  structured(
    await other.call("replace_in_document", {
      id: "u-gone",
      search: "gone",
      replace: "",
    }),
  );
  await waitFor(
    async () =>
      (await h.server.backend.sessions.get("u-gone")).text === "keep ",
    "the agent to see the deletion",
  );
  const message = errorOf(await h.call("undo_last_edit", { id: "u-gone" }));
  assert.match(
    message,
    /Cannot undo your edit of revision 2 on pad "u-gone" as all it wrote has since been deleted: .*Nothing was changed.*\(1 left\)/,
  );
  assert.equal(await h.text("u-gone"), "keep ");
  const undone = structured(await h.call("undo_last_edit", { id: "u-gone" }));
  assert.equal(undone.undone_revision, 1);
  assert.equal(await h.text("u-gone"), "");
});

Deno.test("an `undo_last_edit` whose acknowledgement was lost is still an undo: the next call goes further back", async () => {
  await using h = await connect({
    env: { RUSTPAD_TIMEOUT_MS: "500" },
    elicit: accept,
  });
  await h.call("append_to_document", { id: "u-lost-undo", text: "a" });
  await h.call("append_to_document", { id: "u-lost-undo", text: "b" });
  h.pads.dropNextEdit({ pad: "u-lost-undo", when: "after-apply" });
  const first = structured(
    await h.call("undo_last_edit", { id: "u-lost-undo" }),
  );
  assert.equal(await h.text("u-lost-undo"), "a");
  assert.deepEqual([first.undone_revision, first.remaining], [2, 1]);
  assert.match(String(first.diff), /^-ab\n\+a$/m);
  structured(await h.call("undo_last_edit", { id: "u-lost-undo" }));
  assert.equal(await h.text("u-lost-undo"), "");
  errorOf(await h.call("undo_last_edit", { id: "u-lost-undo" }));
});

Deno.test("after Rustpad restarts, a person with an id the agent once had is not taken for the agent, and old edits are not undone", async () => {
  const database = new PadDatabase();
  const before = await startPadServer({ database, snapshotIntervalMs: 0 });
  await using h = await connect({ pads: before, elicit: accept });
  await h.call("append_to_document", { id: "u-restart", text: "mine\n" });
  before.snapshot();
  await before.close();
  await using after = await startPadServer({
    database,
    port: before.port,
    snapshotIntervalMs: 0,
  });
  await using person = await RawPerson.open(after.url, "u-restart");
  assert.equal(person.id, 0, "the agent's old id, now a person's");
  await person.type(0, "x");
  const waited = structured(
    await h.call("wait_for_change", { id: "u-restart", since_revision: 0 }),
  );
  assert.ok(
    (waited.authors as { self: boolean }[]).every((author) => !author.self),
    JSON.stringify(waited.authors),
  );
  const message = errorOf(await h.call("undo_last_edit", { id: "u-restart" }));
  assert.match(
    message,
    /as the pad restarted since your edits there: its history no longer holds them/,
  );
  assert.equal(after.text("u-restart"), "xmine\n");
});
