// A pad server that restarts like Rustpad, through the public surface: the
// MCP server over Streamable HTTP with the SDK client, a raw-socket person,
// and a pad server closed and started again on the same port and the same
// in-memory PadDatabase, which brings each pad back at revision 1 as one
// insert of its text, numbering connections anew. A revision or an edit_id
// from before the restart is refused, saying the pad restarted; nothing
// changes; a reconnect to the same history is no restart.

import assert from "node:assert/strict";
import { createBackend, loadConfig, serveHttp } from "../../src/mod.ts";
import { TextOperation } from "../../src/ot/operation.ts";
import {
  PadDatabase,
  type PadServer,
  startPadServer,
} from "../../src/testing/mod.ts";
import { connectHttp } from "../_http.ts";
import { RawPerson } from "../_person.ts";
import { errorOf, structured, waitFor } from "../_mcp.ts";
import { uiClient } from "../mcp/_ui_client.ts";
import { HmacSigner, toBase64Url } from "../../src/safety/_confirm_token.ts";
import { freePort } from "../_free_port.ts";

const ALICE = "alice-token-0123456789-abcdefghijklmnop";
const identities = [{ name: "alice", token: ALICE }];
const SECRET = "replicas-share-this-secret-0123456789abcdef";

interface Restartable extends AsyncDisposable {
  /** The pad server now. */
  readonly pads: PadServer;
  /** The MCP server's address. */
  readonly url: URL;
  /** Another MCP server (a replica) on the same pads and secret. */
  replica(): Promise<URL>;
  /** Snapshot the pads, close the pad server, start it again on its port. */
  restart(): Promise<void>;
}

/** With `named`, the MCP servers know alice's token; else no tokens. */
async function restartable(named = true): Promise<Restartable> {
  const database = new PadDatabase();
  // A port nothing else is handed while the pad server is down.
  const port = freePort();
  let pads = await startPadServer({ database, port, snapshotIntervalMs: 0 });
  const servers: { shutdown(): Promise<void> }[] = [];
  const backends: { close(): Promise<void> }[] = [];
  const serve = () => {
    const backend = createBackend(
      loadConfig({ RUSTPAD_URL: pads.url, RUSTPAD_CONFIRM_SECRET: SECRET }),
    );
    const server = serveHttp(backend, {
      ...(named && { identities }),
      log: () => {},
    });
    backends.push(backend);
    servers.push(server);
    return server.url;
  };
  const url = serve();
  return {
    get pads() {
      return pads;
    },
    url,
    replica: () => Promise.resolve(serve()),
    async restart() {
      pads.snapshot();
      await pads.close();
      pads = await startPadServer({ database, port, snapshotIntervalMs: 0 });
    },
    async [Symbol.asyncDispose]() {
      for (const server of servers) await server.shutdown();
      for (const backend of backends) await backend.close();
      await pads.close();
    },
  };
}

/** One operation appending `text` to what `person` sees. */
function appendOf(person: RawPerson, text: string): TextOperation {
  return new TextOperation().retain([...person.text].length).insert(text);
}

Deno.test("`wait_for_change` since a revision read before a Rustpad-style restart answers that the pad restarted, never that nothing changed", async () => {
  await using harness = await restartable();
  await using alice = await connectHttp(harness.url, { token: ALICE });
  for (const line of ["one\n", "two\n", "three\n"]) {
    structured(
      await alice.call("append_to_document", { id: "notes", text: line }),
    );
  }
  const read = structured(await alice.call("get_document", { id: "notes" }));
  assert.equal(read.revision, 3);
  await harness.restart();
  // Four keystrokes after the restart: revision 5 of the new history, past
  // the 3 read, so numbers alone would say "changed" with someone's diff.
  await using person = await RawPerson.open(harness.pads.url, "notes");
  for (const key of ["a", "b", "c", "d"]) {
    await person.edit(appendOf(person, key));
  }
  assert.equal(person.revision, 5);
  const refused = errorOf(
    await alice.call("wait_for_change", {
      id: "notes",
      since_revision: 3,
      timeout_seconds: 5,
    }),
  );
  assert.match(
    refused,
    /^Cannot wait on pad "notes" for changes since revision 3 as the pad restarted at revision 5 /,
  );
  assert.match(refused, /read the pad again/);
  // Read again: the new revision is waited on as usual.
  const again = structured(await alice.call("get_document", { id: "notes" }));
  assert.equal(again.revision, 5);
  assert.equal(again.text, "one\ntwo\nthree\nabcd");
  const quiet = structured(
    await alice.call("wait_for_change", {
      id: "notes",
      since_revision: 5,
      timeout_seconds: 0.2,
    }),
  );
  assert.equal(quiet.changed, false);
  assert.equal(quiet.timed_out, true);
  await person.edit(appendOf(person, "e"));
  const changed = structured(
    await alice.call("wait_for_change", {
      id: "notes",
      since_revision: 5,
      timeout_seconds: 5,
    }),
  );
  assert.equal(changed.changed, true);
  assert.equal(changed.revision, 6);
});

