import assert from "node:assert/strict";
import { TextOperation } from "../../src/ot/operation.ts";
import { TextBuffer } from "../../src/ot/text_buffer.ts";
import { cpLength, property } from "../_random.ts";

/** The UTF-16 offset, line and column of code point `position` of `text`, the slow way. */
function placeOf(text: string, position: number): {
  unit: number;
  line: number;
  column: number;
} {
  const before = [...text].slice(0, position).join("");
  const lines = before.split("\n");
  return {
    unit: before.length,
    line: lines.length,
    column: lines.at(-1)!.length + 1,
  };
}

Deno.test("`TextLocator.locate()` finds each code point asked in order, with its line and column, where a walk of the text does, across chunks edited into every shape", () => {
  property(8, (random, where) => {
    // Long enough for many chunks; astral characters and line breaks throughout.
    const alphabet = ["a", "b", "\n", "😀", "🎉", "é", "\u200d"];
    // Some texts with long lines, whose starts lie chunks before a place.
    const lineBreaks = random.int(3) === 0 ? alphabet.slice(0, 2) : alphabet;
    let text = random.text(random.between(3000, 9000), [
      ...lineBreaks,
      ...alphabet.slice(3),
    ]);
    const buffer = new TextBuffer(text);
    for (let i = 0; i < 40; i++) {
      const length = cpLength(text);
      const op = random.sparse(length, random.between(1, 6), 200);
      text = op.apply(text);
      buffer.apply(op);
    }
    const locator = buffer.locator();
    const length = cpLength(text);
    let position = 0;
    while (position <= length) {
      assert.deepEqual(
        locator.locate(position),
        placeOf(text, position),
        `${where}, code point ${position}`,
      );
      position += random.int(4) === 0 ? random.between(0, 2000) : random.int(5);
    }
    assert.equal(locator.lineCount, text.split("\n").length, where);
    // Past the end: the end.
    assert.deepEqual(
      locator.locate(length + 5),
      placeOf(text, length),
      where,
    );
  }, 10);
});

Deno.test("a locator keeps the text as it was when it was made, whatever the buffer does next", () => {
  const buffer = new TextBuffer("one\ntwo\n" + "x".repeat(3000));
  const locator = buffer.locator();
  buffer.apply(new TextOperation().insert("zero\n").retain(3008));
  assert.deepEqual(locator.locate(4), { unit: 4, line: 2, column: 1 });
  assert.equal(locator.lineCount, 3);
});
