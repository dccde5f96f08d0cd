// Identities share the 100 pending suggestions a pad may have fairly:
// `mod.ts --http` with a file of two named tokens gives each 50, whether
// the suggestions are kept by the pad server (its agent API) or by the
// agent side (a pad server without it, as a real Rustpad); the refusal
// names the share, and the other identity still holds its own.

import assert from "node:assert/strict";
import { startPadServer } from "../../src/testing/mod.ts";
import { connectHttp, type McpHttpClient, spawnCli } from "../_http.ts";
import { errorOf, structured } from "../_mcp.ts";
import { startRedis } from "../_redis.ts";
import { SECRET } from "./_agents.ts";

const ALICE = "alice-token-0123456789-abcdefghijklmnop";
const BOB = "bob-token-0123456789-abcdefghijklmnopqrs";

/** Hold `count` suggestions on `pad` as `client`. */
async function holdMany(
  client: McpHttpClient,
  pad: string,
  count: number,
): Promise<void> {
  for (let i = 0; i < count; i++) {
    const made = structured(
      await client.call("append_to_document", {
        id: pad,
        text: `${i}\n`,
        suggest: true,
      }),
    );
    assert.equal(made.status, "suggested");
  }
}

/** Run `test` with a file of alice's and bob's tokens. */
async function withTokens(test: (file: string) => Promise<void>) {
  const file = await Deno.makeTempFile({ prefix: "tokens-" });
  try {
    await Deno.writeTextFile(file, `alice ${ALICE}\nbob ${BOB}\n`);
    await test(file);
  } finally {
    await Deno.remove(file);
  }
}

for (const kept of ["the pad server", "the agent side"] as const) {
  Deno.test(`two identities share a pad's 100 pending suggestions kept by ${kept}, 50 each; the refusal names the share`, async () => {
    await using pads = await startPadServer(
      kept === "the pad server" ? { agentSecret: SECRET } : {},
    );
    await withTokens(async (file) => {
      await using server = await spawnCli({
        RUSTPAD_URL: pads.url,
        RUSTPAD_MCP_TOKENS: file,
        RUSTPAD_AGENT_SECRET: SECRET,
      });
      await using alice = await connectHttp(server.url, { token: ALICE });
      await using bob = await connectHttp(server.url, { token: BOB });
      structured(
        await alice.call("append_to_document", { id: "s", text: "." }),
      );
      await holdMany(alice, "s", 50);
      const refused = errorOf(
        await alice.call("append_to_document", {
          id: "s",
          text: "one more",
          suggest: true,
        }),
      );
      assert.match(
        refused,
        /identity "alice" holds its fair share.*current share is 50 of the 100 pending per pad.*shared by 2 identities/,
      );
      structured(await bob.call("get_document", { id: "s" }));
      await holdMany(bob, "s", 50);
      const list = await fetch(`${pads.url}/api/suggestions/s`);
      const pending = (await list.json()).suggestions.length;
      // The pad server lists them when it keeps them; else none.
      assert.equal(pending, kept === "the pad server" ? 100 : 0);
    });
  });
}

Deno.test("two replicas on one Redis share the fair shares: alice's 50 on one replica, bob's on the other, and alice is refused on either", async () => {
  await using redis = await startRedis();
  await using pads = await startPadServer();
  await withTokens(async (file) => {
    const env = {
      RUSTPAD_URL: pads.url,
      RUSTPAD_MCP_TOKENS: file,
      RUSTPAD_STATE_URL: redis.url,
    };
    await using one = await spawnCli(env);
    await using two = await spawnCli(env);
    await using alice = await connectHttp(one.url, { token: ALICE });
    await using aliceToo = await connectHttp(two.url, { token: ALICE });
    await using bob = await connectHttp(two.url, { token: BOB });
    structured(await alice.call("append_to_document", { id: "r", text: "." }));
    await holdMany(alice, "r", 50);
    structured(await aliceToo.call("get_document", { id: "r" }));
    const refused = errorOf(
      await aliceToo.call("append_to_document", {
        id: "r",
        text: "one more",
        suggest: true,
      }),
    );
    assert.match(refused, /current share is 50 of the 100 pending per pad/);
    structured(await bob.call("get_document", { id: "r" }));
    await holdMany(bob, "r", 50);
  });
});
