/**
 * The unified diff of one operation on a text, for showing an agent what a
 * write changed. It is computed from the ranges the operation changes, never
 * by comparing the two texts line by line; given a {@linkcode TextBuffer},
 * only the lines around the change are read, so a diff's cost does not grow
 * with the pad.
 *
 * @module
 */

import {
  advanceCodePoints,
  codePointLength,
  isLowSurrogate,
} from "../ot/code_points.ts";
import { TextOperation } from "../ot/operation.ts";
import type { TextBuffer } from "../ot/text_buffer.ts";
import { countLines, LineIndex } from "./lines.ts";

/** A text a diff can read lines of without all of it. */
export type DiffSource = string | Pick<TextBuffer, "window">;

/** Options for {@linkcode unifiedDiff}. */
export interface DiffOptions {
  /**
   * Unchanged lines shown around each change.
   *
   * @default {3}
   */
  context?: number;
  /**
   * Lines of output at most; past them the diff is cut.
   *
   * @default {200}
   */
  maxLines?: number;
  /**
   * UTF-16 units shown of one line at most; longer lines are cut with a
   * marker.
   *
   * @default {500}
   */
  maxLineLength?: number;
}

/** A diff, from {@linkcode unifiedDiff}. */
export interface Diff {
  /** The unified diff, `@@ -a,b +c,d @@` hunks; empty if nothing changed. */
  diff: string;
  /** Whether lines or hunks were left out to keep it short. */
  truncated: boolean;
}

/** A run of changed lines: old lines `oldStart`.. replaced by `added`. */
interface Region {
  oldStart: number;
  removed: string[];
  added: string[];
}

/**
 * The unified diff of `operation` applied to `text`, with line numbers in
 * the hunk headers, bounded in size.
 *
 * @param text The text the operation applies to: a string, or a buffer of
 * which only the lines around the change are read.
 * @param operation An operation on `text`.
 * @param options Context lines and bounds.
 * @returns The diff and whether it was cut.
 *
 * @example
 * ```ts
 * import { unifiedDiff } from "./diff.ts";
 * import { TextOperation } from "../ot/operation.ts";
 * import assert from "node:assert/strict";
 *
 * const op = TextOperation.fromJSON([2, -1, "B", 2]);
 * assert.deepEqual(unifiedDiff("a\nb\nc", op, { context: 1 }), {
 *   diff: "@@ -1,3 +1,3 @@\n a\n-b\n+B\n c",
 *   truncated: false,
 * });
 * ```
 */
export function unifiedDiff(
  text: DiffSource,
  operation: TextOperation,
  options: DiffOptions = {},
): Diff {
  if (typeof text === "string") return diffOf(text, operation, options, 0);
  const span = changedSpan(operation);
  if (span === undefined) return { diff: "", truncated: false };
  const window = text.window(span.start, span.end, options.context ?? 3);
  const end = window.start + codePointLength(window.text);
  return diffOf(
    window.text,
    within(operation, window.start, end),
    options,
    window.firstLine - 1,
  );
}

/** Where `operation` changes anything, in code points of its base text. */
function changedSpan(
  operation: TextOperation,
): { start: number; end: number } | undefined {
  const components = operation.components;
  if (operation.isNoop()) return undefined;
  const first = components[0];
  const last = components.at(-1);
  const start = typeof first === "number" && first > 0 ? first : 0;
  const tail = typeof last === "number" && last > 0 && components.length > 1
    ? last
    : 0;
  return { start, end: operation.baseLength - tail };
}

/** `operation` cut to the part of its base text from `start` to `end`. */
function within(
  operation: TextOperation,
  start: number,
  end: number,
): TextOperation {
  const components = operation.components;
  const cut = new TextOperation();
  components.forEach((component, i) => {
    if (typeof component === "string") cut.insert(component);
    else if (component < 0) cut.delete(-component);
    else if (i === 0) cut.retain(component - start);
    else if (i === components.length - 1) {
      cut.retain(component - (operation.baseLength - end));
    } else cut.retain(component);
  });
  return cut;
}

