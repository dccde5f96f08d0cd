// edit_id through the public surface: two named identities over Streamable
// HTTP with the SDK client, a raw-socket person in the pad. Every write
// answers with an edit_id; undo_last_edit {edit_id} undoes exactly that
// edit, rebased over everything after it; an id (and a confirm_token) is
// the identity's it was issued to; a caller that cannot be told apart (the
// unnamed token without a session) is asked for an edit_id.

import assert from "node:assert/strict";
import { createBackend, loadConfig } from "../../src/mod.ts";
import {
  createToolContext,
  type ToolContext,
  TOOLS,
} from "../../src/tools/mod.ts";
import { startPadServer } from "../../src/testing/mod.ts";
import { connectHttp, spawnCli, startHttp } from "../_http.ts";
import { startRedis } from "../_redis.ts";
import { modernHttp } from "../_modern.ts";
import { RawPerson } from "../_person.ts";
import { errorOf, structured, textOf, waitFor } from "../_mcp.ts";

const ALICE = "alice-token-0123456789-abcdefghijklmnop";
const BOB = "bob-token-0123456789-abcdefghijklmnopqrs";
const identities = [
  { name: "alice", token: ALICE },
  { name: "bob", token: BOB },
];
const EDIT_ID = /^[\w-]+\.[\w-]{43}$/;

Deno.test("`undo_last_edit` with an edit_id undoes exactly that edit, rebased over a person's later typing and another agent's edit", async () => {
  await using http = await startHttp({ identities });
  await using person = await RawPerson.open(http.pads.url, "plan");
  await using alice = await connectHttp(http.server.url, { token: ALICE });
  await using bob = await connectHttp(http.server.url, { token: BOB });
  const first = structured(
    await alice.call("append_to_document", { id: "plan", text: "alpha\n" }),
  );
  assert.match(String(first.edit_id), EDIT_ID);
  structured(
    await alice.call("append_to_document", { id: "plan", text: "beta\n" }),
  );
  await waitFor(() => person.text === "alpha\nbeta\n", "alice's two lines");
  await person.type(0, "P: ");
  await waitFor(
    () => http.pads.text("plan") === "P: alpha\nbeta\n",
    "the person's typing",
  );
  const fromBob = await bob.call("append_to_document", {
    id: "plan",
    text: "gamma\n",
  });
  assert.match(textOf(fromBob), /edit_id: [\w-]+\.[\w-]{43}/);
  const undone = structured(
    await alice.call("undo_last_edit", { id: "plan", edit_id: first.edit_id }),
  );
  assert.equal(undone.status, "applied");
  assert.equal(undone.undone_revision, first.revision);
  assert.match(String(undone.edit_id), EDIT_ID);
  assert.equal(http.pads.text("plan"), "P: beta\ngamma\n");
  // The same edit twice: nothing is left of it, and nothing changes.
  const again = errorOf(
    await alice.call("undo_last_edit", { id: "plan", edit_id: first.edit_id }),
  );
  assert.match(again, /all it changed has since been deleted or undone/);
  // Without edit_id, alice's last edit is still "beta".
  structured(await alice.call("undo_last_edit", { id: "plan" }));
  assert.equal(http.pads.text("plan"), "P: gamma\n");
});

Deno.test("an edit_id that was changed, or names another pad, is refused and nothing changes", async () => {
  await using http = await startHttp({ identities });
  await using alice = await connectHttp(http.server.url, { token: ALICE });
  const written = structured(
    await alice.call("append_to_document", { id: "one", text: "x" }),
  );
  structured(await alice.call("append_to_document", { id: "two", text: "y" }));
  const editId = String(written.edit_id);
  const [payload = "", mac = ""] = editId.split(".");
  const forged = JSON.parse(atob(payload.replace(/-/g, "+")));
  const tampered = `${
    btoa(JSON.stringify({ ...forged, r: forged.r + 1 })).replace(/=+$/, "")
      .replace(/\+/g, "-").replace(/\//g, "_")
  }.${mac}`;
  // Its last character changed (to another one: an "A" left as it was
  // would be the edit_id itself, one time in sixteen).
  const lastChanged = `${editId.slice(0, -1)}${
    editId.endsWith("A") ? "Q" : "A"
  }`;
  for (const bad of [tampered, lastChanged, "nonsense"]) {
    assert.match(
      errorOf(await alice.call("undo_last_edit", { id: "one", edit_id: bad })),
      /Cannot undo by edit_id as this server did not issue it or it was changed/,
    );
  }
  assert.match(
    errorOf(
      await alice.call("undo_last_edit", { id: "two", edit_id: editId }),
    ),
    /Cannot undo by edit_id on pad "two" as it names an edit of pad "one"/,
  );
  assert.equal(http.pads.text("one"), "x");
  assert.equal(http.pads.text("two"), "y");
});

