import assert from "node:assert/strict";
import { TextOperation } from "../../src/ot/operation.ts";
import { TextBuffer } from "../../src/ot/text_buffer.ts";
import { cpLength, FAMILY, property, Random } from "../_random.ts";

// ---------------------------------------------------------------------------
// TextBuffer against TextOperation.apply

/** Replay `history` on a buffer and on a string, comparing at every step. */
function replay(text: string, history: TextOperation[], where: string): void {
  const buffer = new TextBuffer(text);
  let expected = text;
  for (const [i, op] of history.entries()) {
    expected = op.apply(expected);
    buffer.apply(op);
    assert.equal(buffer.length, cpLength(expected), `${where}, op ${i}`);
    assert.equal(buffer.toString(), expected, `${where}, op ${i}`);
  }
}

Deno.test("`TextBuffer.apply()` agrees with `TextOperation.apply()` on long random histories", () => {
  property(8, (random, where) => {
    const initial = random.text(random.between(2000, 7000));
    let text = initial;
    const history: TextOperation[] = [];
    for (let i = 0; i < 60; i++) {
      const length = cpLength(text);
      const op = random.int(4) === 0
        ? random.edit(length)
        : random.sparse(length, random.between(1, 6), 60);
      history.push(op);
      text = op.apply(text);
    }
    replay(initial, history, where);
  }, 20);
});

Deno.test("`TextBuffer.apply()` agrees with `TextOperation.apply()` at chunk boundaries with astral characters", () => {
  // 2048 UTF-16 units is the chunk size: put astral characters across every
  // boundary a chunk could end at, then edit right around them.
  const initial = "a".repeat(2047) + "🎉" + "b".repeat(2046) + "😀" +
    "c".repeat(2047) + FAMILY + "d".repeat(3000);
  const hot = [2046, 2047, 2048, 4094, 4095, 4096, 6143, 6144, 6150];
  property(10, (random, where) => {
    let text = initial;
    const history: TextOperation[] = [];
    for (let i = 0; i < 40; i++) {
      const length = cpLength(text);
      const at = Math.min(random.pick(hot) + random.between(-2, 2), length);
      const deleted = Math.min(random.int(3), length - at);
      const op = new TextOperation().retain(at).delete(deleted).insert(
        random.text(random.int(3), ["🎉", "😀", "x", "\u200d"]),
      ).retain(length - at - deleted);
      history.push(op);
      text = op.apply(text);
    }
    replay(initial, history, where);
  }, 20);
});

Deno.test("`TextBuffer.apply()` handles inserts and deletes far longer than a chunk", () => {
  const random = new Random(11);
  const big = random.text(9000);
  const history = [
    new TextOperation().insert(big),
    new TextOperation().retain(4500).insert(big).retain(4500),
    new TextOperation().retain(10).delete(17_000).retain(990),
    new TextOperation().delete(1000),
  ];
  replay("", history, "seed 11");
});

Deno.test("`TextBuffer.apply()` refuses an operation of the wrong length and keeps the text", () => {
  const buffer = new TextBuffer("h🎉llo");
  assert.throws(
    () => buffer.apply(TextOperation.fromJSON([6])),
    RangeError,
    "Cannot apply operation as its base length 6 differs from the text length: current length is 5",
  );
  assert.equal(buffer.toString(), "h🎉llo");
  assert.equal(buffer.length, 5);
});

Deno.test("`TextBuffer` agrees with `TextOperation.apply()` over many appends at the end and inserts at chunk boundaries", () => {
  // Appending joins the last chunk while it has room: lines, astral
  // characters and, now and then, an insert at the very start.
  property(4, (random, where) => {
    let text = random.text(700);
    const initial = text;
    const history: TextOperation[] = [];
    for (let i = 0; i < 400; i++) {
      const length = cpLength(text);
      const line = `${random.text(random.int(12), ["😀", "é", "x"])}\n`;
      const op = i % 50 === 0
        ? new TextOperation().insert(line).retain(length)
        : new TextOperation().retain(length).insert(line);
      history.push(op);
      text = op.apply(text);
    }
    replay(initial, history, where);
    const buffer = new TextBuffer(initial);
    for (const op of history) buffer.apply(op);
    const lines = text.split("\n");
    const window = buffer.window(cpLength(text) - 1, cpLength(text), 0);
    assert.equal(window.totalLines, lines.length - 1, where);
    assert.equal(window.text, `${lines.at(-2)}\n`, where);
  }, 10);
});
