// The calls an agent gets wrong first, and what it now gets: each test
// makes the likely call through the SDK client on the compatible pad
// server and checks the answer and the pad.

import assert from "node:assert/strict";
import { createBackend, loadConfig } from "../../src/mod.ts";
import { startPadServer } from "../../src/testing/mod.ts";
import { connect, errorOf, structured, textOf, waitFor } from "../_mcp.ts";
import { RawPerson } from "../_person.ts";
import { freePort } from "../_free_port.ts";

const accept = () => ({
  action: "accept" as const,
  content: { confirm: true },
});

/** The listed input schema of `tool`, as a model reads it. */
async function inputOf(
  h: Awaited<ReturnType<typeof connect>>,
  tool: string,
): Promise<{ properties: Record<string, { description?: string }> }> {
  const { tools } = await h.client.listTools();
  const found = tools.find((listed) => listed.name === tool);
  assert.ok(found, tool);
  return found.inputSchema as {
    properties: Record<string, { description?: string }>;
  };
}

Deno.test("a line edit takes new_string like a string edit; new_text is refused in the tool's own words", async () => {
  await using h = await connect();
  await h.call("append_to_document", { id: "lines", text: "one\ntwo\n" });
  const edited = structured(
    await h.call("edit_document", {
      id: "lines",
      edits: [{ start_line: 2, end_line: 2, new_string: "TWO" }],
    }),
  );
  assert.equal(edited.status, "applied");
  // A final newline is added when missing.
  assert.equal(await h.text("lines"), "one\nTWO\n");
  const old = errorOf(
    await h.call("edit_document", {
      id: "lines",
      edits: [{ start_line: 1, end_line: 1, new_text: "x" }],
    }),
  );
  assert.equal(
    old,
    "Cannot call edit_document as edits[0].new_string is required: it is missing\n" +
      'Cannot call edit_document as edits[0] has no key "new_text": its keys are old_string, new_string, replace_all, start_line, end_line. Nothing was sent',
  );
  assert.equal(await h.text("lines"), "one\nTWO\n");
});

Deno.test("a line edit adds after the last line with start_line = total_lines + 1, end_line = total_lines, and inserts with end_line = start_line - 1", async () => {
  await using h = await connect();
  await h.call("append_to_document", { id: "ins", text: "a\r\nb\r\n" });
  const lines = structured(await h.call("read_lines", { id: "ins" }));
  const total = lines.total_lines as number;
  assert.equal(total, 2);
  structured(
    await h.call("edit_document", {
      id: "ins",
      edits: [
        { start_line: total + 1, end_line: total, new_string: "end" },
        { start_line: 1, end_line: 0, new_string: "top" },
      ],
    }),
  );
  // CRLF is kept for the new lines too.
  assert.equal(await h.text("ins"), "top\r\na\r\nb\r\nend\r\n");
});

Deno.test("an old_string copied from read_lines with its N<TAB> prefix is refused with the text to use instead", async () => {
  await using h = await connect();
  await h.call("append_to_document", { id: "copy", text: "alpha\nbeta\n" });
  const message = errorOf(
    await h.call("edit_document", {
      id: "copy",
      edits: [{ old_string: "2\tbeta", new_string: "gamma" }],
    }),
  );
  assert.match(message, /old_string does not occur/);
  assert.match(message, /drop the 'N<TAB>' prefix/);
  assert.match(message, /use "beta", which does occur/);
  assert.doesNotMatch(message, /occurs 0 times/);
  const replace = errorOf(
    await h.call("replace_in_document", {
      id: "copy",
      search: "1\talpha",
      replace: "x",
    }),
  );
  assert.match(replace, /does not occur.*use "alpha", which does occur/s);
  assert.equal(await h.text("copy"), "alpha\nbeta\n");
});

Deno.test("base_revision says, where the model reads it, what happens without it", async () => {
  await using h = await connect();
  for (const tool of ["set_document", "replace_in_document", "edit_document"]) {
    const base = (await inputOf(h, tool)).properties.base_revision;
    assert.match(base?.description ?? "", /Revision you read/);
    assert.match(
      base?.description ?? "",
      tool === "set_document"
        ? /Omit: replaces newer typing too/
        : /Omit: the pad now/,
    );
  }
});