Deno.test("alice's edit_id and confirm_token are refused for bob; the pad keeps alice's text", async () => {
  await using http = await startHttp({ identities });
  await using alice = await connectHttp(http.server.url, { token: ALICE });
  await using bob = await connectHttp(http.server.url, { token: BOB });
  const written = structured(
    await alice.call("append_to_document", { id: "hers", text: "alice's" }),
  );
  assert.match(
    errorOf(
      await bob.call("undo_last_edit", {
        id: "hers",
        edit_id: written.edit_id,
      }),
    ),
    /as it names an edit of another identity/,
  );
  const args = { id: "hers", text: "bob was here" };
  const asked = structured(await alice.call("set_document", args));
  assert.equal(asked.status, "confirmation_required");
  const refused = errorOf(
    await bob.call("set_document", {
      ...args,
      confirm_token: asked.confirm_token,
    }),
  );
  assert.match(
    refused,
    /Cannot accept confirm_token as it was issued to another identity/,
  );
  assert.equal(http.pads.text("hers"), "alice's");
  // The token still works for alice, once.
  structured(
    await alice.call("set_document", {
      ...args,
      confirm_token: asked.confirm_token,
    }),
  );
  assert.equal(http.pads.text("hers"), "bob was here");
});

Deno.test("without a session, the unnamed token is asked for an edit_id; a named identity's last edit is its own across calls", async () => {
  await using pads = await startPadServer();
  await using backend = createBackend(loadConfig({ RUSTPAD_URL: pads.url }));
  const signal = new AbortController().signal;
  const call = async (
    context: ToolContext,
    tool: "append_to_document" | "undo_last_edit",
    args: Record<string, unknown>,
  ) =>
    (await TOOLS[tool].run(args as never, context, { signal }))
      .structuredContent;
  const shared = () => createToolContext(backend, "", { sessionless: true });
  await call(shared(), "append_to_document", { id: "shared", text: "kept " });
  const written = await call(shared(), "append_to_document", {
    id: "shared",
    text: "one",
  });
  await assert.rejects(
    call(shared(), "undo_last_edit", { id: "shared" }),
    /Cannot undo on pad "shared" without edit_id as this caller is the one unnamed token.*pass the edit_id of the write to undo/,
  );
  assert.equal(pads.text("shared"), "kept one");
  const undone = await call(shared(), "undo_last_edit", {
    id: "shared",
    edit_id: written.edit_id,
  });
  assert.equal(undone.status, "applied");
  assert.equal(pads.text("shared"), "kept ");
  const alice = () =>
    createToolContext(backend, "alice", { sessionless: true });
  await call(alice(), "append_to_document", { id: "named", text: "a" });
  await call(alice(), "append_to_document", { id: "named", text: "b" });
  await call(alice(), "undo_last_edit", { id: "named" });
  assert.equal(pads.text("named"), "a");
});

Deno.test("RUSTPAD_REQUIRE_READ counts a read by any session of the identity, and not another identity's", async () => {
  await using http = await startHttp({
    identities,
    env: { RUSTPAD_REQUIRE_READ: "yes" },
  });
  await using person = await RawPerson.open(http.pads.url, "read-first");
  await person.type(0, "people's text");
  await waitFor(
    () => http.pads.text("read-first") === "people's text",
    "the person's text",
  );
  {
    await using reader = await connectHttp(http.server.url, { token: ALICE });
    structured(await reader.call("get_document", { id: "read-first" }));
  }
  await using writer = await connectHttp(http.server.url, { token: ALICE });
  structured(
    await writer.call("append_to_document", { id: "read-first", text: "!" }),
  );
  await using bob = await connectHttp(http.server.url, { token: BOB });
  assert.match(
    errorOf(
      await bob.call("append_to_document", { id: "read-first", text: "?" }),
    ),
    /as this identity \(this process, or this bearer token\) has not read it and RUSTPAD_REQUIRE_READ is on/,
  );
  assert.equal(http.pads.text("read-first"), "people's text!");
});

