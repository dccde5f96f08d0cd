// A history that arrives while nothing of ours is pending and no one
// listens is held unfolded: what a first call reads of it (length,
// revision) and what later reads fold in must be what folding each
// operation as it came gives.

import assert from "node:assert/strict";
import {
  DeferredInverses,
  PadState,
  type SessionEvent,
  TextOperation,
} from "../../src/mod.ts";
import { Random } from "../../src/ot/_random.ts";

/** A seeded history: a text with astral characters, then `count` edits. */
function makeHistory(count: number): TextOperation[] {
  const random = new Random(7);
  const alphabet = [..."abc \n", "é", "😀"];
  const operations = [TextOperation.fromJSON([random.text(300, alphabet)])];
  let length = operations[0]!.targetLength;
  for (let i = 0; i < count; i++) {
    const edit = random.edit(length, alphabet);
    operations.push(edit);
    length = edit.targetLength;
  }
  return operations;
}

function receive(
  state: PadState,
  start: number,
  operations: readonly TextOperation[],
): void {
  state.receive(
    {
      History: {
        start,
        operations: operations.map((operation, k) => ({
          id: 1 + (k % 3),
          operation,
        })),
      },
    },
    0,
    () => {},
  );
}

/** A state that folds each operation as it comes: it has a listener. */
function folding(): PadState {
  const state = new PadState();
  state.subscribe(() => {});
  return state;
}

/** `operations` received by a state that holds them and by one that folds. */
function heldAndFolded(
  operations: readonly TextOperation[],
): [held: PadState, eager: PadState] {
  const held = new PadState();
  const eager = folding();
  receive(held, 0, operations);
  receive(eager, 0, operations);
  return [held, eager];
}

Deno.test("`PadState` gives the length and revision of a held history, and folds it into the same text and log as each operation folded in turn", () => {
  const operations = makeHistory(400);
  const [held, eager] = heldAndFolded(operations);
  assert.equal(held.length, eager.length);
  assert.equal(held.serverLength, eager.serverLength);
  assert.equal(held.revision, operations.length);
  assert.equal(held.text, eager.text);
  assert.equal(held.oldestRevision, eager.oldestRevision);
  assert.equal(held.authorOf(200), eager.authorOf(200));
  assert.equal(held.textAt(150), eager.textAt(150));
  const heldLog = held.operationsSince(390);
  const eagerLog = eager.operationsSince(390);
  assert.deepEqual(
    heldLog.map((e) => [e.revision, e.author, e.inverse.toJSON()]),
    eagerLog.map((e) => [e.revision, e.author, e.inverse.toJSON()]),
  );
});

Deno.test("`PadState.operationDigest()` of a held history, asked before anything folds it, names each operation as the folded log does", () => {
  const operations = makeHistory(60);
  const [held, eager] = heldAndFolded(operations);
  for (const at of [operations.length - 1, 30, 0, operations.length]) {
    assert.equal(
      held.operationDigest(at),
      eager.operationDigest(at),
      `at ${at}`,
    );
  }
  assert.equal(held.operationDigest(operations.length), undefined);
  assert.equal(held.text, eager.text);
});

Deno.test("`PadState.receive()` refuses a history operation that does not fit, while it holds the history unfolded", () => {
  const state = new PadState();
  receive(state, 0, [TextOperation.fromJSON(["abc"])]);
  assert.throws(
    () => receive(state, 1, [TextOperation.fromJSON([5, "x"])]),
    RangeError,
  );
  assert.equal(state.revision, 1);
  assert.equal(state.text, "abc");
});

Deno.test("`PadState.subscribe()` after a held history tells of the next operation, with its revision and inverse, the held ones folded in before it", async () => {
  const operations = makeHistory(50);
  const state = new PadState();
  receive(state, 0, operations);
  const events: SessionEvent[] = [];
  state.subscribe((event) => events.push(event));
  const next = TextOperation.fromJSON(["<", state.length]);
  receive(state, operations.length, [next]);
  await Promise.resolve();
  assert.equal(events.length, 1);
  const event = events[0]!;
  assert.equal(event.type, "operation");
  if (event.type !== "operation") return;
  assert.equal(event.entry.revision, operations.length);
  assert.deepEqual(event.entry.inverse.toJSON(), [-1, state.length - 1]);
  assert.ok(state.text.startsWith("<"));
});

Deno.test("`PadState.applyLocal()` on a held history applies to the whole text", () => {
  const state = new PadState();
  receive(state, 0, [
    TextOperation.fromJSON(["hello"]),
    TextOperation.fromJSON([5, " world"]),
  ]);
  const send = state.applyLocal(TextOperation.fromJSON([11, "!"]));
  assert.equal(send?.revision, 2);
  assert.equal(state.text, "hello world!");
  assert.equal(state.serverText, "hello world");
});

Deno.test("`PadState` folds a held history without its inverses, makes them when an older text is read, and holds the text before at most one fold for them", () => {
  const operations = makeHistory(600);
  const [held, eager] = heldAndFolded(operations.slice(0, 300));
  // Which deferred inverses are made, and in what order.
  const made: DeferredInverses[] = [];
  const resolve = Object.getOwnPropertyDescriptor(
    DeferredInverses.prototype,
    "resolve",
  )!.value as DeferredInverses["resolve"];
  DeferredInverses.prototype.resolve = function (this: DeferredInverses) {
    if (!this.resolved) made.push(this);
    resolve.call(this);
  };
  try {
    assert.equal(held.text, eager.text);
    assert.equal(made.length, 0);
    receive(held, 300, operations.slice(300));
    receive(eager, 300, operations.slice(300));
    assert.equal(held.text, eager.text);
    // The second fold made the first one's, and deferred its own.
    assert.equal(made.length, 1);
    assert.equal(held.textAt(450), eager.textAt(450));
    assert.equal(made.length, 2);
    assert.notEqual(made[0], made[1]);
    assert.equal(held.textAt(250), eager.textAt(250));
    assert.equal(made.length, 2);
  } finally {
    DeferredInverses.prototype.resolve = resolve;
  }
});