Deno.test("a write that lands in an empty pad says new_pad, as a mistyped id would; create_document and a pad with text do not", async () => {
  await using h = await connect();
  const appended = await h.call("append_to_document", {
    id: "tpyo",
    text: "first",
  });
  assert.equal(structured(appended).new_pad, true);
  assert.match(textOf(appended), /was empty before this write/);
  const again = structured(
    await h.call("append_to_document", { id: "tpyo", text: " second" }),
  );
  assert.equal(again.new_pad, undefined);
  const set = structured(
    await h.call("set_document", { id: "blank", text: "text" }),
  );
  assert.equal(set.status, "applied");
  assert.equal(set.new_pad, true);
  const language = structured(
    await h.call("set_language", { id: "unset", language: "python" }),
  );
  assert.equal(language.new_pad, true);
  const created = structured(
    await h.call("create_document", { id: "fresh", text: "x" }),
  );
  assert.equal(created.new_pad, undefined);
});

Deno.test("replace_in_document asks a person before one match deletes more than half of a pad, and not for less", async () => {
  await using h = await connect({ elicit: accept });
  await h.call("append_to_document", {
    id: "mostly",
    text: "keep this. a long passage someone wrote by hand",
  });
  structured(
    await h.call("replace_in_document", {
      id: "mostly",
      search: "keep",
      replace: "",
    }),
  );
  assert.equal(h.elicitations.length, 0, "removing 4 of 47 asks nobody");
  const replaced = structured(
    await h.call("replace_in_document", {
      id: "mostly",
      search: " a long passage someone wrote by hand",
      replace: "",
    }),
  );
  assert.equal(replaced.status, "applied");
  assert.equal(h.elicitations.length, 1);
  assert.match(
    h.elicitations[0]!.message,
    /Replace one match of the search text in pad "mostly" \(43 code points now\), removing 37 code points\?/,
  );
  assert.equal(await h.text("mostly"), " this.");
});

Deno.test("undo_last_edit asks a person before deleting more than half of a pad, and not for less", async () => {
  await using h = await connect({ elicit: accept });
  await h.call("append_to_document", {
    id: "half",
    text: "people wrote this. ",
  });
  await h.call("append_to_document", { id: "half", text: "x" });
  structured(await h.call("undo_last_edit", { id: "half" }));
  assert.equal(h.elicitations.length, 0, "removing 1 of 20 asks nobody");
  await h.call("append_to_document", {
    id: "half",
    text: "a long addition, more than all the rest",
  });
  structured(await h.call("undo_last_edit", { id: "half" }));
  assert.equal(h.elicitations.length, 1);
  assert.match(h.elicitations[0]!.message, /Undo your edit of revision 4/);
  assert.equal(await h.text("half"), "people wrote this. ");
});

Deno.test("confirm_token is listed only on the tools that can ask under the configured RUSTPAD_CONFIRM", async () => {
  await using destructive = await connect();
  assert.ok(
    !("confirm_token" in
      (await inputOf(destructive, "append_to_document")).properties),
  );
  assert.ok(
    "confirm_token" in
      (await inputOf(destructive, "undo_last_edit")).properties,
  );
  await using always = await connect({ env: { RUSTPAD_CONFIRM: "always" } });
  assert.ok(
    "confirm_token" in (await inputOf(always, "append_to_document")).properties,
  );
  await using never = await connect({ env: { RUSTPAD_CONFIRM: "never" } });
  assert.ok(
    !("confirm_token" in (await inputOf(never, "set_document")).properties),
  );
});

Deno.test("a cursor's offset from get_document_info, after an emoji, is where get_document reads", async () => {
  await using h = await connect();
  await using person = await RawPerson.open(h.pads.url, "units");
  person.announce("Ann");
  await person.type(0, "🎉🎉 ab");
  person.moveCursor(4); // before "b", in code points as Rustpad sends
  let offset: number | undefined;
  await waitFor(async () => {
    const info = structured(await h.call("get_document_info", { id: "units" }));
    const people = info.people as { cursors: { offset: number }[] }[];
    offset = people[0]?.cursors[0]?.offset;
    return offset !== undefined;
  }, "the agent to see Ann's cursor");
  assert.equal(offset, 6, "UTF-16 units, as get_document counts");
  const read = structured(
    await h.call("get_document", { id: "units", offset, limit: 1 }),
  );
  assert.equal(read.text, "b");
});

