// Where a regular expression matches, found a few lines at a time. RE2's
// test() runs a DFA, fast; finding where it matches needs its NFA, about
// five times slower per character, or on a short input its bit-state
// backtracker, faster again. A pattern that can never consume a line break
// (true of most: `.` stops at one) matches within lines only, so a text can be
// cut at line ends into blocks of a few hundred units: the DFA skips the
// blocks without a match, and matches are found in the others, each on its
// own. On a 200,000-code-point pad with 148 sparse matches this takes a
// fifth of the time of one pass of the NFA over the whole text, and gives
// the same spans (tests/text/search_test.ts checks both ways agree).
//
// Cutting is exact only when nothing in the pattern can see past the line:
// no instruction that consumes "\n", no \A or \z (begin or end of the whole
// text), no lookbehind. A block starts after a "\n" (or at the start), so
// `^` and `\b` see at its start what they would in the whole text; an
// empty match at a block's very end is left to the next block, which sees
// the line that follows. Patterns that match the empty string match at
// almost every position, and are faster in one pass.

import type { RE2JS } from "re2js";

/** Blocks are cut at the first line end past this many UTF-16 units. */
const BLOCK_UNITS = 256;

const NEWLINE = 10;
// re2js's instruction codes and empty-width flags (re2js 2.10, as pinned).
const RUNE = 8;
const RUNE1 = 9;
const RUNE_ANY = 10;
const EMPTY_WIDTH = 4;
const LB_WRITE = 12;
const LB_CHECK = 13;
const EMPTY_BEGIN_TEXT = 4;
const EMPTY_END_TEXT = 8;

interface Instruction {
  op: number;
  arg: number;
  matchRune(rune: number): boolean;
}

/** Whether every match of `expression` lies within one line. */
export function matchesWithinLines(expression: RE2JS): boolean {
  const instructions = (expression as unknown as {
    re2Input: { prog: { inst: Instruction[] } };
  }).re2Input.prog.inst;
  for (const instruction of instructions) {
    const { op, arg } = instruction;
    if (op === RUNE_ANY || op === LB_WRITE || op === LB_CHECK) return false;
    if ((op === RUNE || op === RUNE1) && instruction.matchRune(NEWLINE)) {
      return false;
    }
    if (
      op === EMPTY_WIDTH && (arg & (EMPTY_BEGIN_TEXT | EMPTY_END_TEXT)) !== 0
    ) return false;
  }
  return !expression.test("");
}

/**
 * The spans (UTF-16 units) where `expression` matches `text`, as its
 * matcher would find them in one pass; `expression` must match within
 * lines only ({@linkcode matchesWithinLines}).
 */
export function* lineSpans(
  text: string,
  expression: RE2JS,
): Generator<[number, number]> {
  for (let start = 0; start < text.length;) {
    const newline = text.indexOf(
      "\n",
      Math.min(text.length, start + BLOCK_UNITS),
    );
    const end = newline === -1 ? text.length : newline + 1;
    const block = text.slice(start, end);
    if (expression.test(block)) {
      const matcher = expression.matcher(block);
      while (matcher.find()) {
        if (matcher.start() === block.length && end < text.length) break;
        yield [start + matcher.start(), start + matcher.end()];
      }
    }
    start = end;
  }
}
