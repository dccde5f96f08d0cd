import assert from "node:assert/strict";
import { Coalescer } from "../../src/backend/coalescer.ts";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

Deno.test("Coalescer fires the first poke at once and a burst as one trailing fire", async () => {
  let fired = 0;
  const coalescer = new Coalescer(100, () => fired++);
  coalescer.poke();
  assert.equal(fired, 1);
  for (let i = 0; i < 10; i++) coalescer.poke();
  assert.equal(fired, 1);
  assert.equal(coalescer.pending, true);
  await sleep(150);
  assert.equal(fired, 2, "the last poke is never swallowed");
  await sleep(150);
  assert.equal(fired, 2);
  coalescer.close();
});

Deno.test("Coalescer drops a scheduled fire when closed", async () => {
  let fired = 0;
  const coalescer = new Coalescer(50, () => fired++);
  coalescer.poke();
  coalescer.poke();
  coalescer.close();
  await sleep(80);
  assert.equal(fired, 1);
  coalescer.poke();
  assert.equal(fired, 1);
});
