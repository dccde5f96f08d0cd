// The text a batch of edits is located in, read through one interface: a
// string (which string edits search), or a pad's chunked text, where line
// edits alone find their lines without the text being joined. Joining a
// long pad makes a fresh string of its size, which cost a 10-line edit of
// the busy pad about 1.5 ms of its 4 (docs/benchmarks.md).

import { codePointLength } from "../ot/code_points.ts";
import type { TextBuffer, TextLines, TextLocator } from "../ot/mod.ts";
import { countLines, isCrlf, LineIndex } from "./lines.ts";

/** The text a batch is located in, by offsets of its own. */
export interface EditSource {
  /** Its length, in its offsets. */
  readonly length: number;
  /** Lines as `read_lines` counts them: a final `\n` starts no new line. */
  readonly count: number;
  /** The pad's line break: CRLF if its first line ends so. */
  readonly lineBreak: string;
  /** Where line `line` (1-based) starts; `length` past the last line. */
  start(line: number): number;
  /** The line (1-based) holding `offset`. */
  lineOf(offset: number): number;
  /** The text from `start` to `end`. */
  slice(start: number, end: number): string;
  /** Code points from `start` to `end`. */
  points(start: number, end: number): number;
  /** The length of `piece`, a slice of the text, in its offsets. */
  measure(piece: string): number;
  /** The UTF-16 offset of `offset`, asked in increasing order. */
  unit(offset: number): number;
}

/** A string, in UTF-16 units; its line index built only if asked. */
export class StringSource implements EditSource {
  readonly text: string;
  #index: LineIndex | undefined;
  #count: number | undefined;

  constructor(text: string) {
    this.text = text;
  }

  get length(): number {
    return this.text.length;
  }

  get count(): number {
    return this.#count ??= countLines(this.text);
  }

  get lineBreak(): string {
    return isCrlf(this.text) ? "\r\n" : "\n";
  }

  start(line: number): number {
    const index = this.#lines();
    return line <= index.count ? index.start(line) : this.text.length;
  }

  lineOf(offset: number): number {
    return this.#lines().lineOf(offset);
  }

  slice(start: number, end: number): string {
    return this.text.slice(start, end);
  }

  points(start: number, end: number): number {
    return codePointLength(this.text.slice(start, end));
  }

  measure(piece: string): number {
    return piece.length;
  }

  unit(offset: number): number {
    return offset;
  }

  #lines(): LineIndex {
    return this.#index ??= new LineIndex(this.text);
  }
}

/** A chunked text, in code points, never joined. */
export class BufferSource implements EditSource {
  readonly #buffer: TextBuffer;
  readonly #lines: TextLines;
  #locator: TextLocator | undefined;
  #lineBreak: string | undefined;

  constructor(buffer: TextBuffer) {
    this.#buffer = buffer;
    this.#lines = buffer.lines();
  }

  get length(): number {
    return this.#lines.length;
  }

  get count(): number {
    return this.#lines.count;
  }

  get lineBreak(): string {
    if (this.#lineBreak === undefined) {
      // Line 2 starts after the first `\n`; the unit before it may be `\r`.
      const second = this.#lines.breaks === 0 ? 0 : this.#lines.start(2);
      this.#lineBreak =
        second >= 2 && this.slice(second - 2, second - 1) === "\r"
          ? "\r\n"
          : "\n";
    }
    return this.#lineBreak;
  }

  start(line: number): number {
    return this.#lines.start(line);
  }

  lineOf(offset: number): number {
    return this.#lines.lineOf(offset);
  }

  slice(start: number, end: number): string {
    return this.#lines.slice(start, end);
  }

  points(start: number, end: number): number {
    return end - start;
  }

  measure(piece: string): number {
    return codePointLength(piece);
  }

  unit(offset: number): number {
    this.#locator ??= this.#buffer.locator();
    return this.#locator.locate(offset).unit;
  }
}