Deno.test("over one backend each agent undoes only its own edits, named by the revision its write reported", async () => {
  await using pads = await startPadServer();
  await using backend = createBackend(
    loadConfig({ RUSTPAD_URL: pads.url, RUSTPAD_CONFIRM: "never" }),
  );
  await using a = await connect({ pads, backend });
  await using b = await connect({ pads, backend });
  const written = structured(
    await a.call("append_to_document", { id: "two", text: "A's words" }),
  );
  const refused = errorOf(await b.call("undo_last_edit", { id: "two" }));
  assert.match(refused, /you have no edit of your own left to undo there/);
  assert.equal(await a.text("two"), "A's words");
  const undone = structured(await a.call("undo_last_edit", { id: "two" }));
  assert.equal(undone.undone_revision, written.revision);
  assert.equal(await a.text("two"), "");
});

Deno.test("a conflict names a person by the display name they had, after they left", async () => {
  await using h = await connect();
  await h.call("append_to_document", { id: "dave", text: "the plan\n" });
  const read = structured(await h.call("get_document", { id: "dave" }));
  const person = await RawPerson.open(h.pads.url, "dave");
  person.announce("Dave");
  await person.type(2, "X"); // inside "the", which the agent replaces
  await person[Symbol.asyncDispose]();
  const conflict = structured(
    await h.call("replace_in_document", {
      id: "dave",
      search: "the plan",
      replace: "our plan",
      base_revision: read.revision,
    }),
  );
  assert.equal(conflict.status, "conflict");
  const [first] = conflict.conflicts as { changed_by: string[] }[];
  assert.deepEqual(first?.changed_by, ["Dave"]);
  assert.equal(conflict.untrusted, true);
  assert.equal(conflict.source, "rustpad");
});

Deno.test("an empty append sends nothing, makes no revision, wakes no waiter and says 'unchanged'", async () => {
  await using h = await connect();
  await h.call("append_to_document", { id: "noop", text: "x" });
  const waiting = h.call("wait_for_change", {
    id: "noop",
    since_revision: 1,
    timeout_seconds: 0.5,
  });
  const empty = structured(
    await h.call("append_to_document", { id: "noop", text: "" }),
  );
  assert.equal(empty.status, "unchanged");
  assert.equal(empty.revision, 1);
  assert.equal(structured(await waiting).changed, false);
  const replaced = structured(
    await h.call("replace_in_document", {
      id: "noop",
      search: "x",
      replace: "x",
    }),
  );
  assert.equal(replaced.status, "unchanged");
  const read = structured(await h.call("get_document", { id: "noop" }));
  assert.equal(read.revision, 1);
});

Deno.test("read_lines, search_document and get_document_info on an empty pad carry get_document's empty-pad note, and a pad with text has none", async () => {
  await using h = await connect();
  const lines = structured(await h.call("read_lines", { id: "typo" }));
  const search = structured(
    await h.call("search_document", { id: "typo", pattern: "x" }),
  );
  const info = structured(await h.call("get_document_info", { id: "typo" }));
  const read = structured(await h.call("get_document", { id: "typo" }));
  assert.equal(typeof read.note, "string");
  assert.equal(lines.note, read.note);
  assert.equal(search.note, read.note);
  assert.equal(info.note, read.note);
  await h.call("append_to_document", { id: "typo", text: "now here" });
  const written = structured(
    await h.call("get_document_info", { id: "typo" }),
  );
  assert.equal(written.note, undefined);
});

Deno.test("argument errors are the tool's own sentences: a pasted URL names the id, long values are cut, no validator words", async () => {
  await using h = await connect();
  const url = errorOf(
    await h.call("get_document", { id: "https://rustpad.io/#notes" }),
  );
  assert.match(
    url,
    /^Cannot use pad id "https:\/\/rustpad\.io\/#notes" as it is an editor URL, not its id: use "notes"/,
  );
  const long = errorOf(await h.call("get_document", { id: "a b".repeat(100) }));
  assert.match(
    long,
    /^Cannot use pad id "(a b){26}a …" as it is 300 characters long/,
  );
  const pattern = errorOf(
    await h.call("search_document", { id: "p", pattern: "" }),
  );
  assert.equal(
    pattern,
    "Cannot call search_document as pattern is empty: give the text to find",
  );
  const type = errorOf(
    await h.call("read_lines", { id: "p", start_line: "3" }),
  );
  assert.equal(
    type,
    'Cannot call read_lines as start_line must be a number: current value is "3"',
  );
  for (const message of [url, long, pattern, type]) {
    assert.doesNotMatch(
      message,
      /Invalid input|Too small|expected string|MCP error/,
    );
  }
});

