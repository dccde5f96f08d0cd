import assert from "node:assert/strict";
import { connect, errorOf, structured, textOf } from "../_mcp.ts";
import { RawPerson } from "../_person.ts";
import { loadConfig } from "../../src/mod.ts";
import { padWith, revisionOf, untilServerSees } from "./_pads.ts";

const accept = () => ({
  action: "accept" as const,
  content: { confirm: true },
});

Deno.test("`edit_document` at the revision the agent read keeps what a person typed since and lands each edit at its target", async () => {
  await using h = await connect();
  await padWith(h, "doc", "alpha\nbeta\ngamma\ndelta and more lines\n");
  const read = await revisionOf(h, "doc");
  await using typist = await RawPerson.open(h.pads.url, "doc");
  await typist.type(0, "intro\n");
  await untilServerSees(h, "doc", read + 6);
  const result = structured(
    await h.call("edit_document", {
      id: "doc",
      base_revision: read,
      edits: [
        { old_string: "beta", new_string: "BETA" },
        { start_line: 3, end_line: 3, new_string: "GAMMA" },
      ],
    }),
  );
  assert.equal(result.status, "applied");
  assert.equal(
    await h.text("doc"),
    "intro\nalpha\nBETA\nGAMMA\ndelta and more lines\n",
  );
  assert.equal(result.edits_applied, 2);
  assert.equal(result.rebased, true);
  assert.equal(result.revision, read + 7);
  assert.equal(
    result.diff,
    "@@ -1,5 +1,5 @@\n intro\n alpha\n-beta\n+BETA\n-gamma\n+GAMMA\n delta and more lines",
  );
});

Deno.test("`edit_document` refuses overlapping edits, naming both, and changes nothing", async () => {
  await using h = await connect();
  await padWith(h, "ov", "one two three\n");
  const message = errorOf(
    await h.call("edit_document", {
      id: "ov",
      edits: [
        { old_string: "one", new_string: "1" },
        { old_string: "two three", new_string: "2 3" },
        { old_string: "one two", new_string: "1 2" },
      ],
    }),
  );
  assert.match(message, /edits\[0\] and edits\[2\] as they overlap/);
  assert.match(message, /Nothing was changed/);
  assert.equal(await h.text("ov"), "one two three\n");
});

Deno.test("`edit_document` is all or nothing: one edit that matches nowhere sends none", async () => {
  await using h = await connect();
  await padWith(h, "aon", "a\nb\n");
  const message = errorOf(
    await h.call("edit_document", {
      id: "aon",
      edits: [
        { old_string: "a", new_string: "A" },
        { start_line: 5, end_line: 5, new_string: "x" },
      ],
    }),
  );
  assert.match(
    message,
    /edits\[1\] as lines 5 to 5 are out of range at revision 1: it has 2 lines/,
  );
  assert.equal(await h.text("aon"), "a\nb\n");
});

Deno.test("`edit_document` dry run returns the diff and sends nothing", async () => {
  await using h = await connect();
  await padWith(h, "dry", "keep\nchange me\n");
  const result = await h.call("edit_document", {
    id: "dry",
    dry_run: true,
    edits: [{ start_line: 2, end_line: 1, new_string: "inserted" }],
  });
  const content = structured(result);
  assert.equal(content.status, "dry_run");
  assert.equal(content.revision, 1);
  assert.equal(content.diff, "@@ -1,2 +1,3 @@\n keep\n+inserted\n change me");
  assert.match(textOf(result), /nothing was sent/);
  assert.equal(await h.text("dry"), "keep\nchange me\n");
  assert.equal(await revisionOf(h, "dry"), 1);
});

Deno.test("`edit_document` tells the agent to read again for a base_revision the pad has not reached", async () => {
  await using h = await connect();
  await padWith(h, "new", "x");
  const message = errorOf(
    await h.call("edit_document", {
      id: "new",
      base_revision: 9,
      edits: [{ old_string: "x", new_string: "y" }],
    }),
  );
  assert.match(
    message,
    /base_revision 9 as the pad is only at revision 1: .*read the pad again/,
  );
  assert.equal(await h.text("new"), "x");
});

Deno.test("`edit_document` asks a person before a replace_all over several places or deleting over half the pad", async () => {
  await using h = await connect({ elicit: accept });
  await padWith(h, "ask", "x x x and a long tail that stays");
  structured(
    await h.call("edit_document", {
      id: "ask",
      edits: [{ old_string: "x", new_string: "y", replace_all: true }],
    }),
  );
  assert.equal(h.elicitations.length, 1);
  structured(
    await h.call("edit_document", {
      id: "ask",
      edits: [{ old_string: "and", new_string: "&" }],
    }),
  );
  assert.equal(h.elicitations.length, 1);
  structured(
    await h.call("edit_document", {
      id: "ask",
      edits: [{ old_string: " a long tail that stays", new_string: "" }],
    }),
  );
  assert.equal(h.elicitations.length, 2);
  assert.equal(await h.text("ask"), "y y y &");
});

