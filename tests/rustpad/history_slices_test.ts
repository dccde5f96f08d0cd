import assert from "node:assert/strict";
import { HistorySlices } from "../../src/rustpad/_history_slices.ts";
import { parseServerMessage } from "../../src/rustpad/protocol.ts";

const history = (start: number, operations: unknown[]): string =>
  JSON.stringify({ History: { start, operations } });

/** Every operation of a frame whose History starts at revision 5. */
function readAll(frame: string, count: number): unknown[] {
  const slices = HistorySlices.of(frame);
  assert.ok(slices, "the frame is sliceable");
  const operations: unknown[] = [];
  let expectedStart = 5;
  for (let slice = slices.next(count); slice; slice = slices.next(count)) {
    assert.equal(slice.start, expectedStart);
    const message = parseServerMessage(slice.frame);
    assert.ok("History" in message);
    assert.equal(message.History.start, slice.start);
    expectedStart += message.History.operations.length;
    operations.push(...message.History.operations.map((entry) => ({
      id: entry.id,
      operation: entry.operation.toJSON(),
    })));
  }
  return operations;
}

Deno.test("`HistorySlices` hands out every operation once, in order, whatever the slice size", () => {
  // Brackets and quotes inside strings, escapes, and the 2^64-1 id.
  const operations = [
    '{"id":1,"operation":["a \\"quoted\\" ]}, [brackets] {"]}',
    '{"id":2,"operation":[22,"\\\\",-1]}',
    '{"id":18446744073709551615,"operation":["🎉"]}',
    '{ "id" : 3 , "operation" : [ 24 , "x" ] }',
  ];
  const frame = `{"History":{"start":5,"operations":[${
    operations.join(" , ")
  }]}}`;
  const whole = parseServerMessage(frame);
  assert.ok("History" in whole);
  const expected = whole.History.operations.map((entry) => ({
    id: entry.id,
    operation: entry.operation.toJSON(),
  }));
  for (const count of [1, 2, 3, 10]) {
    assert.deepEqual(readAll(frame, count), expected);
  }
});

Deno.test("`HistorySlices` reads an empty history as no slice", () => {
  const slices = HistorySlices.of(history(0, []));
  assert.equal(slices?.next(10), undefined);
});

Deno.test("`HistorySlices` leaves frames of another shape to the whole parse", () => {
  assert.equal(HistorySlices.of('{"Identity":3}'), undefined);
  assert.equal(
    HistorySlices.of('{"History":{"operations":[],"start":0}}'),
    undefined,
  );
});

Deno.test("`HistorySlices` refuses a frame cut short", () => {
  const frame = history(0, [{ id: 1, operation: ["abc"] }, {
    id: 1,
    operation: [3, "d"],
  }]);
  const slices = HistorySlices.of(frame.slice(0, -10));
  assert.ok(slices);
  assert.throws(() => {
    while (slices.next(1));
  }, SyntaxError);
});

Deno.test("`HistorySlices` refuses trailing garbage after the operations", () => {
  const slices = HistorySlices.of(
    history(0, [{ id: 1, operation: ["a"] }]) + "x",
  );
  assert.ok(slices);
  assert.throws(() => slices.next(5), SyntaxError);
});
