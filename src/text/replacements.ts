/**
 * Replacing text found by a literal string or an RE2 regular expression,
 * for `replace_in_document`: where each match is, what replaces it (`$1`,
 * `$<name>`, `$&` and `$$` expanded as JavaScript's `String.replace` does),
 * optionally only matches that are whole words, and the one operation that
 * makes them all while keeping what each match and its replacement share.
 *
 * @module
 */

import type { Matcher, RE2JS } from "re2js";
import { codePointLength } from "../ot/code_points.ts";
import { TextOperation } from "../ot/operation.ts";
import { commonEnds } from "./common_ends.ts";
import { asCrlf, inLineEndingOf } from "./lines.ts";
import { checkWork, compilePattern } from "./search.ts";

/** One match and what replaces it, in UTF-16 units of the searched text. */
export interface Replacement {
  /** Where the match starts. */
  start: number;
  /** Where it ends (exclusive). */
  end: number;
  /** What replaces it, with references expanded. */
  text: string;
}

/** How {@linkcode findReplacements} matches. */
export interface ReplaceOptions {
  /** `search` is an RE2 regular expression; `^` and `$` match at lines. */
  regex?: boolean;
  /**
   * Only matches not inside a longer word: none that starts with a letter,
   * digit or `_` right after one, or ends with one right before one.
   */
  wholeWord?: boolean;
}

const WORD = /^[\p{L}\p{N}\p{M}_]$/u;

/** Whether the code point of `text` that ends right before `at` is a word character. */
function wordBefore(text: string, at: number): boolean {
  if (at <= 0) return false;
  const low = text.charCodeAt(at - 1);
  const start = at >= 2 && low >= 0xdc00 && low <= 0xdfff ? at - 2 : at - 1;
  return WORD.test(String.fromCodePoint(text.codePointAt(start)!));
}

/** Whether the code point of `text` at `at` is a word character. */
function wordAt(text: string, at: number): boolean {
  return at < text.length &&
    WORD.test(String.fromCodePoint(text.codePointAt(at)!));
}

/** Whether the match `start`..`end` of `text` is not inside a longer word. */
function isWholeWord(text: string, start: number, end: number): boolean {
  if (start === end) return true;
  return !(wordAt(text, start) && wordBefore(text, start)) &&
    !(wordBefore(text, end) && wordAt(text, end));
}

/**
 * Every match of `search` in `text`, left to right and not overlapping,
 * with what replaces it.
 *
 * @param text The text to search.
 * @param search The literal text, or the RE2 pattern with `regex`.
 * @param replace The replacement; with `regex`, `$1` to `$99`, `$<name>`,
 * `$&` (the match) and `$$` (a `$`) are expanded per match.
 * @param options Regular expression, whole words.
 * @returns The matches in order. A literal `search` with `\n` that matches
 * nowhere is tried again with `\r\n` (and `replace` with it), as
 * read_lines shows CRLF lines.
 * @throws {Error} With `regex`, if `loadSearchEngine()` (search.ts) has not
 * loaded the engine.
 * @throws {SyntaxError} If `regex` is set and the pattern is not valid RE2.
 * @throws {RangeError} If `search` is empty without `regex`, or the
 * pattern is too costly for a text this long.
 *
 * @example Whole words, and groups of a regular expression
 * ```ts
 * import { findReplacements } from "./replacements.ts";
 * import { loadSearchEngine } from "./search.ts";
 * import assert from "node:assert/strict";
 *
 * await loadSearchEngine();
 * assert.deepEqual(
 *   findReplacements("foo food foo", "foo", "bar", { wholeWord: true })
 *     .map((match) => match.start),
 *   [0, 9],
 * );
 * assert.deepEqual(
 *   findReplacements("v1.2", "(\\d+)\\.(\\d+)", "$2.$1", { regex: true }),
 *   [{ start: 1, end: 4, text: "2.1" }],
 * );
 * ```
 */
export function findReplacements(
  text: string,
  search: string,
  replace: string,
  options: ReplaceOptions = {},
): Replacement[] {
  replace = inLineEndingOf(replace, text);
  if (options.regex) {
    const expression = compilePattern(search, { regex: true });
    checkWork(text, expression, { regex: true });
    return regexReplacements(text, expression, replace, options);
  }
  if (search === "") {
    throw new RangeError(
      "Cannot search for the empty string as it occurs everywhere: current value is empty",
    );
  }
  const found: Replacement[] = [];
  for (let at = text.indexOf(search); at !== -1;) {
    const end = at + search.length;
    if (!options.wholeWord || isWholeWord(text, at, end)) {
      found.push({ start: at, end, text: replace });
      at = text.indexOf(search, end);
    } else at = text.indexOf(search, at + 1);
  }
  // read_lines hides the \r of CRLF lines: match what the agent saw, and
  // write the pad's line ending.
  const crlfSearch = found.length === 0 ? asCrlf(search) : undefined;
  if (crlfSearch !== undefined) {
    return findReplacements(
      text,
      crlfSearch,
      asCrlf(replace) ?? replace,
      options,
    );
  }
  return found;
}

