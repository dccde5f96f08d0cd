/**
 * Conflicts between an edit made against an older revision and what others
 * changed since. An edit conflicts when someone deleted or replaced text
 * inside the range it replaces, or inserted text strictly inside it; an
 * insertion point conflicts only when text changed on both of its sides.
 * Everything else is left to the operational-transform rebase, which keeps
 * both. The ranges are what an edit really replaces: text its old and new
 * strings share at either end is kept, so changes there are no conflict.
 *
 * @module
 */

import { codePointLength } from "../ot/code_points.ts";
import type { TextOperation } from "../ot/operation.ts";
import type { UserId } from "../rustpad/protocol.ts";

/**
 * A range an edit replaces, in code points of the text it was made on,
 * without the ends it keeps (as `locateEdits` reports its changes).
 */
export interface EditRange {
  /** The index of the edit it belongs to. */
  edit: number;
  /** Start, in code points. */
  start: number;
  /** End (exclusive), in code points; `start` for an insertion point. */
  end: number;
}

/** One operation of the history since, with its author. */
export interface AuthoredOperation {
  /** Who made it. */
  author: UserId;
  /** The operation, on the text the one before it left. */
  operation: TextOperation;
}

/** An edit whose range someone changed, from {@linkcode findConflicts}. */
export interface Conflict {
  /** The index of the edit. */
  edit: number;
  /** Who changed text in its range, in the order they did. */
  authors: UserId[];
  /** Where its range is now, in code points of the latest text. */
  start: number;
  /** Where it ends now (exclusive). */
  end: number;
}

/**
 * The edits whose ranges someone changed in `history`. Ranges of one edit
 * (several occurrences) give one conflict, spanning all its touched ranges.
 *
 * @param ranges The ranges the edits replace, in the base text.
 * @param history The operations applied since, oldest first, each on the
 * text the one before it left.
 * @returns One conflict per touched edit, by edit index.
 *
 * @example A person typed inside the word an agent replaces
 * ```ts
 * import { findConflicts } from "./conflicts.ts";
 * import { TextOperation } from "../ot/operation.ts";
 * import assert from "node:assert/strict";
 *
 * // "hello world": the agent replaces "world" (6..11); a person types "!" at 8.
 * const typed = { author: 7, operation: TextOperation.fromJSON([8, "!", 3]) };
 * assert.deepEqual(findConflicts([{ edit: 0, start: 6, end: 11 }], [typed]), [
 *   { edit: 0, authors: [7], start: 6, end: 12 },
 * ]);
 * assert.deepEqual(findConflicts([{ edit: 0, start: 0, end: 5 }], [typed]), []);
 * ```
 */
export function findConflicts(
  ranges: readonly EditRange[],
  history: readonly AuthoredOperation[],
): Conflict[] {
  const byEdit = new Map<number, Conflict>();
  for (const range of ranges) {
    const tracked = trackRange(range, history);
    if (tracked.authors.length === 0) continue;
    const known = byEdit.get(range.edit);
    if (known === undefined) {
      byEdit.set(range.edit, { edit: range.edit, ...tracked });
    } else {
      for (const author of tracked.authors) {
        if (!known.authors.includes(author)) known.authors.push(author);
      }
      known.start = Math.min(known.start, tracked.start);
      known.end = Math.max(known.end, tracked.end);
    }
  }
  return [...byEdit.values()].sort((a, b) => a.edit - b.edit);
}

interface Tracked {
  authors: UserId[];
  start: number;
  end: number;
}

/** Follow one range through the history, noting who touched it. */
function trackRange(
  range: EditRange,
  history: readonly AuthoredOperation[],
): Tracked {
  let { start, end } = range;
  const point = start === end;
  // For an insertion point: who changed its left and its right neighbour.
  const left = new Set<UserId>();
  const right = new Set<UserId>();
  const authors: UserId[] = [];
  const note = (author: UserId): void => {
    if (!authors.includes(author)) authors.push(author);
  };
  for (const { author, operation } of history) {
    let touched = false;
    let newStart = start;
    let newEnd = end;
    let at = 0;
    for (const component of operation.components) {
      if (typeof component === "string") {
        const length = codePointLength(component);
        if (point) {
          // Ours goes first at a tie, so text typed at the point is on its right.
          if (at < start) newStart += length;
          else if (at === start) right.add(author);
        } else {
          if (at > start && at < end) touched = true;
          if (at <= start) newStart += length;
          if (at < end) newEnd += length;
        }
      } else if (component > 0) {
        at += component;
      } else {
        const from = at;
        const to = at - component;
        if (point) {
          if (from < start && to >= start) left.add(author);
          if (from <= start && to > start) right.add(author);
        } else if (from < end && to > start) {
          touched = true;
        }
        newStart -= overlap(from, to, 0, start);
        newEnd -= overlap(from, to, 0, end);
        at = to;
      }
    }
    if (touched) note(author);
    if (point && left.size > 0 && right.size > 0) {
      for (const side of [left, right]) side.forEach(note);
    }
    start = newStart;
    end = point ? newStart : newEnd;
  }
  return { authors, start, end };
}

function overlap(a: number, b: number, c: number, d: number): number {
  return Math.max(0, Math.min(b, d) - Math.max(a, c));
}
