/**
 * The unified diff of one operation on a text, for showing an agent what a
 * write changed. It is computed from the ranges the operation changes, never
 * by comparing the two texts line by line, so it stays linear on long pads.
 *
 * @module
 */

import { advanceCodePoints, isLowSurrogate } from "../ot/code_points.ts";
import { countLines, LineIndex } from "./lines.ts";
import type { TextOperation } from "../ot/operation.ts";

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
 * @param text The text the operation applies to.
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
  text: string,
  operation: TextOperation,
  options: DiffOptions = {},
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
        out.push(header(from, oldCount, newFrom, newCount));
        body.slice(0, room).forEach(show);
      }
      out.push(`… diff cut at ${maxLines} lines`);
      break;
    }
    out.push(header(from, oldCount, newFrom, newCount));
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
