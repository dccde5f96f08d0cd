import assert from "node:assert/strict";
import {
  applyClient,
  applyServer,
  serverAck,
  synchronized,
  TextOperation,
} from "../../src/mod.ts";

const op = (value: unknown): TextOperation => TextOperation.fromJSON(value);

Deno.test("`applyClient()` sends from Synchronized and buffers while awaiting", () => {
  const first = applyClient(synchronized(4), op([3, "a"]));
  assert.equal(first.state.kind, "awaitingConfirm");
  assert.deepEqual(first.send?.operation.toJSON(), [3, "a"]);
  assert.equal(first.send?.revision, 4);

  const second = applyClient(first.state, op([4, "b"]));
  assert.equal(second.state.kind, "awaitingWithBuffer");
  assert.equal(second.send, undefined);

  const third = applyClient(second.state, op([5, "c"]));
  assert.equal(third.send, undefined);
  assert.ok(third.state.kind === "awaitingWithBuffer");
  assert.deepEqual(third.state.buffer.toJSON(), [4, "bc"]);
});

Deno.test("`serverAck()` sends the buffer, then returns to Synchronized", () => {
  let state = applyClient(synchronized(0), op(["a"])).state;
  state = applyClient(state, op([1, "b"])).state;
  const acked = serverAck(state);
  assert.equal(acked.state.kind, "awaitingConfirm");
  assert.equal(acked.send?.revision, 1);
  assert.deepEqual(acked.send?.operation.toJSON(), [1, "b"]);
  assert.deepEqual(serverAck(acked.state).state, synchronized(2));
});

Deno.test("`serverAck()` throws when nothing is in flight", () => {
  assert.throws(() => serverAck(synchronized(3)), /no edit is in flight/);
});

Deno.test("`applyServer()` transforms our pending operations first, as the server does", () => {
  // We inserted "B" at 5 and "C" after it; someone else inserted "A" at 5.
  let state = applyClient(synchronized(1), op([5, "B"])).state;
  state = applyClient(state, op([6, "C"])).state;
  const { state: next, apply } = applyServer(state, op([5, "A"]));
  assert.equal(next.revision, 2);
  // Locally: "helloBC" + their "A" after our inserts, where the server puts it.
  assert.equal(apply.apply("helloBC"), "helloBCA");
  assert.ok(next.kind === "awaitingWithBuffer");
  assert.equal(next.outstanding.apply(op([5, "A"]).apply("hello")), "helloBA");
  // Both paths reach the same text: ours then theirs, theirs then ours.
  assert.equal(
    next.buffer.apply(next.outstanding.apply("helloA")),
    apply.apply("helloBC"),
  );
});

Deno.test("`applyServer()` in Synchronized applies the operation as it is", () => {
  const incoming = op([2, -1]);
  const { state, apply } = applyServer(synchronized(7), incoming);
  assert.deepEqual(state, synchronized(8));
  assert.equal(apply, incoming);
});
