/**
 * Where people are in a pad, as pure functions: code-point offsets (as
 * Rustpad sends cursors) to lines, columns and offsets in UTF-16 units (as
 * the tools report them), the ranges an operation changes, and which people's cursors
 * fall inside or next to them. The live tracking that feeds these lives in
 * {@link ../backend/live_pads.ts | LivePads}.
 *
 * @module
 */

import type { TextLocator, TextOperation } from "../ot/mod.ts";

/**
 * A place in a text: 1-based line, and column and offset in UTF-16 units,
 * as JavaScript strings and the tools count them.
 */
export interface TextPosition {
  /** 1-based line number. */
  line: number;
  /** 1-based column, counted in UTF-16 units. */
  column: number;
  /** 0-based offset in UTF-16 units. */
  offset: number;
}

/** A range of code points, `start` included, `end` excluded. */
export interface CodePointRange {
  /** First code point of the range. */
  start: number;
  /** Code point after the range (equal to `start` for an insertion point). */
  end: number;
}

/** A person in a pad, with cursor offsets in the text being checked. */
export interface PersonCursors {
  /** Display name (untrusted). */
  name: string;
  /** Cursor offsets in code points. */
  cursors: readonly number[];
  /** Selections as `[start, end]` offsets. */
  selections: readonly (readonly [number, number])[];
}

/** A person whose cursor {@linkcode peopleInRanges} found. */
export interface PersonInRange {
  /** Display name (untrusted). */
  name: string;
  /** Where the cursor is. */
  position: TextPosition;
  /** On a changed line or inside the range, or on the line next to it. */
  where: "inside" | "next to";
}

/** Options for {@linkcode peopleInRanges}. */
export interface PeopleInRangesOptions {
  /**
   * `"offset"`: a cursor counts when it lies within a range, ends included.
   * `"line"`: when it is on a line the range touches ("inside") or on the
   * line just before or after ("next to").
   *
   * @default {"offset"}
   */
  by?: "offset" | "line";
}

/**
 * Line, column and UTF-16 offset of each code-point offset in `text`, in
 * one pass: over the string up to the last offset, or, given the text's
 * locator ({@linkcode TextBuffer.locator}), over its chunk list, which a
 * long text's places cost far less than its string.
 *
 * @param text The text, or a fresh locator over it.
 * @param offsets Code-point offsets; beyond the end they clamp to it.
 * @returns One position per offset, in the same order.
 *
 * @example
 * ```ts
 * import { positionsOf } from "../mod.ts";
 * import assert from "node:assert/strict";
 *
 * // Code point 4 is "c", after "🎉" (two UTF-16 units).
 * assert.deepEqual(positionsOf("ab\n🎉c", [4]), [{ line: 2, column: 3, offset: 5 }]);
 * ```
 */
export function positionsOf(
  text: string | TextLocator,
  offsets: readonly number[],
): TextPosition[] {
  const order = offsets.map((offset, index) => ({ offset, index }))
    .sort((a, b) => a.offset - b.offset);
  const positions = new Array<TextPosition>(offsets.length);
  if (typeof text !== "string") {
    for (const { offset, index } of order) {
      const { line, column, unit } = text.locate(offset);
      positions[index] = { line, column, offset: unit };
    }
    return positions;
  }
  let line = 1;
  let lineStart = 0;
  let offset = 0;
  let unit = 0;
  let next = 0;
  const emit = () => {
    positions[order[next]!.index] = {
      line,
      column: unit - lineStart + 1,
      offset: unit,
    };
    next++;
  };
  for (const character of text) {
    while (next < order.length && order[next]!.offset <= offset) emit();
    if (next === order.length) break;
    offset++;
    unit += character.length;
    if (character === "\n") {
      line++;
      lineStart = unit;
    }
  }
  while (next < order.length) emit();
  return positions;
}

/**
 * The ranges of the resulting text that `operation` wrote: each insert, and
 * an empty range where something was deleted. Adjacent ranges merge.
 *
 * @param operation The operation.
 * @returns Ranges in the text after the operation, in order.
 *
 * @example
 * ```ts
 * import { changedRanges, TextOperation } from "../mod.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(changedRanges(TextOperation.fromJSON([2, "xy", -3, 1])), [
 *   { start: 2, end: 4 },
 * ]);
 * ```
 */
export function changedRanges(operation: TextOperation): CodePointRange[] {
  return rangesOf(operation, "after");
}

/**
 * The ranges of the original text that `operation` touches: each deletion,
 * and an empty range where something is inserted. Adjacent ranges merge.
 *
 * @param operation The operation.
 * @returns Ranges in the text before the operation, in order.
 *
 * @example
 * ```ts
 * import { rangesTouched, TextOperation } from "../mod.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(rangesTouched(TextOperation.fromJSON([2, "xy", -3, 1])), [
 *   { start: 2, end: 5 },
 * ]);
 * ```
 */
export function rangesTouched(operation: TextOperation): CodePointRange[] {
  return rangesOf(operation, "before");
}

