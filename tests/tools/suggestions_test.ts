import assert from "node:assert/strict";
import { errorOf, structured, textOf } from "../_mcp.ts";
import { RawPerson } from "../_person.ts";
import { TextOperation } from "../../src/mod.ts";
import { connectWithDesk, decide, listed } from "./_suggestions.ts";
import { revisionOf, untilServerSees } from "./_pads.ts";

Deno.test("a suggested edit changes nothing; accepted over HTTP after people typed before and inside it, it lands once where it belonged, by the agent", async () => {
  await using h = await connectWithDesk();
  structured(
    await h.call("append_to_document", {
      id: "s-lands",
      text: "hello world\n",
    }),
  );
  const made = structured(
    await h.call("replace_in_document", {
      id: "s-lands",
      search: "world",
      replace: "there",
      suggest: true,
    }),
  );
  assert.equal(made.status, "suggested");
  assert.match(String(made.diff), /^-hello world$/m);
  assert.equal(await h.text("s-lands"), "hello world\n");

  await using person = await RawPerson.open(h.pads.url, "s-lands");
  await person.type(0, "AB"); // before its range
  await person.type(10, "Q"); // inside "world": "ABhello woQrld"
  const before = await listed(h, "s-lands");
  const [pending] = before.suggestions;
  assert.equal(pending?.status, "pending");
  // Carried over the typing: still on "wo", "rld" around the person's Q.
  assert.deepEqual(pending?.hunks, [
    { from: 8, to: 10, deleted: "wo", inserted: "there" },
    { from: 11, to: 14, deleted: "rld", inserted: "" },
  ]);

  const accepted = await decide(
    h,
    "s-lands",
    String(made.suggestion_id),
    "accept",
    "Ann",
  );
  assert.equal(accepted.status, 200);
  assert.equal(accepted.body.status, "accepted");
  assert.equal(accepted.body.decidedBy, "Ann");
  assert.equal(await h.text("s-lands"), "ABhello thereQ\n");
  const landed = accepted.body.landedRevision as number;
  assert.equal(landed, 5); // the append, three keystrokes, the accept

  // A second decision changes nothing.
  const again = await decide(
    h,
    "s-lands",
    String(made.suggestion_id),
    "accept",
  );
  assert.equal(again.status, 409);
  assert.match(String(again.body.error), /is accepted .*by Ann/);
  const rejectedLate = await decide(
    h,
    "s-lands",
    String(made.suggestion_id),
    "reject",
  );
  assert.equal(rejectedLate.status, 409);
  assert.equal(await h.text("s-lands"), "ABhello thereQ\n");
  assert.equal(await revisionOf(h, "s-lands"), landed);

  // The pad shows the agent wrote it: its undo takes it back.
  const changes = structured(
    await h.call("get_changes", { id: "s-lands", since_revision: landed - 1 }),
  );
  assert.deepEqual(
    (changes.hunks as { authors: unknown[] }[])[0]?.authors,
    [{ name: "you", self: true }],
  );
});

Deno.test("a rejected suggestion changes nothing, and the agent hears the verdict in wait_for_change", async () => {
  await using h = await connectWithDesk();
  structured(
    await h.call("append_to_document", { id: "s-reject", text: "one\n" }),
  );
  const made = structured(
    await h.call("append_to_document", {
      id: "s-reject",
      text: "two\n",
      suggest: true,
    }),
  );
  const revision = made.revision as number;
  const waiting = h.call("wait_for_change", {
    id: "s-reject",
    since_revision: revision,
    timeout_seconds: 10,
  });
  const rejected = await decide(
    h,
    "s-reject",
    String(made.suggestion_id),
    "reject",
    "Bo",
  );
  assert.equal(rejected.status, 200);
  const heard = structured(await waiting);
  assert.equal(heard.changed, false);
  assert.deepEqual(heard.decisions, [{
    suggestion_id: made.suggestion_id,
    status: "rejected",
    decided_by: "Bo",
  }]);
  assert.equal(await h.text("s-reject"), "one\n");
  assert.equal(await revisionOf(h, "s-reject"), revision);
  const accepted = await decide(
    h,
    "s-reject",
    String(made.suggestion_id),
    "accept",
  );
  assert.equal(accepted.status, 409);
  assert.equal(await h.text("s-reject"), "one\n");
});

