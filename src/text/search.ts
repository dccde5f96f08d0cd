/**
 * Finding a pattern in a text, grep-style: every match with its line and
 * column (1-based, UTF-16 units), the matched text and the lines around it.
 * Pure and synchronous; {@linkcode "./bounded_search.ts"} runs a regular
 * expression under a time bound.
 *
 * @module
 */

import { isHighSurrogate } from "../ot/code_points.ts";
import { LineIndex, MAX_LINE_LENGTH } from "./lines.ts";

/** How to search, as {@linkcode searchText} takes it. */
export interface SearchOptions {
  /** Treat the pattern as a JavaScript regular expression (`u` flag). */
  regex?: boolean;
  /** Ignore case. */
  caseInsensitive?: boolean;
  /** Lines of context to give before and after each match. */
  contextLines?: number;
  /** Give the details of at most this many matches (all are counted). */
  maxResults?: number;
  /**
   * Stop giving details once they hold this many UTF-16 units (the match,
   * its line and its context), after at least one match. Long lines and
   * wide context repeat for every match, so without a budget a search could
   * answer far more than the whole text.
   */
  maxCharacters?: number;
}

/** One match, as {@linkcode searchText} returns it. */
export interface SearchMatch {
  /** The line the match starts on (1-based). */
  line: number;
  /** Its column on that line (1-based, UTF-16 units). */
  column: number;
  /** The line the match ends on (a regular expression can span lines). */
  endLine: number;
  /** The matched text (cut with a marker past 2,000 UTF-16 units). */
  text: string;
  /** The whole line the match starts on, as `read_lines` shows it. */
  lineText: string;
  /** Up to `contextLines` lines before the match. */
  before: string[];
  /** Up to `contextLines` lines after the line the match ends on. */
  after: string[];
}

/** What {@linkcode searchText} finds. */
export interface SearchResult {
  /** The first `maxResults` matches. */
  matches: SearchMatch[];
  /** Every match in the text. */
  totalMatches: number;
  /** Whether `maxCharacters` stopped the details before `maxResults`. */
  cut: boolean;
}

/**
 * The regular expression a search runs: the pattern itself with `regex`,
 * else the pattern escaped to match literally. Flags `g`, `m` (so `^` and
 * `$` match at line ends) and `u`, plus `i` to ignore case.
 *
 * @param pattern The pattern.
 * @param options Whether it is a regular expression and whether to ignore
 * case.
 * @returns The compiled expression.
 * @throws {SyntaxError} If `regex` is set and the pattern is not valid
 * JavaScript regular expression syntax with the `u` flag.
 *
 * @example
 * ```ts
 * import { compilePattern } from "./search.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(compilePattern("a.b", {}).source, "a\\.b");
 * assert.throws(() => compilePattern("(", { regex: true }), SyntaxError);
 * ```
 */
export function compilePattern(
  pattern: string,
  options: Pick<SearchOptions, "regex" | "caseInsensitive">,
): RegExp {
  const source = options.regex
    ? pattern
    : pattern.replace(/[\\^$.*+?()[\]{}|/]/g, "\\$&");
  return new RegExp(source, options.caseInsensitive ? "gimu" : "gmu");
}

/**
 * Every match of `pattern` in `text`, without overlaps, in order.
 *
 * @param text The text to search.
 * @param pattern A literal string, or a regular expression with `regex`.
 * @param options How to search.
 * @returns The first `maxResults` matches in detail and the total count.
 * @throws {SyntaxError} If `regex` is set and the pattern is invalid.
 *
 * @example
 * ```ts
 * import { searchText } from "./search.ts";
 * import assert from "node:assert/strict";
 *
 * const found = searchText("one\r\ntwo\r\nthree", "T", {
 *   caseInsensitive: true,
 *   contextLines: 1,
 *   maxResults: 1,
 * });
 * assert.equal(found.totalMatches, 2);
 * assert.deepEqual(found.matches, [{
 *   line: 2,
 *   column: 1,
 *   endLine: 2,
 *   text: "t",
 *   lineText: "two",
 *   before: ["one"],
 *   after: ["three"],
 * }]);
 * assert.equal(found.cut, false);
 * ```
 */
export function searchText(
  text: string,
  pattern: string,
  options: SearchOptions = {},
): SearchResult {
  const maxResults = options.maxResults ?? 100;
  const contextLines = options.contextLines ?? 0;
  const spans = options.regex || options.caseInsensitive
    ? regexSpans(text, compilePattern(pattern, options))
    : literalSpans(text, pattern);
  let budget = options.maxCharacters ?? Infinity;
  const matches: SearchMatch[] = [];
  let totalMatches = 0;
  let cut = false;
  let index: LineIndex | undefined;
  for (const [start, end] of spans) {
    totalMatches++;
    if (matches.length >= maxResults || cut) continue;
    index ??= new LineIndex(text);
    const match = describe(text, index, start, end, contextLines);
    budget -= size(match);
    if (budget < 0 && matches.length > 0) cut = true;
    else matches.push(match);
  }
  return { matches, totalMatches, cut };
}

function* literalSpans(
  text: string,
  pattern: string,
): Generator<[number, number]> {
  if (pattern === "") {
    yield* regexSpans(text, /(?:)/gu);
    return;
  }
  for (
    let at = text.indexOf(pattern);
    at !== -1;
    at = text.indexOf(pattern, at + pattern.length)
  ) {
    yield [at, at + pattern.length];
  }
}

function* regexSpans(
  text: string,
  expression: RegExp,
): Generator<[number, number]> {
  for (const match of text.matchAll(expression)) {
    yield [match.index, match.index + match[0].length];
  }
}

function describe(
  text: string,
  index: LineIndex,
  start: number,
  end: number,
  contextLines: number,
): SearchMatch {
  const line = index.lineOf(start);
  const lastLine = end > start ? index.lineOf(end - 1) : line;
  const before: string[] = [];
  for (let n = Math.max(1, line - contextLines); n < line; n++) {
    before.push(index.show(n));
  }
  const after: string[] = [];
  // A final "\n" ends the last line; it does not start one to show.
  const lines = index.count - (text.endsWith("\n") ? 1 : 0);
  const stop = Math.min(lines, lastLine + contextLines);
  for (let n = lastLine + 1; n <= stop; n++) after.push(index.show(n));
  return {
    line,
    column: start - index.start(line) + 1,
    endLine: lastLine,
    text: cutMatch(text, start, end),
    lineText: index.show(line),
    before,
    after,
  };
}

function size(match: SearchMatch): number {
  let total = match.text.length + match.lineText.length;
  for (const line of match.before) total += line.length;
  for (const line of match.after) total += line.length;
  return total;
}

function cutMatch(text: string, start: number, end: number): string {
  const length = end - start;
  if (length <= MAX_LINE_LENGTH) return text.slice(start, end);
  let cut = MAX_LINE_LENGTH;
  if (isHighSurrogate(text.charCodeAt(start + cut - 1))) cut--;
  return `${
    text.slice(start, start + cut)
  }… [match cut: ${cut} of ${length} UTF-16 units shown]`;
}
