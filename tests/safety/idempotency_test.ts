import assert from "node:assert/strict";
import {
  fingerprint,
  IdempotencyKeyReusedError,
  IdempotencyStore,
} from "../../src/safety/idempotency.ts";

Deno.test("a second call with the same key waits for the first, still running, and gets its value", async () => {
  const store = new IdempotencyStore();
  const gate = Promise.withResolvers<string>();
  let runs = 0;
  const work = () => {
    runs++;
    return gate.promise;
  };
  const first = store.run("k", "f", work);
  const second = store.run("k", "f", work);
  gate.resolve("done");
  assert.deepEqual(await first, { value: "done", replayed: false });
  assert.deepEqual(await second, { value: "done", replayed: true });
  assert.equal(runs, 1);
});

Deno.test("the same key with another fingerprint is refused", async () => {
  const store = new IdempotencyStore();
  await store.run("k", "f", () => Promise.resolve(1));
  await assert.rejects(
    store.run("k", "g", () => Promise.resolve(2)),
    IdempotencyKeyReusedError,
  );
});

Deno.test("an outcome not kept lets the key run again", async () => {
  const store = new IdempotencyStore();
  let runs = 0;
  const work = () => Promise.reject(new Error(`run ${++runs}`));
  const keep = () => false;
  await assert.rejects(store.run("k", "f", work, keep), /run 1/);
  await assert.rejects(store.run("k", "f", work, keep), /run 2/);
});

Deno.test("keys expire after their lifetime and the oldest go past capacity", async () => {
  let now = 0;
  const store = new IdempotencyStore({
    capacity: 2,
    ttlMs: 100,
    now: () => now,
  });
  let runs = 0;
  const work = () => Promise.resolve(++runs);
  await store.run("a", "f", work);
  now = 100;
  assert.deepEqual(await store.run("a", "f", work), {
    value: 2,
    replayed: false,
  });
  await store.run("b", "f", work);
  await store.run("c", "f", work);
  assert.equal(store.size, 2);
  assert.deepEqual(await store.run("a", "f", work), {
    value: 5,
    replayed: false,
  });
});

Deno.test("fingerprints ignore key order and undefined properties", async () => {
  assert.equal(
    await fingerprint({ b: 1, a: [1, { y: 2, x: undefined }] }),
    await fingerprint({ a: [1, { y: 2 }], b: 1 }),
  );
  assert.notEqual(await fingerprint({ a: 1 }), await fingerprint({ a: 2 }));
});
