import assert from "node:assert/strict";
import { connect, errorOf, structured, textOf, waitFor } from "../_mcp.ts";
import { PadSession } from "../../src/mod.ts";
import { RawPerson } from "../_person.ts";
import { freePort } from "../_free_port.ts";

Deno.test("`create_document` creates a pad with text and language at a random id", async () => {
  await using h = await connect();
  const created = structured(
    await h.call("create_document", { text: "hello 🎉", language: "markdown" }),
  );
  const id = created.id as string;
  assert.match(id, /^[a-z0-9]{12}$/);
  assert.match(String(created.edit_id), /^[\w-]+\.[\w-]{43}$/);
  assert.deepEqual(created, {
    edit_id: created.edit_id,
    status: "applied",
    untrusted: true,
    source: "rustpad",
    id,
    url: `${h.pads.url}/#${id}`,
    revision: 1,
    length: 7,
    language: "markdown",
    diff: "@@ -0,0 +1,1 @@\n+hello 🎉",
  });
  assert.equal(await h.text(id), "hello 🎉");
  const again = structured(await h.call("create_document", {}));
  assert.notEqual(again.id, id);
});

Deno.test("`create_document` with an id and no text opens an empty pad", async () => {
  await using h = await connect();
  const created = structured(await h.call("create_document", { id: "blank" }));
  assert.deepEqual(created, {
    status: "applied",
    id: "blank",
    url: `${h.pads.url}/#blank`,
    revision: 0,
    length: 0,
    language: null,
    diff: "",
  });
  const stats = structured(await h.call("get_stats"));
  assert.equal(stats.num_documents, 1);
});

Deno.test("`create_document` fails and changes nothing when the pad has content", async () => {
  await using h = await connect();
  await h.call("append_to_document", { id: "taken", text: "mine" });
  const message = errorOf(
    await h.call("create_document", {
      id: "taken",
      text: "other",
      language: "rust",
    }),
  );
  assert.match(message, /already has content: current length is 4 code points/);
  assert.equal(await h.text("taken"), "mine");
  const info = structured(await h.call("get_document_info", { id: "taken" }));
  assert.equal(info.language, null);
});

Deno.test("`create_document` refuses a language outside Rustpad's menu, listing the menu, and creates nothing", async () => {
  await using h = await connect();
  const message = errorOf(
    await h.call("create_document", { id: "lang", language: "not a language" }),
  );
  assert.match(
    message,
    /^Cannot use language "not a language" as Rustpad's language menu has no such entry: use one of abap, .*, python, .*, yaml$/,
  );
  assert.equal(await h.text("lang"), "");
});

Deno.test("`append_to_document` appends verbatim and reports revision and length", async () => {
  await using h = await connect();
  const first = structured(
    await h.call("append_to_document", { id: "log", text: "a👨‍👨‍👦‍👦" }),
  );
  assert.match(String(first.edit_id), /^[\w-]+\.[\w-]{43}$/);
  assert.deepEqual(first, {
    edit_id: first.edit_id,
    status: "applied",
    untrusted: true,
    source: "rustpad",
    id: "log",
    url: `${h.pads.url}/#log`,
    revision: 1,
    length: 8,
    diff: "@@ -0,0 +1,1 @@\n+a👨‍👨‍👦‍👦",
    new_pad: true,
  });
  const second = await h.call("append_to_document", { id: "log", text: "\nb" });
  assert.equal(structured(second).revision, 2);
  assert.match(
    textOf(second),
    /Appended 2 code points to pad "log"; it now has 10/,
  );
  assert.equal(await h.text("log"), "a👨‍👨‍👦‍👦\nb");
});

Deno.test("`append_to_document` keeps what a person types through a raw socket at the same moment", async () => {
  await using h = await connect();
  await h.call("append_to_document", { id: "together", text: "[agent]" });
  await using person = await RawPerson.open(h.pads.url, "together");
  const typing = person.type(0, "person types here ");
  const appends = [];
  for (let i = 0; i < 5; i++) {
    appends.push(
      h.call("append_to_document", { id: "together", text: ` ${i}` }),
    );
    await new Promise((resolve) => setTimeout(resolve, 3));
  }
  const results = await Promise.all(appends);
  await typing;
  for (const result of results) {
    assert.equal(structured(result).status, "applied");
  }
  const text = await h.text("together");
  assert.equal(text, "person types here [agent] 0 1 2 3 4");
  await waitFor(() => person.text === text, "the person to see it all");
});

Deno.test("`append_to_document` says Rustpad is unreachable, with the URL", async () => {
  // Closed: a port no other test is handed meanwhile.
  const port = freePort();
  await using h = await connect({
    env: { RUSTPAD_URL: `http://127.0.0.1:${port}` },
  });
  const message = errorOf(
    await h.call("append_to_document", { id: "x", text: "y" }),
  );
  assert.match(
    message,
    new RegExp(`Cannot reach Rustpad at ws://127.0.0.1:${port}/api/socket/x`),
  );
});

Deno.test("`append_to_document` refuses a result over 262,144 code points, giving both lengths", async () => {
  await using h = await connect();
  await h.call("append_to_document", { id: "full", text: "a".repeat(262_000) });
  const message = errorOf(
    await h.call("append_to_document", { id: "full", text: "b".repeat(200) }),
  );
  assert.match(
    message,
    /result would be 262200 code points, over Rustpad's limit of 262144: current length is 262000/,
  );
  assert.equal((await h.text("full")).length, 262_000);
});

