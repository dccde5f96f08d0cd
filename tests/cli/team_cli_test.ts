// The team server as people run it: `mod.ts --http` with a file of named
// tokens and a real redis-server; what it does when either is wrong at
// start, and while Redis is away.

import assert from "node:assert/strict";
import { RustpadHttpClient, VERSION } from "../../src/mod.ts";
import { startPadServer } from "../../src/testing/mod.ts";
import { connectHttp, spawnCli } from "../_http.ts";
import { RawPerson } from "../_person.ts";
import { startRedis } from "../_redis.ts";
import { errorOf, structured, waitFor } from "../_mcp.ts";
import { runMod } from "./_run.ts";

const ALICE = "alice-token-0123456789-abcdefghijklmnop";
const BOB = "bob-token-0123456789-abcdefghijklmnopqrs";

/**
 * `mod.ts --http` on loopback with `env`, run to its exit; RUSTPAD_URL is
 * set (nothing listens on port 9), so its absence adds no notice.
 */
function run(
  env: Record<string, string>,
): Promise<{ code: number; stderr: string }> {
  return runMod(["--http", "127.0.0.1:0"], {
    RUSTPAD_URL: "http://127.0.0.1:9",
    ...env,
  });
}

async function tokenFile(text: string): Promise<string> {
  const file = await Deno.makeTempFile({ prefix: "tokens-" });
  await Deno.writeTextFile(file, text);
  return file;
}

Deno.test("mod.ts --http exits 2 at once with one line when Redis refuses the connection at start, long before the timeout", async () => {
  await using redis = await startRedis();
  await redis.stop();
  const started = performance.now();
  const output = await run({
    RUSTPAD_STATE_URL:
      `redis://:never-shown-password@127.0.0.1:${redis.port}/0`,
    RUSTPAD_TIMEOUT_MS: "60000",
  });
  const tookMs = performance.now() - started;
  const stderr = output.stderr;
  assert.equal(output.code, 2);
  // Not a speed figure: a retry until the 60 s timeout would be 60 s.
  assert.ok(tookMs < 30_000, `exited after ${Math.round(tookMs)} ms`);
  assert.equal(stderr.trim().split("\n").length, 1, stderr);
  assert.match(
    stderr,
    new RegExp(
      `^rustpad-mcp: Cannot start as Redis at redis://127\\.0\\.0\\.1:${redis.port}/0 \\(RUSTPAD_STATE_URL\\) refused the connection`,
    ),
  );
  assert.ok(!stderr.includes("never-shown-password"));
});

Deno.test("mod.ts --http exits 2 with one line naming the line of a bad token file, never a token", async () => {
  const file = await tokenFile(`# team\nalice ${ALICE}\nbob ${ALICE}\n`);
  try {
    const output = await run({ RUSTPAD_MCP_TOKENS: file });
    const stderr = output.stderr;
    assert.equal(output.code, 2);
    assert.equal(stderr.trim().split("\n").length, 1, stderr);
    assert.match(
      stderr,
      /^rustpad-mcp: RUSTPAD_MCP_TOKENS file ".*" line 3 is not accepted: the token of bob is already used/,
    );
    assert.ok(!stderr.includes(ALICE));
  } finally {
    await Deno.remove(file);
  }
});

Deno.test("two named identities on one replica with Redis: the pad shows two collaborators by name, and each undo takes back only its own edits", async () => {
  await using pads = await startPadServer();
  await using redis = await startRedis();
  const file = await tokenFile(`alice ${ALICE}\nbob ${BOB}\n`);
  try {
    await using cli = await spawnCli({
      RUSTPAD_URL: pads.url,
      RUSTPAD_MCP_TOKENS: file,
      RUSTPAD_STATE_URL: redis.url,
    });
    assert.match(cli.stderr(), /2 named identities/);
    await using person = await RawPerson.open(pads.url, "pair");
    await using alice = await connectHttp(cli.url, { token: ALICE });
    await using bob = await connectHttp(cli.url, { token: BOB });
    const http = new RustpadHttpClient(pads.url);
    structured(
      await alice.call("append_to_document", { id: "pair", text: "a1 " }),
    );
    structured(
      await bob.call("append_to_document", { id: "pair", text: "b1 " }),
    );
    structured(
      await alice.call("append_to_document", { id: "pair", text: "a2 " }),
    );
    structured(
      await bob.call("append_to_document", { id: "pair", text: "b2 " }),
    );
    assert.equal(await http.getText("pair"), "a1 b1 a2 b2 ");
    await waitFor(() => {
      const named = new Set(
        person.frames.map((frame) => JSON.parse(frame))
          .map((message) => message.UserInfo?.info?.name),
      );
      return named.has("rustpad-mcp (alice)") && named.has("rustpad-mcp (bob)");
    }, "both collaborators to be announced by name");
    structured(await alice.call("undo_last_edit", { id: "pair" }));
    assert.equal(await http.getText("pair"), "a1 b1 b2 ");
    structured(await bob.call("undo_last_edit", { id: "pair" }));
    assert.equal(await http.getText("pair"), "a1 b1 ");
    structured(await bob.call("undo_last_edit", { id: "pair" }));
    assert.equal(await http.getText("pair"), "a1 ");
    // Without the token, or with another's, nothing is served.
    const anonymous = await fetch(cli.url, { method: "POST", body: "{}" });
    assert.equal(anonymous.status, 401);
    await anonymous.body?.cancel();
  } finally {
    await Deno.remove(file);
  }
});

