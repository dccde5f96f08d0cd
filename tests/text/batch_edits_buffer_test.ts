// Line edits located in a pad's chunked text, never joined, against the
// same edits located in the text as a string: the same changes, operation
// and errors, on texts of LF, CRLF and lone CR lines, astral characters, a
// last line with and without its break, and empty ones.

import assert from "node:assert/strict";
import {
  type BatchEdit,
  type LocatedBatch,
  locateEdits,
} from "../../src/text/batch_edits.ts";
import { TextBuffer } from "../../src/ot/text_buffer.ts";
import { cpLength, property, type Random } from "../_random.ts";

/** The batch located, or the error's message. */
function located(
  text: string | TextBuffer,
  edits: BatchEdit[],
  length?: number,
): LocatedBatch | string {
  try {
    return locateEdits(text, edits, "at revision 3", length);
  } catch (error) {
    return (error as Error).message;
  }
}

function randomBatch(random: Random, lineCount: number): BatchEdit[] {
  const pieces = ["x", "new line\n", "two\nlines", "😀\r\n", "", "\n", "é"];
  return Array.from({ length: random.between(1, 4) }, () => {
    const start = random.between(0, lineCount + 2);
    const end = start - 1 + random.between(0, 3) -
      (random.int(6) === 0 ? 2 : 0);
    const text = Array.from(
      { length: random.int(3) },
      () => random.pick(pieces),
    ).join("");
    return { start_line: start, end_line: end, new_string: text };
  });
}

Deno.test("line edits located in a chunked text give the changes, operation and errors the joined text gives", () => {
  property(47, (random, where) => {
    const breaks = random.pick([["\n"], ["\r\n"], ["\n", "\r\n", "\r"]]);
    const letters = ["a", "b", "😀", "é", ...breaks, ...breaks];
    let text = random.text(random.between(0, random.int(3) * 900), letters)
      .replaceAll("\r\r", "\r");
    if (random.int(3) === 0) text += breaks[0];
    const buffer = new TextBuffer(text);
    // Edited once, so the chunks are of uneven sizes.
    const op = random.sparse(cpLength(text), 2, 4);
    text = op.apply(text);
    buffer.apply(op);
    const lineCount = text.split("\n").length;
    const edits = randomBatch(random, lineCount);
    const fromString = located(text, edits);
    const fromBuffer = located(buffer, edits);
    assert.deepEqual(
      fromBuffer,
      fromString,
      `${where}: ${JSON.stringify(edits)}`,
    );
    assert.deepEqual(
      located(buffer, edits, buffer.length),
      fromString,
      where,
    );
    if (typeof fromBuffer !== "string") {
      assert.equal(buffer.toString(), text, where);
    }
  }, 800);
});

Deno.test("a batch with a string edit in it is located in a chunked text as in the joined text", () => {
  const text = "one\r\ntwo 😀\r\nthree\r\n".repeat(200);
  const edits: BatchEdit[] = [
    { start_line: 2, end_line: 3, new_string: "2\n3" },
    { old_string: "three\none", new_string: "3\n1", replace_all: true },
  ];
  assert.deepEqual(
    located(new TextBuffer(text), edits),
    located(text, edits),
  );
});