Deno.test("a `wait_for_change` under way when the pad server restarts like Rustpad ends saying the pad restarted", async () => {
  await using harness = await restartable();
  await using alice = await connectHttp(harness.url, { token: ALICE });
  structured(
    await alice.call("append_to_document", { id: "live", text: "kept\n" }),
  );
  structured(
    await alice.call("append_to_document", { id: "live", text: "more\n" }),
  );
  const waiting = alice.call("wait_for_change", {
    id: "live",
    since_revision: 2,
    timeout_seconds: 60,
  });
  // The wait holds the pad open; let it start before the restart.
  await new Promise((resolve) => setTimeout(resolve, 100));
  await harness.restart();
  const refused = errorOf(await waiting);
  assert.match(
    refused,
    /^Cannot wait on pad "live" for changes since revision 2 as the pad restarted at revision 1 /,
  );
  assert.equal(harness.pads.text("live"), "kept\nmore\n");
});

Deno.test("a write with a base_revision from before a Rustpad-style restart is refused and changes nothing; read again, it lands", async () => {
  await using harness = await restartable();
  await using alice = await connectHttp(harness.url, { token: ALICE });
  structured(
    await alice.call("append_to_document", { id: "doc", text: "a\nb\nc\n" }),
  );
  const read = structured(await alice.call("get_document", { id: "doc" }));
  await harness.restart();
  await using person = await RawPerson.open(harness.pads.url, "doc");
  await person.edit(appendOf(person, "person's line\n"));
  const text = "a\nb\nc\nperson's line\n";
  await waitFor(() => harness.pads.text("doc") === text, "the person's line");
  // Revision 2 of the new history, as the agent read revision 1 of the
  // old one: a rebase would count the person's line as older than the read.
  const edit = {
    id: "doc",
    base_revision: read.revision,
    edits: [{ old_string: "b\n", new_string: "B\n" }],
  };
  const refused = errorOf(await alice.call("edit_document", edit));
  assert.match(
    refused,
    /^Cannot edit pad "doc" at base_revision 1 as the pad restarted at revision 2 /,
  );
  assert.match(refused, /Nothing was changed; read the pad again/);
  const replace = errorOf(
    await alice.call("replace_in_document", {
      id: "doc",
      base_revision: read.revision,
      search: "c",
      replace: "C",
    }),
  );
  assert.match(replace, /as the pad restarted at revision 2 /);
  const changes = errorOf(
    await alice.call("get_changes", { id: "doc", since_revision: 1 }),
  );
  assert.match(changes, /as the pad restarted at revision 2 /);
  assert.equal(harness.pads.text("doc"), text);
  const again = structured(await alice.call("get_document", { id: "doc" }));
  const landed = structured(
    await alice.call("edit_document", {
      ...edit,
      base_revision: again.revision,
    }),
  );
  assert.equal(landed.status, "applied");
  assert.equal(harness.pads.text("doc"), "a\nB\nc\nperson's line\n");
});

