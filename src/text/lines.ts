/**
 * A text as numbered lines, the way `cat -n` shows a file: lines split on
 * `\n`, numbered from 1, a final `\n` ends the last line rather than
 * starting an empty one, and a `\r` before `\n` is not shown.
 *
 * @module
 */

import { advanceCodePoints, codePointLength } from "../ot/code_points.ts";

/** Lines longer than this many code points are shown cut, with a marker. */
export const MAX_LINE_LENGTH = 2000;

/**
 * `text` with CRLF line breaks, when it has a bare LF: what a search
 * copied from read_lines (which hides the `\r` of CRLF lines) is in a CRLF
 * pad; `undefined` when it has none, so there is nothing to try again.
 *
 * @param text A search or its replacement, as the agent wrote it.
 * @returns The CRLF form, or `undefined`.
 *
 * @example
 * ```ts
 * import { asCrlf } from "./lines.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(asCrlf("a\nb\r\n"), "a\r\nb\r\n");
 * assert.equal(asCrlf("a\r\nb"), undefined);
 * ```
 */
export function asCrlf(text: string): string | undefined {
  return /(^|[^\r])\n/.test(text) ? text.replace(/\r?\n/g, "\r\n") : undefined;
}

/**
 * `text` to write into `pad`: with CRLF line breaks if the pad's first line
 * ends in CRLF, so new lines match the pad's own; as it is otherwise.
 *
 * @param text Text to write, with LF or CRLF line breaks.
 * @param pad The pad's text.
 * @returns `text` in the pad's line ending.
 *
 * @example
 * ```ts
 * import { inLineEndingOf } from "./lines.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(inLineEndingOf("a\nb", "x\r\ny"), "a\r\nb");
 * assert.equal(inLineEndingOf("a\nb", "x\ny\r\n"), "a\nb");
 * ```
 */
export function inLineEndingOf(text: string, pad: string): string {
  return isCrlf(pad) ? text.replace(/\r?\n/g, "\r\n") : text;
}

/**
 * Whether `pad` is a CRLF pad: its first line ends in CRLF. What edits and
 * replaces write into it gets CRLF line breaks ({@linkcode inLineEndingOf}).
 *
 * @example
 * ```ts
 * import { isCrlf } from "./lines.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(isCrlf("a\r\nb\n"), true);
 * assert.equal(isCrlf("a\nb\r\n"), false);
 * assert.equal(isCrlf("no break"), false);
 * ```
 */
export function isCrlf(pad: string): boolean {
  const first = pad.indexOf("\n");
  return first > 0 && pad[first - 1] === "\r";
}

/** A run of numbered lines, as {@linkcode readLines} returns it. */
export interface LineWindow {
  /** The lines as `N<TAB>line`, joined with `\n`. */
  text: string;
  /** The first line shown (1-based). */
  startLine: number;
  /** The last line shown; `startLine - 1` when none is. */
  endLine: number;
  /** Lines in the whole text. */
  totalLines: number;
  /** The line after the last one shown, or `null` at the end. */
  nextStartLine: number | null;
}

/**
 * The number of lines in `text`: 0 for an empty text, and a final `\n`
 * does not start another line.
 *
 * @param text The text.
 * @returns The number of lines.
 *
 * @example
 * ```ts
 * import { countLines } from "./lines.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(countLines(""), 0);
 * assert.equal(countLines("a\nb"), 2);
 * assert.equal(countLines("a\nb\n"), 2);
 * assert.equal(countLines("\n"), 1);
 * ```
 */
export function countLines(text: string): number {
  if (text === "") return 0;
  let count = 0;
  for (
    let at = text.indexOf("\n");
    at !== -1;
    at = text.indexOf("\n", at + 1)
  ) {
    count++;
  }
  return text.endsWith("\n") ? count : count + 1;
}