/** The diff of `operation` on `text`, whose first line is `lineOffset` + 1. */
function diffOf(
  text: string,
  operation: TextOperation,
  options: DiffOptions,
  lineOffset: number,
): Diff {
  const { context = 3, maxLines = 200, maxLineLength = 500 } = options;
  const index = new LineIndex(text);
  const regions = changedRegions(text, operation, index);
  if (regions.length === 0) return { diff: "", truncated: false };
  const lastLine = countLines(text);
  const out: string[] = [];
  let truncated = false;
  const show = ([prefix, line, from]: BodyLine): void => {
    let shown = line.endsWith("\r") ? line.slice(0, -1) : line;
    if (shown.length > maxLineLength) {
      truncated = true;
      // Start a little before where the line changed, so the change shows.
      let start = Math.max(
        0,
        Math.min(from - 100, shown.length - maxLineLength),
      );
      if (start > 0 && isLowSurrogate(shown.charCodeAt(start))) start--;
      const rest = shown.length - start - maxLineLength;
      shown = `${start > 0 ? `[… ${start} UTF-16 units cut] ` : ""}${
        shown.slice(start, start + maxLineLength)
      }${rest > 0 ? `… [line cut: ${rest} more UTF-16 units]` : ""}`;
    }
    out.push(prefix + shown);
  };
  const oldLine = (line: number): string =>
    text.slice(index.start(line), index.end(line));
  let delta = 0;
  for (let first = 0; first < regions.length;) {
    // Regions whose context would touch share a hunk.
    let last = first;
    while (
      last + 1 < regions.length &&
      regions[last + 1]!.oldStart - end(regions[last]!) <= 2 * context
    ) last++;
    const from = Math.max(1, regions[first]!.oldStart - context);
    const to = Math.max(
      Math.min(lastLine, end(regions[last]!) + context - 1),
      end(regions[last]!) - 1,
    );
    const body: BodyLine[] = [];
    let added = 0;
    let line = from;
    for (let r = first; r <= last; r++) {
      const region = regions[r]!;
      for (; line < region.oldStart; line++) {
        body.push([" ", oldLine(line), 0]);
      }
      region.removed.forEach((removed, i) =>
        body.push(["-", removed, differsAt(removed, region.added[i])])
      );
      region.added.forEach((addition, i) =>
        body.push(["+", addition, differsAt(addition, region.removed[i])])
      );
      added += region.added.length - region.removed.length;
      line = end(region);
    }
    for (; line <= to; line++) body.push([" ", oldLine(line), 0]);
    const oldCount = to - from + 1;
    const newCount = oldCount + added;
    const newFrom = from + delta;
    delta += added;
    if (out.length + 1 + body.length > maxLines) {
      truncated = true;
      // Room for the header and the closing marker.
      const room = maxLines - out.length - 2;
      if (room > 0) {
        out.push(
          header(from + lineOffset, oldCount, newFrom + lineOffset, newCount),
        );
        body.slice(0, room).forEach(show);
      }
      out.push(`… diff cut at ${maxLines} lines`);
      break;
    }
    out.push(
      header(from + lineOffset, oldCount, newFrom + lineOffset, newCount),
    );
    body.forEach(show);
    first = last + 1;
  }
  return { diff: out.join("\n"), truncated };
}

/** A line of a hunk: its prefix, its text, and where it starts to differ. */
type BodyLine = [prefix: string, text: string, from: number];

/** Where `line` first differs from `other` (0 without one). */
function differsAt(line: string, other: string | undefined): number {
  if (other === undefined) return 0;
  let at = 0;
  const shorter = Math.min(line.length, other.length);
  while (at < shorter && line.charCodeAt(at) === other.charCodeAt(at)) at++;
  return at;
}

/** The old line after a region. */
function end(region: Region): number {
  return region.oldStart + region.removed.length;
}

function header(from: number, old: number, to: number, count: number): string {
  // As diff(1): an empty side names the line before it.
  return `@@ -${old === 0 ? from - 1 : from},${old} +${
    count === 0 ? to - 1 : to
  },${count} @@`;
}

/** The changed lines, in order, with unchanged leading and trailing lines trimmed. */
function changedRegions(
  text: string,
  operation: TextOperation,
  index: LineIndex,
): Region[] {
  // Changes as UTF-16 ranges of `text`, each with what it inserts.
  const changes: { start: number; end: number; insert: string }[] = [];
  let at = 0;
  for (const component of operation.components) {
    if (typeof component === "string") {
      const last = changes.at(-1);
      if (last && last.end === at) last.insert += component;
      else changes.push({ start: at, end: at, insert: component });
    } else if (component > 0) {
      at = advanceCodePoints(text, at, component);
    } else {
      const to = advanceCodePoints(text, at, -component);
      const last = changes.at(-1);
      if (last && last.end === at) last.end = to;
      else changes.push({ start: at, end: to, insert: "" });
      at = to;
    }
  }
  const regions: Region[] = [];
  for (let i = 0; i < changes.length;) {
    const firstLine = index.lineOf(changes[i]!.start);
    let lastLine = index.lineOf(changes[i]!.end);
    let j = i;
    // Changes that share a line become one region.
    while (
      j + 1 < changes.length && index.lineOf(changes[j + 1]!.start) <= lastLine
    ) {
      j++;
      lastLine = index.lineOf(changes[j]!.end);
    }
    const lineStart = index.start(firstLine);
    const lineEnd = index.end(lastLine);
    let replaced = "";
    let done = lineStart;
    for (let k = i; k <= j; k++) {
      const change = changes[k]!;
      replaced += text.slice(done, change.start) + change.insert;
      done = change.end;
    }
    replaced += text.slice(done, lineEnd);
    const before = text.slice(lineStart, lineEnd).split("\n");
    const after = replaced.split("\n");
    if (lastLine === index.count) {
      // A final line break ends the last line rather than starting one.
      if (text === "" || text.endsWith("\n")) before.pop();
      if (replaced === "" || replaced.endsWith("\n")) after.pop();
    }
    // Lines the change left as they were are context, not change.
    let head = 0;
    const shorter = Math.min(before.length, after.length);
    while (head < shorter && before[head] === after[head]) head++;
    let tail = 0;
    while (
      tail < shorter - head &&
      before[before.length - 1 - tail] === after[after.length - 1 - tail]
    ) tail++;
    const removed = before.slice(head, before.length - tail);
    const added = after.slice(head, after.length - tail);
    if (removed.length > 0 || added.length > 0) {
      regions.push({ oldStart: firstLine + head, removed, added });
    }
    i = j + 1;
  }
  return regions;
}
