// The connection's lazily re-armed deadline: it fires once, at the last
// time it was set to, whether that moved later or earlier, and not at all
// once cleared or stopped.

import assert from "node:assert/strict";
import { Deadline } from "../../src/http/_deadline.ts";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

Deno.test("`Deadline.set()` fires once, no earlier than the last time it was set to, when moved later", async () => {
  const deadline = new Deadline();
  const started = performance.now();
  let fired = 0;
  let firedAt = 0;
  const fire = () => {
    fired++;
    firedAt = performance.now() - started;
  };
  deadline.set(30, fire);
  await sleep(10);
  deadline.set(60, fire);
  await sleep(120);
  assert.equal(fired, 1);
  assert.ok(firedAt >= 69, `fired after ${firedAt} ms`);
  deadline.stop();
});

Deno.test("`Deadline.set()` fires at the earlier time when moved earlier", async () => {
  const deadline = new Deadline();
  const fired: string[] = [];
  deadline.set(10_000, () => fired.push("late"));
  deadline.set(20, () => fired.push("early"));
  await sleep(80);
  assert.deepEqual(fired, ["early"]);
  deadline.stop();
});

Deno.test("`Deadline.clear()` keeps it from firing, and a later `set()` fires", async () => {
  const deadline = new Deadline();
  const fired: string[] = [];
  deadline.set(20, () => fired.push("cleared"));
  deadline.clear();
  await sleep(50);
  assert.equal(fired.length, 0);
  deadline.set(20, () => fired.push("set again"));
  await sleep(50);
  assert.deepEqual(fired, ["set again"]);
  deadline.stop();
});

Deno.test("`Deadline.stop()` cancels its timer and ignores later deadlines", async () => {
  const deadline = new Deadline();
  const fired: string[] = [];
  deadline.set(20, () => fired.push("stopped"));
  deadline.stop();
  deadline.set(10, () => fired.push("after stop"));
  await sleep(50);
  assert.deepEqual(fired, []);
});
