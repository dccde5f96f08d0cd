// Identities share the server's limits fairly: `mod.ts --http` with a file
// of two named tokens gives each half of RUSTPAD_MAX_OPEN_PADS and of
// RUSTPAD_MCP_MAX_SESSIONS, so one identity holding all of its share never
// leaves the other without; the refusal names the share.

import assert from "node:assert/strict";
import { startPadServer } from "../../src/testing/mod.ts";
import { connectHttp, initialize, spawnCli } from "../_http.ts";
import { errorOf, structured } from "../_mcp.ts";

const ALICE = "alice-token-0123456789-abcdefghijklmnop";
const BOB = "bob-token-0123456789-abcdefghijklmnopqrs";

async function withTokenFile(
  run: (file: string) => Promise<void>,
): Promise<void> {
  const file = await Deno.makeTempFile({ prefix: "tokens-" });
  try {
    await Deno.writeTextFile(file, `alice ${ALICE}\nbob ${BOB}\n`);
    await run(file);
  } finally {
    await Deno.remove(file);
  }
}

Deno.test("an identity whose subscriptions hold its share of RUSTPAD_MAX_OPEN_PADS is refused one more, naming the share; the other identity still opens pads", async () => {
  await using pads = await startPadServer();
  await withTokenFile(async (file) => {
    await using server = await spawnCli({
      RUSTPAD_URL: pads.url,
      RUSTPAD_MCP_TOKENS: file,
      RUSTPAD_MAX_OPEN_PADS: "4",
    });
    await using alice = await connectHttp(server.url, { token: ALICE });
    for (const pad of ["a1", "a2"]) {
      await alice.client.subscribeResource({ uri: `rustpad://pad/${pad}` });
    }
    const refused = errorOf(await alice.call("get_document", { id: "a3" }));
    assert.match(
      refused,
      /Cannot open pad "a3" as this identity already has its fair share of 2 pads open \(RUSTPAD_MAX_OPEN_PADS=4 shared by 2 identities\)/,
    );
    await using bob = await connectHttp(server.url, { token: BOB });
    for (const pad of ["b1", "b2"]) {
      await bob.client.subscribeResource({ uri: `rustpad://pad/${pad}` });
    }
    structured(await bob.call("append_to_document", { id: "b1", text: "x" }));
    assert.equal(pads.text("b1"), "x");
    // Alice's own idle pads make room within her share.
    await alice.client.unsubscribeResource({ uri: "rustpad://pad/a2" });
    structured(await alice.call("append_to_document", { id: "a3", text: "y" }));
    assert.equal(pads.text("a3"), "y");
  });
});

Deno.test("an identity at its share of RUSTPAD_MCP_MAX_SESSIONS gets 503 naming the share; the other identity still starts one", async () => {
  await using pads = await startPadServer();
  await withTokenFile(async (file) => {
    await using server = await spawnCli({
      RUSTPAD_URL: pads.url,
      RUSTPAD_MCP_TOKENS: file,
      RUSTPAD_MCP_MAX_SESSIONS: "4",
    });
    const sessions = [];
    for (let i = 0; i < 2; i++) {
      sessions.push(await connectHttp(server.url, { token: ALICE }));
    }
    const refused = await initialize(server.url, {
      authorization: `Bearer ${ALICE}`,
    });
    assert.equal(refused.status, 503);
    assert.match(
      (await refused.json()).error.message,
      /Cannot start a session as this identity has its fair share of 2 live sessions \(RUSTPAD_MCP_MAX_SESSIONS shared by 2 identities\)/,
    );
    await using bob = await connectHttp(server.url, { token: BOB });
    structured(await bob.call("get_stats"));
    // Ending one of alice's sessions gives her the room back.
    await sessions.pop()![Symbol.asyncDispose]();
    sessions.push(await connectHttp(server.url, { token: ALICE }));
    for (const session of sessions) await session[Symbol.asyncDispose]();
  });
});