function regexReplacements(
  text: string,
  expression: RE2JS,
  replace: string,
  options: ReplaceOptions,
): Replacement[] {
  const matcher = expression.matcher(text);
  const groups = matcher.groupCount();
  const named = Object.entries(matcher.namedGroups);
  const plain = !replace.includes("$");
  const found: Replacement[] = [];
  // find() goes on after the last match (one unit on after an empty one,
  // as String.replace does); find(from) starts again after a rejected one.
  let more = matcher.find();
  while (more) {
    const start = matcher.start();
    const end = matcher.end();
    if (options.wholeWord && !isWholeWord(text, start, end)) {
      more = start < text.length && matcher.find(start + 1);
      continue;
    }
    found.push({
      start,
      end,
      text: plain ? replace : expand(replace, valuesOf(matcher, groups), named),
    });
    more = matcher.find();
  }
  return found;
}

/** The match and each group's text (empty when it took no part). */
function valuesOf(matcher: Matcher, groups: number): string[] {
  return Array.from(
    { length: groups + 1 },
    (_, group) => matcher.group(group) ?? "",
  );
}

/**
 * `replacement` with `$n`/`$nn` (two digits only when they name a group),
 * `$<name>`, `$&` and `$$` expanded; anything else stays as written.
 */
function expand(
  replacement: string,
  values: readonly string[],
  named: readonly [string, number][],
): string {
  return replacement.replace(
    /\$(\$|&|<([^>]*)>|(\d)(\d)?)/g,
    (whole, token: string, name?: string, first?: string, second?: string) => {
      if (token === "$") return "$";
      if (token === "&") return values[0] ?? "";
      if (name !== undefined) {
        const group = named.find(([known]) => known === name)?.[1];
        return group === undefined ? whole : values[group] ?? "";
      }
      const two = Number(`${first}${second ?? ""}`);
      if (second !== undefined && two >= 1 && two < values.length) {
        return values[two]!;
      }
      const one = Number(first);
      if (one >= 1 && one < values.length) return values[one]! + (second ?? "");
      return whole;
    },
  );
}

/**
 * The operation that makes `replacements` (in order, not overlapping) on
 * `text`, deleting and inserting only what each match and its replacement
 * do not share at either end.
 *
 * @param text The text the matches were found in.
 * @param replacements The matches and their replacements.
 * @returns The operation on `text`.
 *
 * @example
 * ```ts
 * import { replacementsOperation } from "./replacements.ts";
 * import assert from "node:assert/strict";
 *
 * const operation = replacementsOperation("a cat", [
 *   { start: 2, end: 5, text: "cap" },
 * ]);
 * assert.equal(operation.apply("a cat"), "a cap");
 * assert.deepEqual(operation.components, [4, "p", -1]);
 * ```
 */
export function replacementsOperation(
  text: string,
  replacements: readonly Replacement[],
): TextOperation {
  const operation = new TextOperation();
  let done = 0;
  for (const part of changedParts(text, replacements)) {
    operation.retain(codePointLength(text.slice(done, part.start)))
      .delete(codePointLength(text.slice(part.start, part.end)))
      .insert(part.text);
    done = part.end;
  }
  return operation.retain(codePointLength(text.slice(done)));
}

/**
 * The code point ranges of `text` that `replacements` change (each less
 * what match and replacement share at its ends), for conflict checks.
 *
 * @param text The text the matches were found in.
 * @param replacements The matches and their replacements.
 * @returns One `{start, end}` per replacement, in code points.
 *
 * @example
 * ```ts
 * import { replacedRanges } from "./replacements.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(
 *   replacedRanges("🎉 cat", [{ start: 3, end: 6, text: "cap" }]),
 *   [{ start: 4, end: 5 }],
 * );
 * ```
 */
export function replacedRanges(
  text: string,
  replacements: readonly Replacement[],
): { start: number; end: number }[] {
  let done = 0;
  let at = 0;
  return [...changedParts(text, replacements)].map((part) => {
    at += codePointLength(text.slice(done, part.start));
    const start = at;
    at += codePointLength(text.slice(part.start, part.end));
    done = part.end;
    return { start, end: at };
  });
}

/** Each replacement narrowed to what it changes. */
function* changedParts(
  text: string,
  replacements: readonly Replacement[],
): Generator<Replacement> {
  for (const { start, end, text: inserted } of replacements) {
    const { prefix, suffix } = commonEnds(text.slice(start, end), inserted);
    yield {
      start: start + prefix,
      end: end - suffix,
      text: inserted.slice(prefix, inserted.length - suffix),
    };
  }
}
