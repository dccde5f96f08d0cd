// Agents told apart in one process: each MCP session sees only the pads it
// opened (resources/list, completion, log messages), each named token is an
// identity bound to its sessions (404 to any other), its own collaborator in
// pads, with its own idempotency keys, all within one RUSTPAD_MAX_OPEN_PADS.

import assert from "node:assert/strict";
// @ts-types="@modelcontextprotocol/sdk/types"
import {
  type CallToolResult,
  LoggingMessageNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { connectHttp, startHttp } from "../_http.ts";
import { RawPerson } from "../_person.ts";
import { structured, waitFor } from "../_mcp.ts";

const ALICE = "alice-token-0123456789-abcdefghijklmnop";
const BOB = "bob-token-0123456789-abcdefghijklmnopqrs";
const identities = [
  { name: "alice", token: ALICE },
  { name: "bob", token: BOB },
];

function names(person: RawPerson): Set<string> {
  return new Set(
    person.frames.map((frame) => JSON.parse(frame))
      .map((message) => message.UserInfo?.info?.name)
      .filter((name): name is string => typeof name === "string"),
  );
}

Deno.test("each session lists and completes only the pads it opened, and hears log messages only about them", async () => {
  await using http = await startHttp();
  await using first = await connectHttp(http.server.url);
  await using second = await connectHttp(http.server.url);
  const heard: string[] = [];
  second.client.setNotificationHandler(
    LoggingMessageNotificationSchema,
    (notification) =>
      void heard.push(
        (notification.params.data as { message: string }).message,
      ),
  );
  await second.client.setLoggingLevel("debug");
  structured(
    await first.call("append_to_document", { id: "secret-a", text: "x" }),
  );
  structured(await second.call("get_document", { id: "mine-b" }));
  const listed = async (agent: typeof first) =>
    (await agent.client.listResources()).resources.map((resource) =>
      resource.name
    );
  assert.deepEqual(await listed(first), ["secret-a"]);
  assert.deepEqual(await listed(second), ["mine-b"]);
  const completed = await second.client.complete({
    ref: { type: "ref/resource", uri: "rustpad://pad/{id}" },
    argument: { name: "id", value: "" },
  });
  assert.deepEqual(completed.completion.values, ["mine-b"]);
  await waitFor(
    () => heard.some((message) => message === 'Opened pad "mine-b"'),
    "the second session's own debug message",
  );
  assert.ok(
    !heard.some((message) => message.includes("secret-a")),
    heard.join("\n"),
  );
});

Deno.test("a session is bound to the identity that made it: another identity using its id gets 404, as for an unknown one", async () => {
  await using http = await startHttp({ identities });
  await using alice = await connectHttp(http.server.url, { token: ALICE });
  structured(
    await alice.call("append_to_document", { id: "bound", text: "a" }),
  );
  const id = alice.transport.sessionId!;
  const unknown = await fetch(http.server.url, {
    method: "DELETE",
    headers: {
      authorization: `Bearer ${BOB}`,
      "mcp-session-id": crypto.randomUUID(),
    },
  });
  const unknownBody = await unknown.text();
  assert.equal(unknown.status, 404);
  for (const method of ["GET", "POST", "DELETE"]) {
    const response = await fetch(http.server.url, {
      method,
      headers: {
        authorization: `Bearer ${BOB}`,
        "mcp-session-id": id,
        accept: "application/json, text/event-stream",
        "content-type": "application/json",
      },
      ...(method === "POST" && {
        body: JSON.stringify({ jsonrpc: "2.0", id: 9, method: "tools/list" }),
      }),
    });
    assert.equal(response.status, 404, method);
    assert.equal(await response.text(), unknownBody, method);
  }
  // Alice's session lives on.
  structured(
    await alice.call("append_to_document", { id: "bound", text: "b" }),
  );
  assert.equal(http.pads.text("bound"), "ab");
});

Deno.test("each identity is its own collaborator by name; its undo takes back only its edits; another's edits are named as its agent's", async () => {
  await using http = await startHttp({ identities });
  await using person = await RawPerson.open(http.pads.url, "team");
  await using alice = await connectHttp(http.server.url, { token: ALICE });
  await using bob = await connectHttp(http.server.url, { token: BOB });
  structured(
    await alice.call("append_to_document", { id: "team", text: "A1 " }),
  );
  structured(await bob.call("append_to_document", { id: "team", text: "B1 " }));
  const waited = bob.call("wait_for_change", {
    id: "team",
    since_revision: 2,
    timeout_seconds: 5,
  });
  structured(
    await alice.call("append_to_document", { id: "team", text: "A2 " }),
  );
  const change = structured(await waited as CallToolResult);
  assert.deepEqual(change.authors, [{
    name: 'an agent of "alice"',
    self: false,
  }]);
  await waitFor(() => person.text === "A1 B1 A2 ", "the three edits");
  const seen = names(person);
  assert.ok(seen.has("rustpad-mcp (alice)"), [...seen].join(", "));
  assert.ok(seen.has("rustpad-mcp (bob)"), [...seen].join(", "));
  assert.ok(!seen.has("rustpad-mcp"), [...seen].join(", "));
  const undoneByAlice = structured(
    await alice.call("undo_last_edit", { id: "team" }),
  );
  assert.equal(undoneByAlice.status, "applied");
  assert.equal(http.pads.text("team"), "A1 B1 ");
  structured(await bob.call("undo_last_edit", { id: "team" }));
  assert.equal(http.pads.text("team"), "A1 ");
  // Bob has nothing left to undo; alice's first edit is still hers.
  const nothing = await bob.call("undo_last_edit", { id: "team" });
  assert.equal(nothing.isError, true);
  assert.equal(http.pads.text("team"), "A1 ");
});

Deno.test("idempotency keys are the identity's: another session of it replays, another identity's same key is its own", async () => {
  await using http = await startHttp({ identities });
  const args = { id: "keys", text: "x", idempotency_key: "same-key" };
  {
    await using alice = await connectHttp(http.server.url, { token: ALICE });
    assert.equal(
      structured(await alice.call("append_to_document", args)).status,
      "applied",
    );
  }
  await using again = await connectHttp(http.server.url, { token: ALICE });
  assert.equal(
    structured(await again.call("append_to_document", args)).replayed,
    true,
  );
  await using bob = await connectHttp(http.server.url, { token: BOB });
  const fromBob = structured(await bob.call("append_to_document", args));
  assert.equal(fromBob.replayed, undefined);
  assert.equal(http.pads.text("keys"), "xx");
});

Deno.test("RUSTPAD_MAX_OPEN_PADS counts the sockets of every identity together", async () => {
  await using http = await startHttp({
    identities,
    env: { RUSTPAD_MAX_OPEN_PADS: "2" },
  });
  await using alice = await connectHttp(http.server.url, { token: ALICE });
  await using bob = await connectHttp(http.server.url, { token: BOB });
  structured(await alice.call("append_to_document", { id: "one", text: "a" }));
  structured(await bob.call("append_to_document", { id: "one", text: "b" }));
  assert.equal(http.backend.slots.openCount, 2);
  // A third socket closes the least recently used idle one: alice's.
  structured(await bob.call("append_to_document", { id: "two", text: "c" }));
  await waitFor(() => http.backend.slots.openCount === 2, "the budget to hold");
  assert.equal(http.backend.pool("alice").openCount, 0);
  assert.equal(http.backend.pool("bob").openCount, 2);
});