Deno.test("while Redis is down, /healthz reports it, a write that needs Redis fails changing nothing, other writes and reads work; then it recovers", async () => {
  await using pads = await startPadServer();
  await using redis = await startRedis();
  await using cli = await spawnCli({
    RUSTPAD_URL: pads.url,
    RUSTPAD_STATE_URL: redis.url,
    RUSTPAD_TIMEOUT_MS: "1000",
  });
  // Rustpad's own status (the probe's) is another test's.
  const health = async () => {
    const response = await fetch(new URL("/healthz", cli.url));
    const { rustpad: _, ...body } = await response.json();
    return { status: response.status, body };
  };
  assert.deepEqual(await health(), {
    status: 200,
    body: { status: "ok", version: VERSION, state: "ok" },
  });
  await using agent = await connectHttp(cli.url);
  structured(await agent.call("append_to_document", { id: "down", text: "a" }));
  structured(
    await agent.call("append_to_document", { id: "token-down", text: "old" }),
  );
  const ask = structured(
    await agent.call("set_document", { id: "token-down", text: "new" }),
  );
  assert.equal(ask.status, "confirmation_required");
  const confirm = {
    id: "token-down",
    text: "new",
    confirm_token: ask.confirm_token,
  };
  await redis.stop();
  await waitFor(
    async () => (await health()).status === 503,
    "/healthz to report Redis down",
  );
  await waitFor(
    () =>
      /Redis at redis:\/\/127\.0\.0\.1:\d+\/0 \(RUSTPAD_STATE_URL\) is unreachable/
        .test(cli.stderr()),
    "one line on stderr saying Redis went away",
  );
  assert.deepEqual(await health(), {
    status: 503,
    body: { status: "degraded", version: VERSION, state: "unreachable" },
  });
  const keyed = await agent.call("append_to_document", {
    id: "down",
    text: "b",
    idempotency_key: "k",
  });
  assert.match(
    errorOf(keyed),
    /^Cannot run the call with idempotency_key as the shared state \(Redis at redis:\/\/127\.0\.0\.1:\d+\/0, RUSTPAD_STATE_URL\) is unreachable: nothing was changed/,
  );
  assert.equal(pads.text("down"), "a");
  assert.match(
    errorOf(await agent.call("set_document", confirm)),
    /^Cannot redeem confirm_token as the shared state .* is unreachable: nothing was changed/,
  );
  assert.equal(pads.text("token-down"), "old");
  structured(await agent.call("append_to_document", { id: "down", text: "c" }));
  const read = structured(await agent.call("get_document", { id: "down" }));
  assert.equal(read.text, "ac");
  await redis.start();
  await waitFor(
    async () => (await health()).status === 200,
    "/healthz to recover",
  );
  await waitFor(
    () => /\(RUSTPAD_STATE_URL\) is back/.test(cli.stderr()),
    "one line on stderr saying Redis is back",
  );
  assert.equal(cli.stderr().match(/is unreachable/g)?.length, 1, cli.stderr());
  const retried = structured(
    await agent.call("append_to_document", {
      id: "down",
      text: "b",
      idempotency_key: "k",
    }),
  );
  assert.equal(retried.status, "applied");
  assert.equal(pads.text("down"), "acb");
  // The token was not used up while Redis was away.
  assert.equal(
    structured(await agent.call("set_document", confirm)).status,
    "applied",
  );
  assert.equal(pads.text("token-down"), "new");
});