Deno.test("a suggestion whose text a person deletes is outdated, with the reason, and cannot be accepted", async () => {
  await using h = await connectWithDesk();
  structured(
    await h.call("append_to_document", {
      id: "s-old",
      text: "keep this line\ndrop me\n",
    }),
  );
  const made = structured(
    await h.call("edit_document", {
      id: "s-old",
      edits: [{ old_string: "drop me", new_string: "changed" }],
      suggest: true,
    }),
  );
  await using person = await RawPerson.open(h.pads.url, "s-old");
  // Delete "drop" (code points 15 to 19) as the person.
  await person.edit(TextOperation.fromJSON([15, -4, 4]));
  const accepted = await decide(
    h,
    "s-old",
    String(made.suggestion_id),
    "accept",
  );
  assert.equal(accepted.status, 409);
  assert.match(String(accepted.body.error), /someone deleted text it changes/);
  assert.equal(await h.text("s-old"), "keep this line\n me\n");
  const [shown] = (await listed(h, "s-old")).suggestions;
  assert.equal(shown?.status, "outdated");
  const listedByAgent = structured(
    await h.call("list_suggestions", { id: "s-old" }),
  );
  assert.equal(
    (listedByAgent.suggestions as { status: string }[])[0]?.status,
    "outdated",
  );
});

Deno.test("a withdrawn suggestion is refused to people, withdrawing it again answers 'withdrawn', and an unknown one is 404", async () => {
  await using h = await connectWithDesk();
  const made = structured(
    await h.call("create_document", {
      id: "s-withdraw",
      text: "draft\n",
      suggest: true,
    }),
  );
  assert.equal(made.status, "suggested");
  assert.equal(await h.text("s-withdraw"), "");
  const withdrawn = structured(
    await h.call("withdraw_suggestion", {
      id: "s-withdraw",
      suggestion_id: made.suggestion_id,
    }),
  );
  assert.equal(withdrawn.status, "withdrawn");
  const late = await decide(
    h,
    "s-withdraw",
    String(made.suggestion_id),
    "accept",
  );
  assert.equal(late.status, 409);
  assert.equal(await h.text("s-withdraw"), "");
  assert.equal((await decide(h, "s-withdraw", "nope", "accept")).status, 404);
  const bad = await fetch(`${h.pads.url}/api/suggestions/s-withdraw/x`, {
    method: "POST",
    body: '{"verdict":"maybe"}',
  });
  assert.equal(bad.status, 400);
  await bad.body?.cancel();
  // A retry (its answer lost, say) answers the same: withdraw is idempotent.
  const again = structured(
    await h.call("withdraw_suggestion", {
      id: "s-withdraw",
      suggestion_id: made.suggestion_id,
    }),
  );
  assert.equal(again.status, "withdrawn");
});

