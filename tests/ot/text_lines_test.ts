import assert from "node:assert/strict";
import { TextBuffer } from "../../src/ot/text_buffer.ts";
import { cpLength, property } from "../_random.ts";

Deno.test("`TextLines` finds each line's start, the line of every place, stretches and the count as a split of the text does, across chunks edited into every shape", () => {
  property(31, (random, where) => {
    const alphabet = ["a", "b", "\n", "\r", "😀", "é", "\u200d"];
    // Some texts with long lines, and some with no line break at all.
    const kind = random.int(4);
    const letters = kind === 0
      ? ["a", "😀", "é"]
      : kind === 1
      ? ["a", "b", "c", "😀", "\n"]
      : alphabet;
    let text = random.text(random.between(0, 4000), letters);
    const buffer = new TextBuffer(text);
    for (let i = 0; i < 10; i++) {
      const op = random.sparse(cpLength(text), random.between(1, 4), 300);
      text = op.apply(text);
      buffer.apply(op);
    }
    const lines = buffer.lines();
    const points = [...text];
    const starts = [0];
    points.forEach((point, k) => {
      if (point === "\n") starts.push(k + 1);
    });
    assert.equal(lines.length, points.length, where);
    assert.equal(lines.breaks, starts.length - 1, where);
    assert.equal(
      lines.count,
      text === "" ? 0 : text.endsWith("\n") ? starts.length - 1 : starts.length,
      where,
    );
    for (let line = 0; line <= starts.length + 2; line++) {
      const expected = line <= 1
        ? 0
        : line <= starts.length
        ? starts[line - 1]!
        : points.length;
      assert.equal(lines.start(line), expected, `${where}, line ${line}`);
    }
    for (let i = 0; i < 20; i++) {
      const offset = random.int(points.length + 1);
      const expected = starts.filter((start) => start <= offset).length;
      assert.equal(lines.lineOf(offset), expected, `${where}, at ${offset}`);
      const end = offset + random.int(points.length - offset + 1);
      assert.equal(
        lines.slice(offset, end),
        points.slice(offset, end).join(""),
        `${where}, ${offset} to ${end}`,
      );
    }
  }, 150);
});
