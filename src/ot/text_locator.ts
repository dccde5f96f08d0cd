// Where code points lie in a text kept as chunks: a forward walk that skips
// whole chunks by their lengths and counts line breaks chunk by chunk, so a
// question about a few places of a long text costs the chunk list, not the
// text (a walk over a string steps every unit before the place asked).

import { type Chunk, unitsAfter } from "./_chunks.ts";

/** A place in the text: its UTF-16 offset, its line and its column. */
export interface TextPlace {
  /** UTF-16 offset into the text. */
  readonly unit: number;
  /** 1-based line number: one more than the `\n` before it. */
  readonly line: number;
  /** 1-based column, in UTF-16 units from the start of its line. */
  readonly column: number;
}

/**
 * Places of code points in a text, asked in order: each question starts
 * where the last one ended. Made by {@linkcode TextBuffer.locator}.
 *
 * @example
 * ```ts
 * import { TextBuffer } from "../mod.ts";
 * import assert from "node:assert/strict";
 *
 * const locator = new TextBuffer("a😀\nb\nc").locator();
 * assert.deepEqual(locator.locate(2), { unit: 3, line: 1, column: 4 });
 * assert.deepEqual(locator.locate(5), { unit: 6, line: 3, column: 1 });
 * assert.equal(locator.lineCount, 3);
 * ```
 */
export class TextLocator {
  readonly #chunks: readonly Chunk[];
  /** The chunk the last place asked lies in, and what comes before it. */
  #chunk = 0;
  #points = 0;
  #units = 0;
  #lines = 1;
  /**
   * The UTF-16 offset where the line of the last place asked starts; when
   * `#lineChunk` is not -1, after the last break of that chunk, which starts
   * at `#lineBase` (found only when a column is asked: a walk past hundreds
   * of chunks would search each for its last break).
   */
  #lineStart = 0;
  #lineChunk = -1;
  #lineBase = 0;
  /** The last place asked, inside that chunk. */
  #inPoints = 0;
  #inUnits = 0;
  #inLines = 0;

  /**
   * Walk `chunks`, which are not changed while the locator is used.
   *
   * @param chunks The text's chunks, in order.
   */
  constructor(chunks: readonly Chunk[]) {
    this.#chunks = chunks;
  }

  /** The text's number of lines, counting an empty one after a final `\n`. */
  get lineCount(): number {
    let lines = 1;
    for (const chunk of this.#chunks) lines += chunk.breaks;
    return lines;
  }

  /**
   * The place of code point `position`: at or after the last one asked
   * (earlier ones are not walked back to); the end of the text past it.
   *
   * @param position A code point offset.
   * @returns Its UTF-16 offset, line and column.
   */
  locate(position: number): TextPlace {
    let chunk = this.#chunks[this.#chunk];
    while (
      chunk !== undefined && position >= this.#points + chunk.length
    ) {
      if (chunk.breaks > 0) {
        this.#lineChunk = this.#chunk;
        this.#lineBase = this.#units;
      }
      this.#points += chunk.length;
      this.#units += chunk.text.length;
      this.#lines += chunk.breaks;
      this.#inPoints = this.#inUnits = this.#inLines = 0;
      chunk = this.#chunks[++this.#chunk];
    }
    if (chunk === undefined) return this.#place(this.#units, this.#lines);
    const target = Math.max(position - this.#points, this.#inPoints);
    const units = unitsAfter(chunk, this.#inUnits, target - this.#inPoints);
    let lines = this.#inLines;
    for (
      let at = chunk.text.indexOf("\n", this.#inUnits);
      at !== -1 && at < units;
      at = chunk.text.indexOf("\n", at + 1)
    ) {
      lines++;
      this.#lineStart = this.#units + at + 1;
      this.#lineChunk = -1;
    }
    this.#inPoints = target;
    this.#inUnits = units;
    this.#inLines = lines;
    return this.#place(this.#units + units, this.#lines + lines);
  }

  #place(unit: number, line: number): TextPlace {
    if (this.#lineChunk !== -1) {
      const { text } = this.#chunks[this.#lineChunk]!;
      this.#lineStart = this.#lineBase + text.lastIndexOf("\n") + 1;
      this.#lineChunk = -1;
    }
    return { unit, line, column: unit - this.#lineStart + 1 };
  }
}