Deno.test("`edit_document` without a dialog returns a token, and writes only once it comes back", async () => {
  await using h = await connect();
  await padWith(h, "tok", "delete most of this text");
  const args = {
    id: "tok",
    edits: [{ old_string: " most of this text", new_string: "" }],
  };
  const first = structured(await h.call("edit_document", args));
  assert.equal(first.status, "confirmation_required");
  assert.equal(await h.text("tok"), "delete most of this text");
  const second = structured(
    await h.call("edit_document", {
      ...args,
      confirm_token: first.confirm_token,
    }),
  );
  assert.equal(second.status, "applied");
  assert.equal(await h.text("tok"), "delete");
});

Deno.test("RUSTPAD_CONFIRM=always asks before every write, even an append", async () => {
  await using h = await connect({
    elicit: accept,
    env: { RUSTPAD_CONFIRM: "always" },
  });
  await h.call("append_to_document", { id: "al", text: "a" });
  await h.call("edit_document", {
    id: "al",
    edits: [{ old_string: "a", new_string: "b" }],
  });
  await h.call("set_language", { id: "al", language: "rust" });
  assert.equal(h.elicitations.length, 3);
  assert.match(h.elicitations[0]!.message, /Append 1 code points to pad "al"/);
  assert.equal(await h.text("al"), "b");
});

Deno.test("RUSTPAD_CONFIRM=never asks nothing, even to replace a whole pad", async () => {
  await using h = await connect({
    elicit: accept,
    env: { RUSTPAD_CONFIRM: "never" },
  });
  await padWith(h, "nv", "precious");
  structured(await h.call("set_document", { id: "nv", text: "gone" }));
  assert.equal(h.elicitations.length, 0);
  assert.equal(await h.text("nv"), "gone");
});

Deno.test("RUSTPAD_CONFIRM=destructive asks only tools annotated destructive, on their rules", async () => {
  await using h = await connect({
    elicit: accept,
    env: { RUSTPAD_CONFIRM: "destructive" },
  });
  await padWith(h, "de", "text");
  assert.equal(h.elicitations.length, 0);
  structured(await h.call("set_document", { id: "de", text: "new" }));
  assert.equal(h.elicitations.length, 1);
  const tools = (await h.client.listTools()).tools;
  const destructive = tools.filter((tool) => tool.annotations?.destructiveHint)
    .map((tool) => tool.name);
  assert.ok(destructive.includes("edit_document"));
  assert.ok(!destructive.includes("append_to_document"));
});

Deno.test("a bad RUSTPAD_CONFIRM or RUSTPAD_REQUIRE_READ stops the configuration", () => {
  assert.throws(
    () => loadConfig({ RUSTPAD_CONFIRM: "sometimes" }),
    /RUSTPAD_CONFIRM.*"sometimes".*destructive, always or never/,
  );
  assert.throws(
    () => loadConfig({ RUSTPAD_REQUIRE_READ: "maybe" }),
    /RUSTPAD_REQUIRE_READ/,
  );
  assert.equal(loadConfig({}).confirm, "destructive");
});

Deno.test("RUSTPAD_REQUIRE_READ refuses a write to a pad this connection has not read, changing nothing", async () => {
  await using h = await connect({ env: { RUSTPAD_REQUIRE_READ: "true" } });
  // An empty pad needs no read.
  structured(
    await h.call("append_to_document", { id: "rr", text: "first draft" }),
  );
  await using other = await connect({
    pads: h.pads,
    env: { RUSTPAD_REQUIRE_READ: "true" },
  });
  // Another connection read it: that does not count for this one.
  const message = errorOf(
    await other.call("edit_document", {
      id: "rr",
      edits: [{ old_string: "first", new_string: "second" }],
    }),
  );
  assert.match(message, /has not read it and RUSTPAD_REQUIRE_READ is on/);
  assert.equal(await h.text("rr"), "first draft");
  structured(await other.call("get_document", { id: "rr" }));
  const written = structured(
    await other.call("edit_document", {
      id: "rr",
      edits: [{ old_string: "first", new_string: "second" }],
    }),
  );
  assert.equal(written.status, "applied");
  assert.equal(await h.text("rr"), "second draft");
});

Deno.test("`edit_document` extending or shrinking a string changes only what differs, so it asks no one", async () => {
  await using h = await connect({ elicit: accept });
  await padWith(h, "grow", "⟦a⟧");
  const grown = structured(
    await h.call("edit_document", {
      id: "grow",
      edits: [{ old_string: "⟦a⟧", new_string: "⟦a⟧⟦e⟧" }],
    }),
  );
  assert.equal(grown.status, "applied");
  assert.equal(await h.text("grow"), "⟦a⟧⟦e⟧");
  // Shrinking the whole pad by one code point removes one, not six.
  const shrunk = structured(
    await h.call("edit_document", {
      id: "grow",
      edits: [{ old_string: "⟦a⟧⟦e⟧", new_string: "⟦a⟧⟦⟧" }],
    }),
  );
  assert.equal(shrunk.status, "applied");
  assert.equal(await h.text("grow"), "⟦a⟧⟦⟧");
  assert.equal(h.elicitations.length, 0);
});

