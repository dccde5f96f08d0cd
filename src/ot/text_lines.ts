// The lines of a text kept as chunks: where a line starts, which line holds
// a place, and a stretch of the text, found by counting each chunk's line
// breaks, so a few lines of a long text cost its chunk list, not a walk of
// the text nor a copy of it.

import { type Chunk, unitsAfter } from "./_chunks.ts";
import { codePointLength } from "./code_points.ts";

/**
 * Lines of a text, in code points. Made by {@linkcode TextBuffer.lines}.
 *
 * @example
 * ```ts
 * import { TextBuffer } from "../mod.ts";
 * import assert from "node:assert/strict";
 *
 * const lines = new TextBuffer("one\ntwo😀\nthree\n").lines();
 * assert.equal(lines.count, 3);
 * assert.equal(lines.start(3), 9);
 * assert.equal(lines.lineOf(7), 2);
 * assert.equal(lines.slice(4, 8), "two😀");
 * ```
 */
export class TextLines {
  readonly #chunks: readonly Chunk[];
  readonly #length: number;
  #breaks = -1;

  /**
   * Lines of `chunks`, which are not changed while this is used.
   *
   * @param chunks The text's chunks, in order.
   * @param length The text's length in code points.
   */
  constructor(chunks: readonly Chunk[], length: number) {
    this.#chunks = chunks;
    this.#length = length;
  }

  /** The text's length in code points. */
  get length(): number {
    return this.#length;
  }

  /** How many `\n` the text holds. */
  get breaks(): number {
    if (this.#breaks === -1) {
      let breaks = 0;
      for (const chunk of this.#chunks) breaks += chunk.breaks;
      this.#breaks = breaks;
    }
    return this.#breaks;
  }

  /** Whether the text ends with `\n`. */
  get endsWithBreak(): boolean {
    const last = this.#chunks.at(-1);
    return last !== undefined && last.text.endsWith("\n");
  }

  /**
   * Lines as `read_lines` counts them: none in an empty text, and a final
   * `\n` starts no new line.
   */
  get count(): number {
    if (this.#length === 0) return 0;
    return this.endsWithBreak ? this.breaks : this.breaks + 1;
  }

  /**
   * The 1-based line holding code point `offset`: one more than the `\n`
   * before it.
   *
   * @param offset A code point offset.
   * @returns Its line.
   */
  lineOf(offset: number): number {
    let line = 1;
    let remaining = offset;
    for (const chunk of this.#chunks) {
      if (remaining < chunk.length) {
        const unit = unitsAfter(chunk, 0, remaining);
        for (
          let at = chunk.text.indexOf("\n");
          at !== -1 && at < unit;
          at = chunk.text.indexOf("\n", at + 1)
        ) line++;
        return line;
      }
      remaining -= chunk.length;
      line += chunk.breaks;
    }
    return line;
  }

  /**
   * The code point where line `line` (1-based) starts: after the
   * `line - 1`th `\n`, or the text's end past its last line.
   *
   * @param line A line number, from 1.
   * @returns Its start in code points.
   */
  start(line: number): number {
    let needed = line - 1;
    let offset = 0;
    if (needed <= 0) return 0;
    for (const chunk of this.#chunks) {
      if (needed <= chunk.breaks) {
        let at = -1;
        for (let k = 0; k < needed; k++) at = chunk.text.indexOf("\n", at + 1);
        return offset +
          (chunk.text.length === chunk.length
            ? at + 1
            : codePointLength(chunk.text.slice(0, at + 1)));
      }
      needed -= chunk.breaks;
      offset += chunk.length;
    }
    return this.#length;
  }

  /**
   * Code points `start` to `end` of the text.
   *
   * @param start The first code point.
   * @param end The code point after the last.
   * @returns Them as a string.
   */
  slice(start: number, end: number): string {
    const pieces: string[] = [];
    let position = 0;
    for (const chunk of this.#chunks) {
      const chunkEnd = position + chunk.length;
      if (chunkEnd > start && position < end) {
        const from = Math.max(start, position) - position;
        const to = Math.min(end, chunkEnd) - position;
        const unitFrom = unitsAfter(chunk, 0, from);
        pieces.push(
          chunk.text.slice(unitFrom, unitsAfter(chunk, unitFrom, to - from)),
        );
      }
      if (chunkEnd >= end) break;
      position = chunkEnd;
    }
    return pieces.join("");
  }
}
