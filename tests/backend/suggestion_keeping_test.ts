import assert from "node:assert/strict";
import {
  ChosenSuggestions,
  PROBE_RETRY_MS,
  type Suggestions,
} from "../../src/backend/_suggestion_keeping.ts";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Suggestions that only note who subscribes to which pad. */
function noting(subscribed: string[]): Suggestions {
  return {
    onDecision(pad: string) {
      subscribed.push(pad);
      return () => {};
    },
    close() {},
  } as unknown as Suggestions;
}

Deno.test("a decision subscription made while the pad server cannot be probed subscribes once a later probe succeeds", async () => {
  let probes = 0;
  const subscribed: string[] = [];
  const book = new ChosenSuggestions(() => {
    probes++;
    return probes === 1
      ? Promise.reject(new Error("the pad server is not up"))
      : Promise.resolve(noting(subscribed));
  });
  const stop = book.onDecision("notes", () => {});
  await sleep(PROBE_RETRY_MS / 2);
  assert.deepEqual(subscribed, []);
  await sleep(PROBE_RETRY_MS);
  assert.deepEqual(subscribed, ["notes"]);
  assert.equal(probes, 2);
  stop();
  book.close();
});

Deno.test("a subscription stopped while its probe fails probes no more, nor does a closed book", async () => {
  let probes = 0;
  const book = new ChosenSuggestions(() => {
    probes++;
    return Promise.reject(new Error("the pad server is not up"));
  });
  const stop = book.onDecision("notes", () => {});
  await sleep(10);
  stop();
  const other = new ChosenSuggestions(() => {
    probes++;
    return Promise.reject(new Error("the pad server is not up"));
  });
  other.onDecision("notes", () => {});
  await sleep(10);
  other.close();
  await sleep(PROBE_RETRY_MS + 300);
  assert.equal(probes, 2);
  book.close();
});
