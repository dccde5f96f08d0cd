import assert from "node:assert/strict";
import { SearchQueue } from "../../src/text/search_queue.ts";

/**
 * A chain of `hops` microtasks that ends by pushing `mark` to `order`: a
 * search that runs in a microtask comes before its end, one that waits for
 * a timer after it.
 */
function microtaskChain(order: unknown[], mark: string, hops = 20): void {
  let left = hops;
  const hop = () => left-- > 0 ? queueMicrotask(hop) : order.push(mark);
  queueMicrotask(hop);
}

Deno.test("`SearchQueue` runs searches in order, a search that waited for another after a timer", async () => {
  const queue = new SearchQueue();
  const order: (number | string)[] = [];
  const runs = [1, 2, 3].map((n) =>
    queue.run(() => {
      order.push(n);
      if (n === 1) microtaskChain(order, "microtasks after 1");
    })
  );
  await Promise.all(runs);
  assert.deepEqual(order, [1, "microtasks after 1", 2, 3]);
});

Deno.test("`SearchQueue` runs a search asked for while none runs or waits at once", async () => {
  const queue = new SearchQueue();
  const order: (number | string)[] = [];
  await queue.run(() => order.push(1));
  microtaskChain(order, "microtasks");
  await queue.run(() => order.push(2));
  assert.deepEqual(order.slice(0, 2), [1, 2]);
});

Deno.test("`SearchQueue` makes a search wait for a timer after searches ran nearly back to back for over 10 ms", async () => {
  const queue = new SearchQueue();
  const order: (number | string)[] = [];
  await queue.run(() => {
    const start = performance.now();
    // 30 ms: a pause of the test process of up to 20 ms before the next
    // search still leaves more than 10 ms owed.
    while (performance.now() - start < 30) {
      // A long search.
    }
    order.push("long");
  });
  microtaskChain(order, "microtasks");
  await queue.run(() => order.push("next"));
  assert.deepEqual(order, ["long", "microtasks", "next"]);
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