/**
 * The line of `text` from `start` up to `end` (the offset of its `\n`, or
 * the end of the text), as shown: without a `\r` before the `\n`, and cut
 * after {@linkcode MAX_LINE_LENGTH} code points with a marker saying how
 * long it is and at which UTF-16 offset of the text the rest starts.
 *
 * @param text The whole text.
 * @param start The UTF-16 offset where the line starts.
 * @param end The UTF-16 offset where it ends (its `\n` is not included).
 * @returns The line as shown.
 *
 * @example
 * ```ts
 * import { showLine } from "./lines.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(showLine("ab\r\ncd", 0, 3), "ab");
 * const long = "x".repeat(2500);
 * assert.match(showLine(long, 0, 2500), /^x{2000}… \[line cut: 2000 of 2500 code points shown; the rest starts at offset 2000\]$/);
 * ```
 */
export function showLine(text: string, start: number, end: number): string {
  if (end > start && text.charCodeAt(end - 1) === 0x0d && end < text.length) {
    end--;
  }
  return cutLong(
    text,
    start,
    end,
    (length, cut) =>
      `line cut: ${MAX_LINE_LENGTH} of ${length} code points shown; the rest starts at offset ${cut}`,
  );
}

/**
 * `text` from UTF-16 offset `start` to `end`, cut after
 * {@linkcode MAX_LINE_LENGTH} code points with `… [marker]`, the marker
 * made from the whole length in code points and the offset of the cut.
 * A caller that knows the piece's length in code points passes it as
 * `length`, which spares counting the rest of a long piece.
 */
export function cutLong(
  text: string,
  start: number,
  end: number,
  marker: (length: number, cut: number) => string,
  length?: number,
): string {
  // At most two units a code point: a piece this short cannot be too long.
  if (
    end - start <= MAX_LINE_LENGTH || (length ?? Infinity) <= MAX_LINE_LENGTH
  ) {
    return text.slice(start, end);
  }
  const cut = advanceCodePoints(text, start, MAX_LINE_LENGTH);
  if (cut >= end) return text.slice(start, end);
  const whole = length ??
    MAX_LINE_LENGTH + codePointLength(text.slice(cut, end));
  return `${text.slice(start, cut)}… [${marker(whole, cut)}]`;
}

/**
 * Lines `startLine` to `startLine + lineCount - 1` of `text`, numbered like
 * `cat -n` (`N<TAB>line`), each shown by {@linkcode showLine}.
 *
 * @param text The whole text.
 * @param startLine The first line to show (1-based).
 * @param lineCount How many lines to show at most.
 * @returns The lines, where they start and end, and where to continue.
 * @throws {RangeError} If `startLine` or `lineCount` is not a positive
 * integer.
 *
 * @example Reading a CRLF text two lines at a time
 * ```ts
 * import { readLines } from "./lines.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(readLines("one\r\ntwo\r\nthree\r\n", 2, 2), {
 *   text: "2\ttwo\n3\tthree",
 *   startLine: 2,
 *   endLine: 3,
 *   totalLines: 3,
 *   nextStartLine: null,
 * });
 * ```
 */
export function readLines(
  text: string,
  startLine = 1,
  lineCount = 2000,
): LineWindow {
  checkPositive("start line", startLine);
  checkPositive("line count", lineCount);
  const shown: string[] = [];
  const stop = startLine + lineCount;
  let line = 1;
  let start = 0;
  while (start < text.length && line < stop) {
    const newline = text.indexOf("\n", start);
    const end = newline === -1 ? text.length : newline;
    if (line >= startLine) shown.push(`${line}\t${showLine(text, start, end)}`);
    start = end + 1;
    line++;
  }
  const totalLines = start < text.length
    ? line - 1 + countLines(text.slice(start))
    : line - 1;
  const endLine = Math.max(startLine - 1, Math.min(line - 1, totalLines));
  return {
    text: shown.join("\n"),
    startLine,
    endLine,
    totalLines,
    nextStartLine: endLine < totalLines ? endLine + 1 : null,
  };
}

/**
 * Where the lines of a text start, for finding the line and column of an
 * offset. Unlike {@linkcode countLines}, an offset after a final `\n` is on
 * a last, empty line.
 *
 * @example
 * ```ts
 * import { LineIndex } from "./lines.ts";
 * import assert from "node:assert/strict";
 *
 * const index = new LineIndex("ab\ncd");
 * assert.equal(index.lineOf(4), 2);
 * assert.equal(index.start(2), 3);
 * assert.equal(index.end(1), 2);
 * ```
 */