Deno.test("`edit_document` asks before deleting over half the pad by the code points really deleted", async () => {
  await using h = await connect();
  await padWith(h, "half", "🎉🎉🎉🎉ab");
  // Six code points named, four deleted (the 🎉 kept at each end).
  const asked = structured(
    await h.call("edit_document", {
      id: "half",
      edits: [{ old_string: "🎉🎉🎉🎉ab", new_string: "🎉b" }],
    }),
  );
  assert.equal(asked.status, "confirmation_required");
  assert.equal(await h.text("half"), "🎉🎉🎉🎉ab");
  // Six named, three deleted: not over half.
  const applied = structured(
    await h.call("edit_document", {
      id: "half",
      edits: [{ old_string: "🎉🎉🎉🎉ab", new_string: "🎉ab" }],
    }),
  );
  assert.equal(applied.status, "applied");
  assert.equal(await h.text("half"), "🎉ab");
});

Deno.test("`edit_document` at a base revision keeps a person's typing inside the text an edit keeps, without a conflict", async () => {
  await using h = await connect();
  await padWith(h, "keep", "call foo(a) now\n");
  const read = await revisionOf(h, "keep");
  await using typist = await RawPerson.open(h.pads.url, "keep");
  // Inside "foo(a)", which the edit below only extends.
  await typist.type(8, "_x");
  await untilServerSees(h, "keep", read + 2);
  const result = structured(
    await h.call("edit_document", {
      id: "keep",
      base_revision: read,
      edits: [{ old_string: "foo(a)", new_string: "foo(a, b)" }],
    }),
  );
  assert.equal(result.status, "applied");
  assert.equal(await h.text("keep"), "call foo_x(a, b) now\n");
  // Typing inside what an edit does replace is still a conflict.
  const again = await revisionOf(h, "keep");
  // The edit below replaces only "a, b": typed between "," and " b".
  await typist.type(13, "c");
  await untilServerSees(h, "keep", again + 1);
  const refused = structured(
    await h.call("edit_document", {
      id: "keep",
      base_revision: again,
      edits: [{ old_string: "foo_x(a, b)", new_string: "foo_x(z)" }],
    }),
  );
  assert.equal(refused.status, "conflict");
  assert.equal(await h.text("keep"), "call foo_x(a,c b) now\n");
});

Deno.test("`edit_document` replace_all extending every occurrence inserts only what is new, after asking once", async () => {
  await using h = await connect({ elicit: accept });
  await padWith(h, "all", "x1 y x1 😀1");
  const result = structured(
    await h.call("edit_document", {
      id: "all",
      edits: [{ old_string: "1", new_string: "12", replace_all: true }],
    }),
  );
  assert.equal(result.status, "applied");
  assert.equal(await h.text("all"), "x12 y x12 😀12");
  assert.equal(h.elicitations.length, 1);
  assert.match(h.elicitations[0]!.message, /removing 0 code points/);
});

Deno.test("`undo_last_edit` of an `edit_document` that extended the agent's text takes back only the extension, keeping what a person typed in the kept text", async () => {
  await using h = await connect();
  await padWith(h, "undo", "base ");
  structured(await h.call("append_to_document", { id: "undo", text: "⟦a⟧" }));
  structured(
    await h.call("edit_document", {
      id: "undo",
      edits: [{ old_string: "⟦a⟧", new_string: "⟦a⟧⟦e⟧" }],
    }),
  );
  const written = await revisionOf(h, "undo");
  await using typist = await RawPerson.open(h.pads.url, "undo");
  // Inside the "⟦a⟧" the extension kept.
  await typist.type(6, "!");
  await untilServerSees(h, "undo", written + 1);
  structured(await h.call("undo_last_edit", { id: "undo" }));
  assert.equal(await h.text("undo"), "base ⟦!a⟧");
  structured(await h.call("undo_last_edit", { id: "undo" }));
  assert.equal(await h.text("undo"), "base !");
});

Deno.test("`replace_in_document` at a base revision changes only what search and replace do not share", async () => {
  await using h = await connect();
  await padWith(h, "rep", "say cat here\n");
  const read = await revisionOf(h, "rep");
  await using typist = await RawPerson.open(h.pads.url, "rep");
  // Inside the "ca" that "cat" -> "cart" keeps.
  await typist.type(5, "!");
  await untilServerSees(h, "rep", read + 1);
  const result = structured(
    await h.call("replace_in_document", {
      id: "rep",
      search: "cat",
      replace: "cart",
      base_revision: read,
    }),
  );
  assert.equal(result.status, "applied");
  assert.equal(await h.text("rep"), "say c!art here\n");
});
