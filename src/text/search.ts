/**
 * Finding a pattern in a text, grep-style: every match with its line and
 * column (1-based, UTF-16 units), the matched text and the lines around it.
 * Pure and synchronous. A regular expression runs on RE2 (`npm:re2js`, the
 * engine of Go and ripgrep): it never backtracks, so its time grows with
 * the text times the size of its compiled program, never exponentially,
 * and both are bounded ({@linkcode MAX_SEARCH_WORK}), so a search runs in
 * the server's own process without stalling it for long. The engine is
 * 260 KB of code that most sessions never run, so it is loaded on first
 * use, not at start: await {@linkcode loadSearchEngine} once before the
 * first search.
 *
 * @module
 */

import type { RE2JS } from "re2js";
import { codePointLength } from "../ot/code_points.ts";
import { cutLong, LineIndex, MAX_LINE_LENGTH } from "./lines.ts";
import { literalIn, literalSpans } from "./_literal_spans.ts";
import { lineSpans, matchesWithinLines } from "./_line_spans.ts";

let engine: typeof RE2JS | undefined;

/**
 * Load the regular expression engine (RE2) that {@linkcode searchText}
 * runs on, if it is not loaded yet: await it once before searching.
 *
 * @returns Once it is loaded.
 *
 * @example
 * ```ts
 * import { loadSearchEngine, searchText } from "./mod.ts";
 * import assert from "node:assert/strict";
 *
 * await loadSearchEngine();
 * assert.equal(searchText("a\nb", "b").totalMatches, 1);
 * ```
 */
export async function loadSearchEngine(): Promise<void> {
  engine ??= (await import("re2js")).RE2JS;
}

/** The engine, which {@linkcode loadSearchEngine} loaded. */
function re2(): typeof RE2JS {
  if (engine === undefined) {
    throw new Error(
      "Cannot search as the search engine is not loaded yet: current state is unloaded; await loadSearchEngine() once before searching",
    );
  }
  return engine;
}