Deno.test("RUSTPAD_SUGGEST=always holds every write, says so in the schema and description, and refuses suggest: false; never lists no suggest or summary parameter and no suggestion tools", async () => {
  {
    await using h = await connectWithDesk({
      env: { RUSTPAD_SUGGEST: "always" },
    });
    const held = structured(
      await h.call("set_document", { id: "s-always", text: "x\n" }),
    );
    assert.equal(held.status, "suggested");
    assert.equal(await h.text("s-always"), "");
    const refused = await h.call("set_document", {
      id: "s-always",
      text: "y\n",
      suggest: false,
    });
    assert.equal(refused.isError, true, JSON.stringify(refused));
    assert.match(
      (refused.content as { text: string }[])[0]!.text,
      /^Cannot write to pad "s-always" directly as RUSTPAD_SUGGEST=always holds every write as a suggestion for people to accept: current suggest is false\. Nothing was changed/,
    );
    assert.equal(await h.text("s-always"), "");
    const { tools } = await h.client.listTools();
    const writes = tools.filter((tool) =>
      "suggest" in (tool.inputSchema.properties ?? {})
    );
    assert.ok(writes.length >= 7, writes.map((tool) => tool.name).join());
    for (const tool of writes) {
      assert.match(tool.description ?? "", /RUSTPAD_SUGGEST=always/);
      const suggest = tool.inputSchema.properties!.suggest as {
        description: string;
      };
      assert.match(suggest.description, /Always true here.*false is refused/);
    }
  }
  await using h = await connectWithDesk({ env: { RUSTPAD_SUGGEST: "never" } });
  const { tools } = await h.client.listTools();
  const names = tools.map((tool) => tool.name);
  assert.ok(!names.includes("list_suggestions"));
  assert.ok(!names.includes("withdraw_suggestion"));
  for (const tool of tools) {
    const properties = tool.inputSchema.properties ?? {};
    assert.ok(!("suggest" in properties), tool.name);
    assert.ok(!("summary" in properties), tool.name);
  }
});

Deno.test("pending suggestions are bounded per pad; the error names what to do", async () => {
  await using h = await connectWithDesk();
  for (let i = 0; i < 100; i++) {
    structured(
      await h.call("append_to_document", {
        id: "s-full",
        text: `${i}`,
        suggest: true,
      }),
    );
  }
  const refused = errorOf(
    await h.call("append_to_document", {
      id: "s-full",
      text: "one more",
      suggest: true,
    }),
  );
  assert.match(
    refused,
    /^Cannot hold a suggestion for pad "s-full" as 100 suggestions are pending/,
  );
  assert.match(refused, /RUSTPAD_SUGGEST_TTL/);
  assert.equal(await h.text("s-full"), "");
  assert.match(
    textOf(await h.call("list_suggestions", { id: "s-full" })),
    /100 pending/,
  );
});

Deno.test("a suggestion on a pad people keep typing in lands where an agent's own rebased edit would", async () => {
  await using h = await connectWithDesk();
  structured(
    await h.call("append_to_document", { id: "s-live", text: "a\nb\nc\n" }),
  );
  const made = structured(
    await h.call("edit_document", {
      id: "s-live",
      edits: [{ start_line: 2, end_line: 2, new_string: "B\n" }],
      suggest: true,
    }),
  );
  await using person = await RawPerson.open(h.pads.url, "s-live");
  await person.type(0, "0\n");
  await person.type(8, "d\n");
  await untilServerSees(h, "s-live", person.revision);
  const accepted = await decide(
    h,
    "s-live",
    String(made.suggestion_id),
    "accept",
  );
  assert.equal(accepted.status, 200);
  assert.equal(await h.text("s-live"), "0\na\nB\nc\nd\n");
});

Deno.test("create_document with suggest: a language alone is held as a suggestion, changing nothing; text and a language together are refused, naming the way", async () => {
  await using h = await connectWithDesk();
  const language = structured(
    await h.call("create_document", {
      id: "s-new-lang",
      language: "python",
      suggest: true,
    }),
  );
  assert.equal(language.status, "suggested", JSON.stringify(language));
  const info = structured(
    await h.call("get_document_info", { id: "s-new-lang" }),
  );
  assert.equal(info.language, null);
  const both = await h.call("create_document", {
    id: "s-new-both",
    text: "print(1)\n",
    language: "python",
    suggest: true,
  });
  assert.equal(both.isError, true, JSON.stringify(both));
  assert.match(
    (both.content as { text: string }[])[0]!.text,
    /Cannot suggest pad "s-new-both" with both text and a language as one suggestion holds one change: suggest the text now, and the language with set_language and suggest: true/,
  );
  assert.equal(await h.text("s-new-both"), "");
});