Deno.test("`append_to_document` refuses a text parameter over 262,144 code points", async () => {
  await using h = await connect();
  const message = errorOf(
    await h.call("append_to_document", {
      id: "big",
      text: "🎉".repeat(262_145),
    }),
  );
  assert.match(message, /262145 code points, over Rustpad's limit of 262144/);
  assert.equal(await h.text("big"), "");
});

Deno.test("`append_to_document` reports an edit the server dropped before applying it: not landed", async () => {
  await using h = await connect();
  await h.call("append_to_document", { id: "dropped", text: "kept" });
  h.pads.dropNextEdit({ pad: "dropped", when: "before-apply" });
  const message = errorOf(
    await h.call("append_to_document", { id: "dropped", text: " lost" }),
  );
  assert.match(message, /Rustpad closed the connection to pad "dropped"/);
  assert.match(
    message,
    /did not land .* nothing changed; it is safe to try again/,
  );
  assert.equal(await h.text("dropped"), "kept");
});

Deno.test("`append_to_document` recovers an edit that landed before the connection dropped", async () => {
  await using h = await connect();
  h.pads.dropNextEdit({ pad: "landed", when: "after-apply" });
  const result = await h.call("append_to_document", {
    id: "landed",
    text: "made it",
  });
  const answer = structured(result);
  assert.equal(answer.status, "applied");
  assert.match(String(answer.note), /history shows it landed/);
  assert.equal(await h.text("landed"), "made it");
});

Deno.test("`append_to_document` times out with the configured limit when Rustpad is slow", async () => {
  await using h = await connect({ env: { RUSTPAD_TIMEOUT_MS: "300" } });
  await h.call("get_document_info", { id: "slow" });
  h.pads.setFrameDelay(1_000);
  const message = errorOf(
    await h.call("append_to_document", { id: "slow", text: "x" }),
  );
  assert.match(message, /within 300 ms/);
  h.pads.setFrameDelay(0);
});

Deno.test("`set_language` sets the language for everyone", async () => {
  await using h = await connect();
  const person = await PadSession.open(h.pads.url, "code");
  const result = structured(
    await h.call("set_language", { id: "code", language: "c++" }),
  );
  assert.deepEqual(result, {
    status: "applied",
    id: "code",
    language: "cpp",
    previous_language: null,
    new_pad: true,
  });
  await waitFor(() => person.language === "cpp", "the person to see it");
  const changed = structured(
    await h.call("set_language", { id: "code", language: "python" }),
  );
  assert.equal(changed.previous_language, "cpp");
  assert.equal(changed.language, "python");
  await person.close();
});

Deno.test("the agent appears to people under RUSTPAD_USER_NAME and RUSTPAD_USER_HUE", async () => {
  await using h = await connect({
    env: { RUSTPAD_USER_NAME: "Claude", RUSTPAD_USER_HUE: "300" },
  });
  const person = await PadSession.open(h.pads.url, "seen");
  await h.call("append_to_document", { id: "seen", text: "hi" });
  await waitFor(() => person.users.size === 1, "the agent to appear");
  assert.deepEqual([...person.users.values()], [
    { name: "Claude", hue: 300, nameTruncated: false },
  ]);
  await person.close();
});

Deno.test("a write's diff is cut at 200 lines and says so with `diff_truncated`", async () => {
  await using h = await connect();
  const lines = Array.from({ length: 300 }, (_, i) => `line ${i + 1}`);
  const long = structured(
    await h.call("append_to_document", { id: "long", text: lines.join("\n") }),
  );
  assert.equal(long.diff_truncated, true);
  assert.ok((long.diff as string).split("\n").length <= 200);
  const short = structured(
    await h.call("append_to_document", { id: "long", text: "\nmore" }),
  );
  assert.equal(short.diff_truncated, undefined);
  assert.match(short.diff as string, /\+more/);
});

Deno.test("a write inserting half of a surrogate pair is refused before sending, naming where; nothing changes and the connection lives", async () => {
  await using h = await connect({ env: { RUSTPAD_CONFIRM: "never" } });
  structured(await h.call("append_to_document", { id: "half", text: "🎉ab" }));
  await using watcher = await RawPerson.open(h.pads.url, "half");
  const appended = errorOf(
    await h.call("append_to_document", { id: "half", text: "cd\ud83d" }),
  );
  assert.match(
    appended,
    /holds half of a UTF-16 surrogate pair \(\\ud83d alone\).*UTF-16 offset 6 of the pad after the edit, in the inserted text around "cd\\ud83d"\. Nothing was changed/,
  );
  const edited = errorOf(
    await h.call("edit_document", {
      id: "half",
      edits: [{ old_string: "a", new_string: "x\udc00" }],
    }),
  );
  assert.match(edited, /\(\\udc00 alone\).*UTF-16 offset 3 of the pad/);
  assert.match(edited, /Nothing was changed/);
  assert.equal(await h.text("half"), "🎉ab");
  structured(await h.call("append_to_document", { id: "half", text: "😀" }));
  assert.equal(await h.text("half"), "🎉ab😀");
  await waitFor(() => watcher.text === "🎉ab😀", "the person to see the edit");
  // The agent's connection was never hung up: nobody left the pad.
  assert.ok(!watcher.frames.some((frame) => frame.includes('"info":null')));
});