export class LineIndex {
  readonly #text: string;
  readonly #starts: number[] = [0];

  /**
   * Index the lines of `text`.
   *
   * @param text The text.
   */
  constructor(text: string) {
    this.#text = text;
    for (
      let at = text.indexOf("\n");
      at !== -1;
      at = text.indexOf("\n", at + 1)
    ) {
      this.#starts.push(at + 1);
    }
  }

  /** The number of lines, counting an empty one after a final `\n`. */
  get count(): number {
    return this.#starts.length;
  }

  /**
   * The line (1-based) holding UTF-16 offset `offset`.
   *
   * @param offset A UTF-16 offset into the text.
   * @returns Its line number.
   */
  lineOf(offset: number): number {
    let low = 0;
    let high = this.#starts.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if ((this.#starts[middle] as number) <= offset) low = middle;
      else high = middle - 1;
    }
    return low + 1;
  }

  /**
   * Where line `line` (1-based) starts.
   *
   * @param line A line number from 1 to {@linkcode LineIndex.count}.
   * @returns Its UTF-16 offset.
   */
  start(line: number): number {
    return this.#starts[line - 1] as number;
  }

  /**
   * Where line `line` (1-based) ends: the offset of its `\n`, or the end of
   * the text.
   *
   * @param line A line number from 1 to {@linkcode LineIndex.count}.
   * @returns Its UTF-16 offset.
   */
  end(line: number): number {
    const next = this.#starts[line];
    return next === undefined ? this.#text.length : next - 1;
  }

  /**
   * Line `line` as {@linkcode showLine} shows it.
   *
   * @param line A line number from 1 to {@linkcode LineIndex.count}.
   * @returns The line as shown.
   */
  show(line: number): string {
    return showLine(this.#text, this.start(line), this.end(line));
  }
}

function checkPositive(name: string, value: number): void {
  if (!Number.isSafeInteger(value) || value < 1) {
    throw new RangeError(
      `Cannot read lines as the ${name} must be a positive integer: current value is ${value}`,
    );
  }
}

/** A line as `read_lines` shows it: the number, a tab, the text. */
const NUMBERED_LINE = /^ *\d+\t/;

/**
 * `text` without the `N<TAB>` prefixes `read_lines` puts before each line,
 * if it starts with one: what an agent meant when it copied numbered lines
 * into an edit. `undefined` if it does not start like a numbered line.
 *
 * @param text Text copied from a `read_lines` result, perhaps.
 * @returns The text without the prefixes, or `undefined`.
 *
 * @example
 * ```ts
 * import { withoutLineNumbers } from "./lines.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(withoutLineNumbers("3\tfoo\n4\tbar"), "foo\nbar");
 * assert.equal(withoutLineNumbers("foo"), undefined);
 * ```
 */
export function withoutLineNumbers(text: string): string | undefined {
  if (!NUMBERED_LINE.test(text)) return undefined;
  return text.split("\n").map((line) => line.replace(NUMBERED_LINE, ""))
    .join("\n");
}

/**
 * The error sentence's tail for an exact string that does not occur: the
 * hint to drop `read_lines` prefixes when it starts with one, else to copy
 * the exact text from a fresh read.
 *
 * @param text The string that does not occur.
 * @param found Whether the text without the prefixes occurs.
 * @returns What to do, as the end of an error sentence.
 *
 * @example
 * ```ts
 * import { notFoundHint } from "./lines.ts";
 * import assert from "node:assert/strict";
 *
 * assert.match(notFoundHint("2\tb", true), /drop the 'N<TAB>' prefix/);
 * ```
 */
export function notFoundHint(text: string, found: boolean): string {
  const stripped = withoutLineNumbers(text);
  if (stripped === undefined) {
    return "copy the exact text, whitespace included, from a fresh read";
  }
  const quoted = JSON.stringify(
    stripped.length > 80 ? `${stripped.slice(0, 80)}…` : stripped,
  );
  return `it starts like a read_lines line: drop the 'N<TAB>' prefix read_lines puts before each line, and use ${quoted}${
    found ? ", which does occur" : ""
  }`;
}
