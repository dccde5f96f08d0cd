import assert from "node:assert/strict";
import { TextOperation } from "../../src/ot/operation.ts";
import { TextBuffer } from "../../src/ot/text_buffer.ts";
import { CHUNK_SIZE, chunksOf } from "../../src/ot/_chunks.ts";
import { foldOperations } from "../../src/ot/_code_point_fold.ts";
import { insertedUnits } from "../../src/ot/component.ts";
import { cpLength, FAMILY, property, Random } from "../_random.ts";

/** Single code points, astral and not, so a text's length is as drawn. */
const SINGLE = ["🎉", "😀", "é", "x", "\n", "\u200d"];
const ASTRAL = [...SINGLE, FAMILY];

/** Apply `history` one by one: the text and the inverses, as JSON. */
function oneByOne(
  text: string,
  history: readonly TextOperation[],
): { text: string; inverses: unknown[] } {
  const buffer = new TextBuffer(text);
  const inverses = history.map((op) => buffer.applyAndInvert(op).toJSON());
  return { text: buffer.toString(), inverses };
}

/** A history of `count` operations on `text`, mixed as people edit. */
function history(random: Random, text: string, count: number): TextOperation[] {
  const operations: TextOperation[] = [];
  let length = cpLength(text);
  for (let i = 0; i < count; i++) {
    const op = random.int(3) === 0
      ? random.sparse(length, random.between(1, 4), 8)
      : random.edit(length, ASTRAL);
    operations.push(op);
    length = op.targetLength;
  }
  return operations;
}

Deno.test("`applyAllDeferringInverses()` gives the text at once and, on first use, the inverses `applyAndInvert()` gives one by one; what each deletes in UTF-16 units is known before", () => {
  property(21, (random, where) => {
    const initial = random.text(random.between(0, 3000), ASTRAL);
    const operations = history(random, initial, random.between(1, 700));
    const buffer = new TextBuffer(initial);
    const deferred = buffer.applyAllDeferringInverses(operations);
    const expected = oneByOne(initial, operations);
    assert.equal(buffer.toString(), expected.text, where);
    assert.equal(buffer.length, cpLength(expected.text), where);
    // Only a list long enough for the fold defers them.
    const folds = operations.length >= 256 &&
      operations.length * 64 >=
        initial.length +
          operations.reduce((sum, op) => sum + insertedUnits(op.components), 0);
    assert.equal(deferred.resolved, !folds, where);
    assert.deepEqual(
      deferred.deletedUnits,
      expected.inverses.map((json) =>
        insertedUnits(TextOperation.fromJSON(json).components)
      ),
      where,
    );
    // Later edits to the buffer do not change what the inverses are made of.
    const undoLater = buffer.applyAndInvert(
      new TextOperation().insert("later").retain(buffer.length),
    );
    const inverses = operations.map((_, i) => deferred.at(i));
    assert.deepEqual(inverses.map((op) => op.toJSON()), expected.inverses);
    assert.equal(deferred.resolved, true);
    assert.throws(() => deferred.at(operations.length), /no such operation/);
    // The fold itself, whichever way the buffer chose for this many.
    const folded = foldOperations(chunksOf(initial), operations, true);
    assert.equal(folded.chunks.map((c) => c.text).join(""), expected.text);
    assert.deepEqual(
      folded.inverses.map((op) => op.toJSON()),
      expected.inverses,
    );
    // The inverses, newest first, take the text back to where it was.
    buffer.apply(undoLater);
    for (let i = inverses.length - 1; i >= 0; i--) buffer.apply(inverses[i]!);
    assert.equal(buffer.toString(), initial, where);
  }, 12);
});

Deno.test("a fold splits and empties blocks for inserts and deletes of many thousand code points", () => {
  const random = new Random(5);
  const initial = random.text(20_000, SINGLE);
  const big = random.text(12_000, SINGLE);
  const operations = [
    new TextOperation().retain(9_000).insert(big).retain(11_000),
    new TextOperation().retain(100).delete(25_000).retain(6_900),
    new TextOperation().retain(7_000).insert("end🎉"),
    new TextOperation().insert(big).retain(7_004),
    new TextOperation().delete(19_004),
    new TextOperation().insert("a😀b"),
  ];
  const expected = oneByOne(initial, operations);
  const folded = foldOperations(chunksOf(initial), operations, true);
  assert.deepEqual(folded.inverses.map((op) => op.toJSON()), expected.inverses);
  assert.equal(folded.chunks.map((chunk) => chunk.text).join(""), "a😀b");
  // Midway, where the text is long: chunks as a buffer keeps them.
  const midway = foldOperations(
    chunksOf(initial),
    operations.slice(0, 4),
    false,
  );
  const text = oneByOne(initial, operations.slice(0, 4)).text;
  assert.equal(midway.chunks.map((chunk) => chunk.text).join(""), text);
  assert.deepEqual(midway.inverses, []);
  for (const chunk of midway.chunks) {
    assert.equal(chunk.length, cpLength(chunk.text));
    assert.ok(chunk.text.length > 0 && chunk.text.length < 2 * CHUNK_SIZE);
  }
});

Deno.test("a fold inserts into an empty text and at either end of a long one", () => {
  const random = new Random(8);
  const long = random.text(9_000, SINGLE);
  const operations = [
    new TextOperation().insert(long),
    new TextOperation().insert("^").retain(9_000),
    new TextOperation().retain(9_001).insert("$"),
    new TextOperation().retain(9_002).insert(long),
    new TextOperation().delete(1).retain(18_001),
  ];
  const expected = oneByOne("", operations);
  const folded = foldOperations([], operations, true);
  assert.equal(
    folded.chunks.map((chunk) => chunk.text).join(""),
    expected.text,
  );
  assert.deepEqual(folded.inverses.map((op) => op.toJSON()), expected.inverses);
});

Deno.test("`applyAllDeferringInverses()` refuses a list with an operation that does not fit, naming it, and keeps the text", () => {
  const random = new Random(3);
  const initial = random.text(500, SINGLE);
  const operations = history(random, initial, 300);
  operations[150] = new TextOperation().retain(operations[150]!.baseLength + 1);
  const buffer = new TextBuffer(initial);
  assert.throws(
    () => buffer.applyAllDeferringInverses(operations),
    (error: Error) =>
      error instanceof RangeError &&
      /^Cannot apply operation 150 of 300 as its base length \d+ differs from the text length: current length is \d+$/
        .test(error.message),
  );
  assert.equal(buffer.toString(), initial);
  assert.deepEqual(buffer.applyAllDeferringInverses([]).deletedUnits, []);
  assert.equal(buffer.toString(), initial);
});
