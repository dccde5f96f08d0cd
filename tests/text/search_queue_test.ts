import assert from "node:assert/strict";
import { SearchQueue } from "../../src/text/search_queue.ts";

Deno.test("`SearchQueue` runs searches in order, one per task, with other work in between", async () => {
  const queue = new SearchQueue();
  const order: (number | string)[] = [];
  const first = queue.run(() => order.push(1));
  setTimeout(() => order.push("other"), 0);
  const rest = [2, 3].map((n) => queue.run(() => order.push(n)));
  await Promise.all([first, ...rest]);
  assert.deepEqual(order, [1, "other", 2, 3]);
});

Deno.test("`SearchQueue` hands each search its own result or error", async () => {
  const queue = new SearchQueue();
  const failing = queue.run(() => {
    throw new SyntaxError("bad pattern");
  });
  const fine = queue.run(() => 42);
  await assert.rejects(failing, SyntaxError);
  assert.equal(await fine, 42);
});

Deno.test("`SearchQueue` refuses a search past the most that may wait, naming the count", async () => {
  const queue = new SearchQueue(2);
  const runs = [1, 2, 3].map((n) => queue.run(() => n));
  assert.equal(queue.waiting, 2);
  await assert.rejects(
    queue.run(() => 4),
    /Cannot search now as the most searches that may wait at once are waiting \(2\): current count is 2/,
  );
  assert.deepEqual(await Promise.all(runs), [1, 2, 3]);
});