/** How to search, as {@linkcode searchText} takes it. */
export interface SearchOptions {
  /**
   * Treat the pattern as an RE2 regular expression: the syntax of Go's
   * `regexp` and ripgrep, without lookaround or backreferences; `^` and `$`
   * match at every line end (`\n`).
   */
  regex?: boolean;
  /** Ignore case (RE2's `(?i)`, simple case folding). */
  caseInsensitive?: boolean;
  /** Lines of context to give before and after each match. */
  contextLines?: number;
  /** Give the details of at most this many matches (all are counted). */
  maxResults?: number;
  /**
   * Stop giving details once they hold this many code points (the match,
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
  /** The matched text (cut with a marker past 2,000 code points). */
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
 * The most work one regular-expression search may take: the instructions
 * of its compiled RE2 program times the UTF-16 units of the text. RE2's
 * slowest path steps every instruction once per character (about 20 ns
 * each here), so this bounds a search to about a second; a pad at Rustpad's
 * limit admits a program of 128 instructions, where everyday patterns need
 * 3 to 50.
 */
export const MAX_SEARCH_WORK = 2 ** 25;

/** What RE2 refuses because only a backtracking engine can run it. */
const BACKTRACKING_FEATURES: readonly [RegExp, string][] = [
  [/^\(\?=/, "lookahead (?=...)"],
  [/^\(\?!/, "negative lookahead (?!...)"],
  [/^\(\?<=/, "lookbehind (?<=...)"],
  [/^\(\?<!/, "negative lookbehind (?<!...)"],
  [/^\(\?>/, "an atomic group (?>...)"],
  [/^\\[1-9]/, "a backreference (\\1 to \\9)"],
  [/^\\k</, "a named backreference (\\k<name>)"],
];

/**
 * The regular expression a search runs, compiled by RE2: the pattern
 * itself with `regex`, else the pattern quoted to match literally. `^` and
 * `$` match at line ends; `caseInsensitive` adds `(?i)`.
 *
 * @param pattern The pattern.
 * @param options Whether it is a regular expression and whether to ignore
 * case.
 * @returns The compiled expression.
 * @throws {Error} If {@linkcode loadSearchEngine} has not loaded the engine.
 * @throws {SyntaxError} If `regex` is set and the pattern is not valid RE2
 * syntax; a feature that needs backtracking (lookaround, backreferences) is
 * named.
 *
 * @example
 * ```ts
 * import { compilePattern, loadSearchEngine } from "./search.ts";
 * import assert from "node:assert/strict";
 *
 * await loadSearchEngine();
 * assert.equal(compilePattern("a.b", {}).matcher("a.b axb").find(), true);
 * assert.throws(() => compilePattern("(?=a)", { regex: true }), /lookahead/);
 * ```
 */
export function compilePattern(
  pattern: string,
  options: Pick<SearchOptions, "regex" | "caseInsensitive">,
): RE2JS {
  const engine = re2();
  const source = options.regex ? pattern : engine.quote(pattern);
  const flags = engine.MULTILINE |
    (options.caseInsensitive ? engine.CASE_INSENSITIVE : 0);
  try {
    return engine.compile(source, flags);
  } catch (error) {
    const feature = options.regex ? backtrackingFeature(pattern) : undefined;
    if (feature !== undefined) {
      throw new SyntaxError(
        `Cannot search with this regex as it uses ${feature}, which RE2 does not run: it needs a backtracking engine, whose time can explode. Rewrite the pattern without it (RE2 syntax, as in Go and ripgrep), or pass regex: false to search for the text literally`,
      );
    }
    throw new SyntaxError(
      `Cannot search as the pattern is not valid RE2 syntax (as in Go and ripgrep): ${
        (error as Error).message.replace(/^error parsing regexp: /, "")
      }. Fix it, or pass regex: false to search for the text literally`,
    );
  }
}

/** The first feature of `pattern` that needs backtracking, outside classes. */
function backtrackingFeature(pattern: string): string | undefined {
  let inClass = false;
  for (let at = 0; at < pattern.length; at++) {
    const character = pattern[at];
    if (!inClass) {
      const rest = pattern.slice(at, at + 4);
      for (const [shape, name] of BACKTRACKING_FEATURES) {
        if (shape.test(rest)) return name;
      }
    }
    if (character === "\\") {
      // \Q...\E is literal text.
      if (pattern[at + 1] === "Q") {
        const end = pattern.indexOf("\\E", at + 2);
        at = end === -1 ? pattern.length : end + 1;
      } else at++;
    } else if (inClass) {
      if (character === "]") inClass = false;
    } else if (character === "[") {
      inClass = true;
      if (pattern[at + 1] === "^") at++;
      if (pattern[at + 1] === "]") at++; // A leading ] is literal.
    }
  }
  return undefined;
}

/**
 * Every match of `pattern` in `text`, without overlaps, in order.
 *
 * @param text The text to search.
 * @param pattern A literal string, or a regular expression with `regex`.
 * @param options How to search.
 * @returns The first `maxResults` matches in detail and the total count.
 * @throws {Error} If {@linkcode loadSearchEngine} has not loaded the engine.
 * @throws {SyntaxError} If `regex` is set and the pattern is invalid.
 * @throws {RangeError} If the compiled pattern is too large for a text
 * this long ({@linkcode MAX_SEARCH_WORK}); nothing is searched.
 *
 * @example
 * ```ts
 * import { loadSearchEngine, searchText } from "./search.ts";
 * import assert from "node:assert/strict";
 *
 * await loadSearchEngine();
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
  const literal = options.regex
    ? pattern
    : literalIn(text, pattern, options.caseInsensitive === true);
  const spans = options.regex || options.caseInsensitive || pattern === ""
    ? regexSpans(text, compilePattern(literal, options), options)
    : literalSpans(text, literal);
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

/** Spans in UTF-16 units, as RE2's matcher counts on a string. */
function* regexSpans(
  text: string,
  expression: RE2JS,
  options: Pick<SearchOptions, "regex">,
): Generator<[number, number]> {
  checkWork(text, expression, options);
  // Whether it matches at all costs a quarter of finding where (no
  // positions to track): a search that finds nothing stops there.
  if (!expression.test(text)) return;
  if (matchesWithinLines(expression)) {
    yield* lineSpans(text, expression);
    return;
  }
  const matcher = expression.matcher(text);
  while (matcher.find()) yield [matcher.start(), matcher.end()];
}

/**
 * Refuse a search whose compiled program, run over `text`, would take
 * more than {@linkcode MAX_SEARCH_WORK}.
 *
 * @param text The text to search.
 * @param expression The compiled pattern.
 * @param options Whether the pattern is a regular expression (for the
 * advice in the error).
 * @throws {RangeError} Naming the instruction count and the most allowed.
 *
 * @example
 * ```ts
 * import { checkWork, compilePattern, loadSearchEngine } from "./search.ts";
 * import assert from "node:assert/strict";
 *
 * await loadSearchEngine();
 * const heavy = compilePattern("(a|b|c){300}", { regex: true });
 * checkWork("short", heavy, { regex: true });
 * assert.throws(() => checkWork("x".repeat(262_144), heavy, { regex: true }), RangeError);
 * ```
 */
export function checkWork(
  text: string,
  expression: RE2JS,
  options: Pick<SearchOptions, "regex">,
): void {
  const size = expression.re2Input.prog.numInst();
  if (size * text.length <= MAX_SEARCH_WORK) return;
  const allowed = Math.floor(MAX_SEARCH_WORK / text.length);
  throw new RangeError(
    `Cannot search as the pattern compiles to more RE2 instructions than a text of ${text.length} UTF-16 units allows (at most ${allowed}, so that one search takes about a second at worst): current count is ${size}. Nothing was searched; ${
      options.regex
        ? "use a simpler pattern (smaller counted repeats such as {100}, fewer alternatives)"
        : "search for a shorter text, or case-sensitively"
    }`,
  );
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

/** The code points of a match's details. */
function size(match: SearchMatch): number {
  let total = codePointLength(match.text) + codePointLength(match.lineText);
  for (const line of match.before) total += codePointLength(line);
  for (const line of match.after) total += codePointLength(line);
  return total;
}

function cutMatch(text: string, start: number, end: number): string {
  return cutLong(
    text,
    start,
    end,
    (length) => `match cut: ${MAX_LINE_LENGTH} of ${length} code points shown`,
  );
}