Deno.test("undoing the agent's own rewrite asks what it removes and what it restores", async () => {
  await using http = await startHttp();
  const asked: string[] = [];
  await using agent = await connectHttp(http.server.url, {
    elicit: (request) => {
      asked.push(request.message);
      return { action: "accept", content: { confirm: true } };
    },
  });
  await using person = await RawPerson.open(http.pads.url, "rewrite");
  const peoples = "people wrote this line, and it is long enough.\n".repeat(4);
  await person.type(0, peoples);
  await waitFor(() => http.pads.text("rewrite") === peoples, "people's text");
  const rewrite = "The agent's rewrite, 40 code points long";
  structured(await agent.call("get_document", { id: "rewrite" }));
  const rewritten = structured(
    await agent.call("set_document", { id: "rewrite", text: rewrite }),
  );
  structured(await agent.call("undo_last_edit", { id: "rewrite" }));
  assert.equal(http.pads.text("rewrite"), peoples);
  assert.equal(
    asked.at(-1),
    `Undo your edit of revision ${rewritten.revision} on pad "rewrite", removing the 40 code points it wrote and restoring the ${peoples.length} it deleted (the pad goes from 40 to ${peoples.length} code points)?`,
  );
});

Deno.test("replicas: an edit_id from one replica undoes that edit on the other, which shares the secret and Redis", async () => {
  await using pads = await startPadServer();
  await using redis = await startRedis();
  const env = {
    RUSTPAD_URL: pads.url,
    RUSTPAD_STATE_URL: redis.url,
    RUSTPAD_CONFIRM_SECRET: "replicas-share-this-secret-0123456789abcdef",
  };
  await using a = await spawnCli(env);
  await using b = await spawnCli(env);
  await using onA = await connectHttp(a.url);
  await using onB = await connectHttp(b.url);
  structured(await onB.call("append_to_document", { id: "far", text: "B " }));
  const written = structured(
    await onA.call("append_to_document", { id: "far", text: "A " }),
  );
  structured(await onB.call("append_to_document", { id: "far", text: "B2" }));
  const undone = structured(
    await onB.call("undo_last_edit", { id: "far", edit_id: written.edit_id }),
  );
  assert.equal(undone.status, "applied");
  assert.equal(pads.text("far"), "B B2");
});

Deno.test("2026 era over HTTP: a named identity's last edit is its own, undone from another connection without edit_id", async () => {
  await using http = await startHttp({ identities });
  {
    await using alice = await modernHttp(http.server.url, { token: ALICE });
    await alice.call("append_to_document", { id: "era", text: "kept text " });
    const written = await alice.call("append_to_document", {
      id: "era",
      text: "dropped",
    });
    assert.equal(written.isError, undefined, JSON.stringify(written));
  }
  await using bob = await modernHttp(http.server.url, { token: BOB });
  const nothing = await bob.call("undo_last_edit", { id: "era" });
  assert.equal(nothing.isError, true);
  await using again = await modernHttp(http.server.url, { token: ALICE });
  const undone = await again.call("undo_last_edit", { id: "era" });
  assert.equal(
    (undone.structuredContent as { status: string }).status,
    "applied",
  );
  assert.equal(http.pads.text("era"), "kept text ");
});

Deno.test("2026 era: alice's requestState is refused for bob and changes nothing; it still works for alice", async () => {
  await using http = await startHttp({ identities });
  await using alice = await modernHttp(http.server.url, {
    token: ALICE,
    manual: true,
  });
  await using bob = await modernHttp(http.server.url, {
    token: BOB,
    manual: true,
  });
  await alice.call("append_to_document", { id: "sealed", text: "alice's" });
  const call = {
    name: "set_document",
    arguments: { id: "sealed", text: "bob was here" },
  };
  const asked = await alice.client.callTool(call, {
    allowInputRequired: true,
  }) as unknown as { resultType: string; requestState: string };
  assert.equal(asked.resultType, "input_required");
  const accept = { confirm: { action: "accept", content: { confirm: true } } };
  const retry = (agent: typeof alice) =>
    agent.client.callTool(
      // The retry's MRTR fields, which callTool's 2025-shaped type lacks.
      {
        ...call,
        inputResponses: accept,
        requestState: asked.requestState,
      } as typeof call,
      { allowInputRequired: true },
    );
  const refused = await retry(bob);
  assert.equal(refused.isError, true, JSON.stringify(refused));
  assert.match(
    (refused.content as { text: string }[])[0]!.text,
    /issued to another identity/,
  );
  assert.equal(http.pads.text("sealed"), "alice's");
  const genuine = await retry(alice);
  assert.equal(
    (genuine.structuredContent as { status: string }).status,
    "applied",
    JSON.stringify(genuine),
  );
  assert.equal(http.pads.text("sealed"), "bob was here");
});
