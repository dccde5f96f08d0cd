// The Redis state store against a real redis-server: two stores on one
// Redis stand for two replicas.

import assert from "node:assert/strict";
import { openStateStore } from "../../src/backend/open_state.ts";
import {
  type SentEdit,
  StateUnreachableError,
} from "../../src/backend/state_store.ts";
import { IdempotencyKeyReusedError } from "../../src/safety/idempotency.ts";
import { startRedis } from "../_redis.ts";
import { waitFor } from "../_wait.ts";

const RUSTPAD = new URL("http://127.0.0.1:3030/");

function open(url: string, timeoutMs = 1000) {
  return openStateStore({ url: new URL(url), timeoutMs, rustpadUrl: RUSTPAD });
}

const never = () => Promise.resolve(undefined);
const keepAll = { keep: () => true, settle: never, waitMs: 5000 };

Deno.test("Redis: of two replicas redeeming one token at once, exactly one succeeds", async () => {
  await using redis = await startRedis();
  await using a = await open(redis.url);
  await using b = await open(redis.url);
  assert.equal(a.kind, "redis");
  assert.equal(a.health(), "ok");
  for (let trial = 0; trial < 20; trial++) {
    const nonce = `nonce-${trial}`;
    const expires = Date.now() + 60_000;
    const results = await Promise.all([
      a.usedTokens.use(nonce, expires),
      b.usedTokens.use(nonce, expires),
    ]);
    assert.deepEqual(results.filter(Boolean).length, 1, `trial ${trial}`);
    assert.equal(await a.usedTokens.has(nonce), true);
  }
});

Deno.test("Redis: a retry on another replica while the first call runs waits for its result; another fingerprint is refused", async () => {
  await using redis = await startRedis();
  await using a = await open(redis.url);
  await using b = await open(redis.url);
  const release = Promise.withResolvers<void>();
  let runs = 0;
  const work = async () => {
    runs++;
    await release.promise;
    return { answer: 42 };
  };
  const first = a.idempotency.run("alice", "k", "print", work, keepAll);
  await waitFor(() => runs === 1, "the first call to start");
  const retry = b.idempotency.run("alice", "k", "print", work, keepAll);
  await assert.rejects(
    b.idempotency.run("alice", "k", "other", work, keepAll),
    IdempotencyKeyReusedError,
  );
  release.resolve();
  assert.deepEqual(await first, { value: { answer: 42 }, replayed: false });
  assert.deepEqual(await retry, { value: { answer: 42 }, replayed: true });
  // Another identity's key of the same name is its own.
  const bob = await b.idempotency.run("bob", "k", "print", work, keepAll);
  assert.equal(bob.replayed, false);
  assert.equal(runs, 2);
});

Deno.test("Redis: a call whose replica stopped after recording its send is settled by the retry; one that never sent runs again", async () => {
  await using redis = await startRedis();
  const b = await open(redis.url);
  const sent: SentEdit = { pad: "notes", userId: 7, revision: 3 };
  for (const landed of [true, false]) {
    // Replica A claims the key, records where its edit goes, then dies:
    // its lease is no longer renewed.
    const a = await open(redis.url, 300);
    const key = `k-${landed}`;
    const started = Promise.withResolvers<void>();
    void a.idempotency.run("alice", key, "print", async (call) => {
      await call.sending(sent);
      started.resolve();
      return await new Promise<never>(() => {});
    }, keepAll).catch(() => {});
    await started.promise;
    await a.close();
    const settled: SentEdit[] = [];
    let ran = 0;
    const outcome = await b.idempotency.run(
      "alice",
      key,
      "print",
      () => Promise.resolve(++ran),
      {
        keep: () => true,
        settle: (edit) => {
          settled.push(edit);
          return Promise.resolve(landed ? -1 : undefined);
        },
        waitMs: 5000,
      },
    );
    assert.deepEqual(settled, [sent]);
    assert.deepEqual(
      outcome,
      landed ? { value: -1, replayed: true } : { value: 1, replayed: false },
    );
    assert.equal(ran, landed ? 0 : 1);
  }
  await b.close();
});

Deno.test("Redis: author records written by one replica are learnt by another", async () => {
  await using redis = await startRedis();
  await using a = await open(redis.url);
  await using b = await open(redis.url);
  a.authors.record("notes", 5, "alice");
  await waitFor(async () => {
    await b.authors.learn("notes", [5, 6]);
    return b.authors.identityOf("notes", 5) === "alice";
  }, "the record to reach the other replica");
  assert.equal(b.authors.identityOf("notes", 6), undefined);
  assert.equal(b.authors.identityOf("other", 5), undefined);
});

Deno.test("Redis: while it is down, what needs it fails as unreachable and health says so; it recovers when Redis is back", async () => {
  await using redis = await startRedis();
  await using state = await open(redis.url);
  await redis.stop();
  await waitFor(() => state.health() === "unreachable", "health to drop");
  await assert.rejects(
    Promise.resolve(state.usedTokens.use("n", Date.now() + 1000)),
    (error: Error) =>
      error instanceof StateUnreachableError &&
      /^Cannot redeem confirm_token as the shared state \(Redis at redis:\/\/127\.0\.0\.1:\d+\/0, RUSTPAD_STATE_URL\) is unreachable: nothing was changed/
        .test(error.message),
  );
  let ran = false;
  await assert.rejects(
    state.idempotency.run("", "k", "p", () => {
      ran = true;
      return Promise.resolve(1);
    }, keepAll),
    StateUnreachableError,
  );
  assert.equal(ran, false);
  await redis.start();
  await waitFor(() => state.health() === "ok", "health to come back");
  assert.equal(await state.usedTokens.use("n", Date.now() + 1000), true);
});

Deno.test("Redis: opening a store where nothing answers fails within the timeout", async () => {
  await using redis = await startRedis();
  await redis.stop();
  await assert.rejects(
    open(redis.url, 300),
    (error: Error) =>
      error instanceof StateUnreachableError &&
      error.location === `redis://127.0.0.1:${redis.port}/0`,
  );
});
