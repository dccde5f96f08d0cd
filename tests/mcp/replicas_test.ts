// Two replicas of the team server (`mod.ts --http` processes) on one Redis
// and one pad server, as behind a load balancer: a confirm_token redeemed
// on both at once applies once; a retry that reaches the other replica,
// while the first call runs or after its replica was killed, lands once.
// Pad text is checked over Rustpad's HTTP API.

import assert from "node:assert/strict";
// @ts-types="@modelcontextprotocol/sdk/types"
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { RustpadHttpClient } from "../../src/mod.ts";
import { startPadServer } from "../../src/testing/mod.ts";
import { type CliServer, connectHttp, spawnCli } from "../_http.ts";
import { startRedis } from "../_redis.ts";
import { structured, waitFor } from "../_mcp.ts";

const SECRET = "replicas-share-this-secret-0123456789abcdef";

function replicaEnv(
  pads: string,
  redis: string,
  extra: Record<string, string> = {},
): Record<string, string> {
  return {
    RUSTPAD_URL: pads,
    RUSTPAD_CONFIRM_SECRET: SECRET,
    RUSTPAD_STATE_URL: redis,
    ...extra,
  };
}

function errorText(result: CallToolResult): string {
  assert.equal(result.isError, true, JSON.stringify(result));
  return (result.content[0] as { text: string }).text;
}

Deno.test("replicas: one confirm_token redeemed on both at once applies exactly once, 20 trials out of 20", async () => {
  await using pads = await startPadServer();
  await using redis = await startRedis();
  await using a = await spawnCli(replicaEnv(pads.url, redis.url));
  await using b = await spawnCli(replicaEnv(pads.url, redis.url));
  await using onA = await connectHttp(a.url);
  await using onB = await connectHttp(b.url);
  const http = new RustpadHttpClient(pads.url);
  const trials = 20;
  let applied = 0;
  let refused = 0;
  for (let trial = 0; trial < trials; trial++) {
    const id = `race-${trial}`;
    structured(await onA.call("append_to_document", { id, text: "x x" }));
    const args = { id, search: "x", replace: "xx", replace_all: true };
    const asked = structured(await onA.call("replace_in_document", args));
    assert.equal(asked.status, "confirmation_required");
    const token = asked.confirm_token as string;
    const results = await Promise.all([
      onA.call("replace_in_document", { ...args, confirm_token: token }),
      onB.call("replace_in_document", { ...args, confirm_token: token }),
    ]);
    const done = results.filter((result) =>
      !result.isError &&
      (result.structuredContent as { status?: string }).status === "applied"
    );
    const used = results.filter((result) =>
      result.isError && /already been used/.test(errorText(result))
    );
    assert.equal(done.length, 1, `trial ${trial}: ${JSON.stringify(results)}`);
    assert.equal(used.length, 1, `trial ${trial}: ${JSON.stringify(results)}`);
    applied += done.length;
    refused += used.length;
    assert.equal(await http.getText(id), "xx xx", `trial ${trial}`);
  }
  console.error(
    `token race: ${trials} trials, ${applied} applied, ${refused} refused as used`,
  );
  assert.equal(applied, trials);
  assert.equal(refused, trials);
});

Deno.test("replicas: the same idempotency_key sent to B while A's call is in flight lands once, with equal answers", async () => {
  await using pads = await startPadServer();
  await using redis = await startRedis();
  // Every write asks first, so A's call stays in flight in its dialog.
  const env = replicaEnv(pads.url, redis.url, { RUSTPAD_CONFIRM: "always" });
  await using a = await spawnCli(env);
  await using b = await spawnCli(env);
  const asked = Promise.withResolvers<void>();
  const answer = Promise.withResolvers<void>();
  await using onA = await connectHttp(a.url, {
    elicit: async () => {
      asked.resolve();
      await answer.promise;
      return { action: "accept", content: { confirm: true } };
    },
  });
  await using onB = await connectHttp(b.url);
  const args = { id: "inflight", text: "once", idempotency_key: "k-1" };
  const first = onA.call("append_to_document", args);
  await asked.promise;
  const retry = onB.call("append_to_document", args);
  // B waits for A's result instead of running (it would ask, and it has no
  // dialog, so it would answer confirmation_required).
  await new Promise((resolve) => setTimeout(resolve, 300));
  answer.resolve();
  const [firstResult, retryResult] = await Promise.all([first, retry]);
  const fromA = structured(firstResult);
  const fromB = structured(retryResult);
  assert.equal(fromA.status, "applied");
  assert.equal(fromB.replayed, true);
  const { replayed: _, ...replayedAnswer } = fromB;
  assert.deepEqual(replayedAnswer, fromA);
  assert.equal(
    await new RustpadHttpClient(pads.url).getText("inflight"),
    "once",
  );
  console.error(
    `in-flight retry: first ${fromA.status} at revision ${fromA.revision}, retry replayed ${fromB.replayed} at revision ${fromB.revision}, pad "${await new RustpadHttpClient(
      pads.url,
    ).getText("inflight")}"`,
  );
});

// Each round starts a replica, most of this file's CPU: 30 in CI, kills 2 to
// 45 ms after the request in 15 of them; ROUNDS=200 for a longer run.
const ROUNDS = Number(Deno.env.get("ROUNDS") ?? 30);

Deno.test(`replicas: A killed with SIGKILL right after sending an edit, the retry sent to B lands exactly once, ${ROUNDS} rounds`, async () => {
  await using pads = await startPadServer();
  await using redis = await startRedis();
  // A short timeout: a killed replica's lease lapses after it.
  const env = replicaEnv(pads.url, redis.url, { RUSTPAD_TIMEOUT_MS: "500" });
  await using b = await spawnCli(env);
  await using onB = await connectHttp(b.url);
  const http = new RustpadHttpClient(pads.url);
  let landings = 0;
  let replayed = 0;
  let next: Promise<CliServer> = spawnCli(env);
  for (let round = 0; round < ROUNDS; round++) {
    const a = await next;
    // The next replica starts while this round runs.
    next = spawnCli(env);
    const id = `kill-${round}`;
    const args = { id, text: "once", idempotency_key: `key-${round}` };
    const onA = await connectHttp(a.url);
    // Even rounds: the edit lands and A dies before its acknowledgement;
    // odd rounds: A dies 0 to 48 ms after the request left (before its
    // claim, after it, after recording the send, after sending).
    const landsFirst = round % 2 === 0;
    if (landsFirst) pads.delayNextAck({ pad: id, ms: 10_000 });
    const sent = onA.call("append_to_document", args).catch(() => undefined);
    if (landsFirst) {
      await waitFor(() => pads.text(id) === "once", `round ${round} to land`);
    } else {
      await new Promise((resolve) => setTimeout(resolve, (round * 3) % 49));
    }
    a.process.kill("SIGKILL");
    await a.exited();
    // Closing the client ends the call it will never get an answer to.
    await onA.client.close().catch(() => {});
    await sent;
    const retried = structured(await onB.call("append_to_document", args));
    assert.equal(retried.status, "applied", `round ${round}`);
    if (retried.replayed === true) replayed++;
    const text = await http.getText(id);
    assert.equal(text, "once", `round ${round}`);
    if (text === "once") landings++;
  }
  await (await next)[Symbol.asyncDispose]();
  console.error(
    `SIGKILL: ${ROUNDS} rounds, ${landings} landed exactly once (the retry on B answered ${replayed} as replayed, ${
      ROUNDS - replayed
    } by running the call)`,
  );
  assert.equal(landings, ROUNDS);
});