Deno.test("an edit_id from before a Rustpad-style restart is refused naming why, on this replica and on one that never saw the old history, and the person's paragraph stays", async () => {
  await using harness = await restartable();
  // Before: a person's title (user 0), then the agent's line (user 1).
  const before = await RawPerson.open(harness.pads.url, "plan");
  await before.edit(appendOf(before, "Title\n"));
  await using alice = await connectHttp(harness.url, { token: ALICE });
  structured(await alice.call("get_document", { id: "plan" }));
  const written = structured(
    await alice.call("append_to_document", { id: "plan", text: "agent\n" }),
  );
  assert.equal(written.revision, 2);
  await harness.restart();
  await before[Symbol.asyncDispose]();
  // After: the agent connects first (user 0), then a person (user 1) whose
  // paragraph is revision 2 by user 1, as the agent's edit was.
  structured(await alice.call("get_document", { id: "plan" }));
  await using person = await RawPerson.open(harness.pads.url, "plan");
  assert.equal(person.id, 1);
  await person.edit(appendOf(person, "A person's paragraph.\n"));
  const text = "Title\nagent\nA person's paragraph.\n";
  await waitFor(() => harness.pads.text("plan") === text, "the paragraph");
  const refused = errorOf(
    await alice.call("undo_last_edit", {
      id: "plan",
      edit_id: written.edit_id,
    }),
  );
  assert.match(
    refused,
    /^Cannot undo the edit of revision 2 on pad "plan" as the pad restarted since this edit \(the pad's history no longer begins as it did when the edit was made\)/,
  );
  assert.match(refused, /Nothing was changed/);
  await using elsewhere = await connectHttp(await harness.replica(), {
    token: ALICE,
  });
  const refusedThere = errorOf(
    await elsewhere.call("undo_last_edit", {
      id: "plan",
      edit_id: written.edit_id,
    }),
  );
  assert.match(refusedThere, /as the pad restarted since this edit/);
  assert.equal(harness.pads.text("plan"), text);
});

Deno.test("a reconnect to the same history is no restart: the old base_revision and edit_id still work", async () => {
  await using harness = await restartable();
  await using alice = await connectHttp(harness.url, { token: ALICE });
  const written = structured(
    await alice.call("append_to_document", { id: "same", text: "one\ntwo\n" }),
  );
  const read = structured(await alice.call("get_document", { id: "same" }));
  // A malformed frame ends the agent's session; the pad server stays up.
  harness.pads.sendRaw("same", "not json");
  await using person = await RawPerson.open(harness.pads.url, "same");
  await person.edit(appendOf(person, "three\n"));
  const edited = structured(
    await alice.call("edit_document", {
      id: "same",
      base_revision: read.revision,
      edits: [{ old_string: "one", new_string: "ONE" }],
    }),
  );
  assert.equal(edited.status, "applied");
  const undone = structured(
    await alice.call("undo_last_edit", {
      id: "same",
      edit_id: written.edit_id,
    }),
  );
  assert.equal(undone.status, "applied");
  // The agent's "ONE" came later than the edit undone, and stays.
  assert.equal(harness.pads.text("same"), "ONEthree\n");
  // The agent did reconnect: the person saw its new connection (user 2).
  const joined = person.frames.map((frame) => JSON.parse(frame))
    .filter((message) => message.UserInfo?.info != null)
    .map((message) => message.UserInfo.id);
  assert.ok(joined.includes(2), `users announced: ${joined}`);
});

Deno.test("the pad's view waiting since a revision from before a Rustpad-style restart is answered at once with the pad anew, not an error", async () => {
  await using harness = await restartable(false);
  await using ui = await uiClient(harness.url);
  for (const text of ["one\n", "two\n"]) {
    await ui.call("append_to_document", { id: "shown", text });
  }
  const shown = await ui.call("view_read_pad", { id: "shown" });
  assert.equal((shown.structuredContent as { revision: number }).revision, 2);
  await harness.restart();
  const answer = await ui.call("view_wait_pad", {
    id: "shown",
    since_revision: 2,
    timeout_seconds: 20,
  });
  assert.equal(answer.isError, undefined, JSON.stringify(answer.content));
  const pad = answer.structuredContent as { revision: number; text: string };
  assert.equal(pad.revision, 1);
  assert.equal(pad.text, "one\ntwo\n");
});

Deno.test("an edit_id of the earlier format, naming only the revision and the connection, is refused as unable to rule out a restart, and nothing changes", async () => {
  await using harness = await restartable();
  await using alice = await connectHttp(harness.url, { token: ALICE });
  const written = structured(
    await alice.call("append_to_document", { id: "older", text: "text\n" }),
  );
  // Signed as this server signed edit_ids before they named the history.
  const payload = { i: "alice", p: "older", r: written.revision, u: "0" };
  const segment = toBase64Url(
    new TextEncoder().encode(JSON.stringify(payload)),
  );
  const signer = new HmacSigner(new TextEncoder().encode(SECRET));
  const older = `${segment}.${await signer.sign(
    "rustpad-mcp edit id v1\n",
    segment,
  )}`;
  const refused = errorOf(
    await alice.call("undo_last_edit", { id: "older", edit_id: older }),
  );
  assert.match(
    refused,
    /^Cannot undo by edit_id as it was issued before edit ids named the pad's history, so it cannot tell the edit from another one at its revision after a restart/,
  );
  assert.equal(harness.pads.text("older"), "text\n");
});