function rangesOf(
  operation: TextOperation,
  side: "before" | "after",
): CodePointRange[] {
  const ranges: CodePointRange[] = [];
  let position = 0;
  const add = (length: number) => {
    const last = ranges.at(-1);
    if (last && last.end === position) last.end += length;
    else ranges.push({ start: position, end: position + length });
    position += length;
  };
  for (const component of operation.components) {
    if (typeof component === "number" && component > 0) {
      position += component;
    } else if (typeof component === "string") {
      add(side === "after" ? [...component].length : 0);
    } else {
      add(side === "before" ? -component : 0);
    }
  }
  return ranges;
}

/**
 * Where a caret goes after `operation`: the end of the last thing it
 * changed, in the resulting text. A no-op leaves it at 0.
 *
 * @param operation The operation.
 * @returns A code-point offset in the text after the operation.
 *
 * @example
 * ```ts
 * import { caretAfter, TextOperation } from "../mod.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(caretAfter(TextOperation.fromJSON([3, "abc", 4])), 6);
 * ```
 */
export function caretAfter(operation: TextOperation): number {
  return changedRanges(operation).at(-1)?.end ?? 0;
}

/**
 * The people whose cursor or selection end lies in or near one of `ranges`
 * of `text`. Each person appears at most once per range, at their first
 * matching position; an "inside" match wins over a "next to" one.
 *
 * @param text The text the offsets and ranges refer to, or a fresh locator
 * over it (see {@linkcode positionsOf}).
 * @param people The people and their cursors in `text`.
 * @param ranges The ranges to check.
 * @param options Match by offset (default) or by line.
 * @returns The matches, people in the order given.
 *
 * @example A caret inside a range about to be replaced
 * ```ts
 * import { peopleInRanges } from "../mod.ts";
 * import assert from "node:assert/strict";
 *
 * const people = [{ name: "Ann", cursors: [5], selections: [] }];
 * const hits = peopleInRanges("hello world", people, [{ start: 4, end: 8 }]);
 * assert.deepEqual(hits, [{
 *   name: "Ann",
 *   position: { line: 1, column: 6, offset: 5 },
 *   where: "inside",
 * }]);
 * ```
 */
export function peopleInRanges(
  text: string | TextLocator,
  people: readonly PersonCursors[],
  ranges: readonly CodePointRange[],
  options: PeopleInRangesOptions = {},
): PersonInRange[] {
  if (ranges.length === 0) return [];
  const byLine = options.by === "line";
  const offsetsOf = (person: PersonCursors) => [
    ...person.cursors,
    ...person.selections.flat(),
  ];
  const all = people.flatMap(offsetsOf);
  const bounds = ranges.flatMap((range) => [range.start, range.end]);
  const positions = positionsOf(text, [...all, ...bounds]);
  const rangeLines = ranges.map((_, index) => ({
    first: positions[all.length + 2 * index]!.line,
    last: positions[all.length + 2 * index + 1]!.line,
  }));
  const hits: PersonInRange[] = [];
  let index = 0;
  for (const person of people) {
    const mine = positions.slice(index, index + offsetsOf(person).length);
    index += mine.length;
    let best: PersonInRange | undefined;
    for (const position of mine) {
      for (const [r, range] of ranges.entries()) {
        const { first, last } = rangeLines[r]!;
        let where: PersonInRange["where"] | undefined;
        if (byLine) {
          if (position.line >= first && position.line <= last) {
            where = "inside";
          } else if (position.line >= first - 1 && position.line <= last + 1) {
            where = "next to";
          }
        } else if (
          position.offset >= range.start && position.offset <= range.end
        ) {
          where = "inside";
        }
        if (
          where && (!best || (best.where === "next to" && where === "inside"))
        ) {
          best = { name: person.name, position, where };
        }
      }
    }
    if (best) hits.push(best);
  }
  return hits;
}

/**
 * One sentence naming who is where, for a tool's text result.
 *
 * @param hits From {@linkcode peopleInRanges}.
 * @returns Such as `Ann is inside the change (line 3, column 1)`, or `""`.
 *
 * @example
 * ```ts
 * import { describePeople } from "../mod.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(
 *   describePeople([{ name: "Ann", position: { line: 3, column: 1, offset: 9 }, where: "next to" }]),
 *   'A person\'s cursor is next to the change: "Ann" at line 3, column 1.',
 * );
 * ```
 */
export function describePeople(hits: readonly PersonInRange[]): string {
  if (hits.length === 0) return "";
  const parts = hits.map((hit) =>
    `${JSON.stringify(hit.name)} ${
      hit.where === "inside" ? "inside" : "next to it"
    } at line ${hit.position.line}, column ${hit.position.column}`
  );
  if (hits.length === 1) {
    const hit = hits[0]!;
    return `A person's cursor is ${hit.where} the change: ${
      JSON.stringify(hit.name)
    } at line ${hit.position.line}, column ${hit.position.column}.`;
  }
  return `People's cursors are at the change: ${parts.join("; ")}.`;
}