Deno.test("wait_for_change counts the agent's own edit and returns at once when the pad is already past since_revision", async () => {
  await using h = await connect();
  const listed = (await h.client.listTools()).tools.find((tool) =>
    tool.name === "wait_for_change"
  );
  assert.match(
    listed?.description ?? "",
    /\(your edits count\)/,
  );
  assert.match(
    (listed?.inputSchema.properties as Record<string, { description?: string }>)
      .until?.description ?? "",
    /'change': next revision \(at once if past\)/,
  );
  assert.match(listed?.description ?? "", /60 s/);
  await h.call("append_to_document", { id: "own", text: "mine" });
  const waited = structured(
    await h.call("wait_for_change", {
      id: "own",
      since_revision: 0,
      timeout_seconds: 30,
    }),
  );
  assert.equal(waited.changed, true);
  assert.equal(waited.timed_out, false);
  assert.deepEqual(waited.authors, [{ name: "you", self: true }]);
});

Deno.test("fenced pad text ends where the pad ends, so its final newline shows", async () => {
  await using h = await connect();
  await h.call("append_to_document", { id: "nl", text: "line\n" });
  await h.call("append_to_document", { id: "no-nl", text: "line" });
  const withBreak = textOf(await h.call("get_document", { id: "nl" }));
  const without = textOf(await h.call("get_document", { id: "no-nl" }));
  assert.match(withBreak, /\nline\n<\/untrusted-[0-9a-f]{32}>$/);
  assert.match(without, /\nline<\/untrusted-[0-9a-f]{32}>$/);
  const written = structured(
    await h.call("append_to_document", { id: "nl", text: "more" }),
  );
  assert.equal(written.untrusted, true);
  assert.equal(written.source, "rustpad");
});

Deno.test("upstream failures say to check RUSTPAD_URL, whether it is Rustpad, and that nothing changed", async () => {
  // Closed: a port no other test is handed meanwhile.
  const port = freePort();
  await using nowhere = await connect({
    env: {
      RUSTPAD_URL: `http://127.0.0.1:${port}`,
      RUSTPAD_TIMEOUT_MS: "2000",
    },
  });
  const unreachable = errorOf(
    await nowhere.call("append_to_document", { id: "x", text: "y" }),
  );
  assert.match(
    unreachable,
    /Nothing was changed\. Check that RUSTPAD_URL \(now http:\/\/127\.0\.0\.1:\d+\/\) is the base URL of a running Rustpad server/,
  );
  await using other = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    () => new Response("Not Found", { status: 404 }),
  );
  await using notRustpad = await connect({
    env: { RUSTPAD_URL: `http://127.0.0.1:${other.addr.port}` },
  });
  const status = errorOf(await notRustpad.call("get_stats"));
  assert.match(status, /404/);
  assert.match(status, /it answered, but not as Rustpad does/);
});

Deno.test("set_language takes no idempotency_key, and on_conflict says 'merge' keeps both texts", async () => {
  await using h = await connect();
  assert.ok(
    !("idempotency_key" in (await inputOf(h, "set_language")).properties),
  );
  // Its output names what it can answer: a suggestion's id, never a replay.
  const { tools } = await h.client.listTools();
  const output = tools.find((tool) => tool.name === "set_language")
    ?.outputSchema?.properties ?? {};
  assert.ok("suggestion_id" in output, Object.keys(output).join(", "));
  assert.ok(!("replayed" in output), Object.keys(output).join(", "));
  const onConflict = (await inputOf(h, "edit_document")).properties.on_conflict;
  assert.match(
    onConflict?.description ?? "",
    /'merge' applies yours and keeps theirs/,
  );
});
