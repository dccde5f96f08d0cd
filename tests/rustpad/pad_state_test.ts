import assert from "node:assert/strict";
import { PadState, type SessionEvent, TextOperation } from "../../src/mod.ts";

const op = (json: (string | number)[]) => TextOperation.fromJSON(json);

function history(
  state: PadState,
  start: number,
  ...ops: [number, (string | number)[]][]
): void {
  state.receive(
    {
      History: {
        start,
        operations: ops.map(([id, json]) => ({ id, operation: op(json) })),
      },
    },
    0,
    () => {},
  );
}

Deno.test("`PadState.rebase()` lands an edit made against an old revision where its target was", () => {
  const state = new PadState();
  history(state, 0, [1, ["line one\nline two\n"]]);
  // A person inserts at the start after revision 1.
  history(state, 1, [1, ["NEW ", 18]]);
  const atOne = op([5, -3, "1", 10]); // "one" -> "1" in the text at revision 1
  const rebased = state.rebase(atOne, 1);
  assert.equal(rebased.apply(state.text), "NEW line 1\nline two\n");
});

Deno.test("`PadState.rebase()` goes over our own pending edit too", () => {
  const state = new PadState();
  history(state, 0, [1, ["abc"]]);
  state.applyLocal(op([3, "!"]));
  assert.equal(state.text, "abc!");
  assert.equal(state.serverText, "abc");
  const rebased = state.rebase(op(["<", 3]), 1);
  assert.equal(rebased.apply(state.text), "<abc!");
});

Deno.test("`PadState.rebase()` refuses an operation that does not fit the base text", () => {
  const state = new PadState();
  history(state, 0, [1, ["abc"]], [1, [3, "d"]]);
  assert.throws(() => state.rebase(op([4, "x"]), 1), /length then was 3/);
});

Deno.test("`PadState` keeps the server text apart from our unacknowledged edit", () => {
  const state = new PadState();
  history(state, 0, [1, ["xy"]]);
  const send = state.applyLocal(op([2, "z"]));
  assert.equal(send?.revision, 1);
  history(state, 1, [1, ["a", 2]]);
  assert.equal(state.text, "axyz");
  assert.equal(state.serverText, "axy");
  let acked = 0;
  state.receive(
    { History: { start: 2, operations: [{ id: 0, operation: op([3, "z"]) }] } },
    0,
    () => acked++,
  );
  assert.equal(acked, 1);
  assert.equal(state.serverText, "axyz");
  assert.equal(state.textAt(2), "axy");
  assert.deepEqual(state.operationsSince(2).map((entry) => entry.author), [0]);
});

Deno.test("`PadState.subscribe()` tells listeners of operations, people, cursors and the end", async () => {
  const state = new PadState();
  const events: SessionEvent[] = [];
  const unsubscribe = state.subscribe((event) => events.push(event));
  history(state, 0, [3, ["hi"]]);
  state.receive(
    { UserInfo: { id: 3, info: { name: "Ann", hue: 1 } } },
    0,
    () => {},
  );
  state.receive(
    { UserCursor: { id: 3, data: { cursors: [1], selections: [] } } },
    0,
    () => {},
  );
  state.receive({ Language: "python" }, 0, () => {});
  state.end(undefined);
  await Promise.resolve();
  assert.deepEqual(events.map((event) => event.type), [
    "operation",
    "users",
    "cursor",
    "language",
    "closed",
  ]);
  const first = events[0];
  assert.ok(
    first?.type === "operation" && first.entry.revision === 0 &&
      first.entry.author === 3,
  );
  unsubscribe();
});

Deno.test("`PadState.subscribe()` stops after unsubscribe and survives a throwing listener", async () => {
  const state = new PadState();
  const seen: number[] = [];
  state.subscribe(() => {
    throw new Error("listener bug");
  });
  const unsubscribe = state.subscribe((event) => {
    if (event.type === "operation") seen.push(event.entry.revision);
  });
  history(state, 0, [3, ["a"]]);
  await Promise.resolve();
  unsubscribe();
  history(state, 1, [3, [1, "b"]]);
  await Promise.resolve();
  assert.deepEqual(seen, [0]);
  assert.equal(state.text, "ab");
});

Deno.test("`PadState` cuts names and the language past 64 code points, marking them, and keeps 16 cursors and 16 selections", () => {
  const state = new PadState();
  const exact = "é".repeat(64);
  state.receive(
    { UserInfo: { id: 1, info: { name: exact, hue: 1 } } },
    0,
    () => {},
  );
  state.receive(
    { UserInfo: { id: 2, info: { name: "😀".repeat(100_000), hue: 2 } } },
    0,
    () => {},
  );
  assert.deepEqual(state.users.get(1), {
    name: exact,
    hue: 1,
    nameTruncated: false,
  });
  assert.deepEqual(state.users.get(2), {
    name: `${"😀".repeat(63)}…`,
    hue: 2,
    nameTruncated: true,
  });
  state.receive({ Language: "m".repeat(65) }, 0, () => {});
  assert.equal(state.language, `${"m".repeat(63)}…`);
  assert.equal(state.languageTruncated, true);
  state.receive({ Language: "rust" }, 0, () => {});
  assert.equal(state.languageTruncated, false);
  const many = Array.from({ length: 1000 }, (_, i) => i);
  state.receive(
    {
      UserCursor: {
        id: 2,
        data: { cursors: many, selections: many.map((i) => [i, i]) },
      },
    },
    0,
    () => {},
  );
  const kept = state.cursors.get(2);
  assert.deepEqual(kept?.cursors, many.slice(0, 16));
  assert.equal(kept?.selections.length, 16);
});
