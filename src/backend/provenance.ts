/**
 * Provenance: who wrote what of a pad's text, and what changed since a
 * revision. Each pad's session gets an authorship index on first use,
 * built from its revision log and kept up to date as operations arrive
 * (not recomputed per call); a question walks the runs and the text once.
 *
 * @module
 */

import type { UserId } from "../rustpad/protocol.ts";
import type { PadSession } from "../rustpad/session.ts";
import type { TextPlace } from "../ot/mod.ts";
import { Authorship } from "./_authorship.ts";

const indexes = new WeakMap<PadSession, Authorship>();

/** A stretch of the current text written since a revision. */
export interface ChangedStretch {
  /** UTF-16 offsets in the text. */
  readonly from: number;
  readonly to: number;
  /** Its length in code points. */
  readonly length: number;
  readonly startLine: number;
  readonly endLine: number;
  /** Who wrote it, with the latest revision each wrote there. */
  readonly writers: ReadonlyMap<UserId | undefined, number>;
}

/** Lines last written by one author at one revision. */
export interface LineWriter {
  readonly startLine: number;
  readonly endLine: number;
  /** `undefined` when written before the history known. */
  readonly author: UserId | undefined;
  readonly revision: number;
}

/** What {@linkcode provenance} answers, on the session's server text. */
export interface Provenance {
  readonly revision: number;
  /** The text the offsets refer to. */
  readonly text: string;
  /** The oldest revision whose writers are known. */
  readonly knownFrom: number;
  readonly changed: readonly ChangedStretch[];
  /** For the lines asked, if any. */
  readonly lines: readonly LineWriter[];
  /** The text's number of lines. */
  readonly lineCount: number;
}

/** The index of `session`, made on first use and kept from then on. */
function indexOf(session: PadSession): Authorship {
  let index = indexes.get(session);
  if (index === undefined) {
    const from = session.oldestRevision;
    const entries = session.operationsSince(from);
    const made = new Authorship(
      entries[0]?.operation.baseLength ?? session.serverLength,
      from,
    );
    for (const entry of entries) made.apply(entry.operation, entry.author);
    session.subscribe((event) => {
      if (
        event.type === "operation" && event.entry.revision === made.revision
      ) {
        made.apply(event.entry.operation, event.entry.author);
      }
    });
    indexes.set(session, index = made);
  }
  // Operations folded in whose events are still queued.
  if (index.revision < session.revision) {
    for (const entry of session.operationsSince(index.revision)) {
      index.apply(entry.operation, entry.author);
    }
  }
  return index;
}

/**
 * What of `session`'s server text was written after `since`, and who last
 * wrote each of lines `startLine` to `endLine` (none if `endLine` is less).
 *
 * @param session The pad's session.
 * @param since A revision: stretches written after it are reported.
 * @param startLine The first line to attribute, from 1.
 * @param endLine The last, inclusive.
 * @returns The stretches and line writers.
 *
 * @example Three writes, one line each
 * ```ts
 * import { provenance } from "./provenance.ts";
 * import { SessionPool } from "../rustpad/session_pool.ts";
 * import { TextOperation } from "../ot/operation.ts";
 * import { startPadServer } from "../testing/mod.ts";
 * import assert from "node:assert/strict";
 *
 * await using server = await startPadServer();
 * await using pool = new SessionPool(server.url);
 * await pool.edit("notes", () => TextOperation.fromJSON(["a\n"]));
 * await pool.edit("notes", () => TextOperation.fromJSON([2, "b\n"]));
 * const answer = provenance(await pool.get("notes"), 1, 1, 3);
 * assert.deepEqual(answer.changed.map((c) => [c.startLine, c.endLine]), [[2, 2]]);
 * assert.deepEqual(answer.lines.map((l) => [l.startLine, l.revision]), [[1, 1], [2, 2]]);
 * ```
 */
export function provenance(
  session: PadSession,
  since: number,
  startLine: number,
  endLine: number,
): Provenance {
  const index = indexOf(session);
  const text = session.serverText;
  // Places are found in the text's chunks: a question about the last few
  // revisions of a long pad costs its runs and chunks, not a walk of its
  // text.
  const locator = session.serverBuffer().locator();
  const lineCount = locator.lineCount;
  const last = Math.min(endLine, lineCount);
  const changed: ChangedStretch[] = [];
  const latest: { author: UserId | undefined; revision: number }[] = [];
  let open: {
    from: number;
    to: number;
    length: number;
    startLine: number;
    endLine: number;
    writers: Map<UserId | undefined, number>;
  } | undefined;
  const close = () => {
    if (open !== undefined) changed.push(open);
    open = undefined;
  };
  let attributing = last >= startLine;
  let position = 0;
  // Runs are contiguous: where one ends the next starts, located once.
  let located: TextPlace | undefined;
  for (const run of index.runs()) {
    const from = position;
    position += run.length;
    const isChanged = run.revision > since;
    if (!isChanged) close();
    if (!isChanged && !attributing) {
      located = undefined;
      continue;
    }
    const start = located ?? locator.locate(from);
    const end = located = locator.locate(position);
    // The line of the run's last unit: one ending with a `\n` ends on it.
    const endsOn = end.unit > start.unit && text.charCodeAt(end.unit - 1) === 10
      ? end.line - 1
      : end.line;
    if (isChanged) {
      open ??= {
        from: start.unit,
        to: start.unit,
        length: 0,
        startLine: start.line,
        endLine: start.line,
        writers: new Map(),
      };
      if (end.unit > start.unit) open.endLine = endsOn;
      open.to = end.unit;
      open.length += run.length;
      open.writers.set(
        run.author,
        Math.max(run.revision, open.writers.get(run.author) ?? 0),
      );
    }
    if (start.line > last) attributing = false;
    if (!attributing || end.unit === start.unit) continue;
    for (let l = Math.max(start.line, startLine); l <= endsOn; l++) {
      if (l > last) break;
      const slot = latest[l - startLine];
      if (slot === undefined || run.revision > slot.revision) {
        latest[l - startLine] = { author: run.author, revision: run.revision };
      }
    }
  }
  close();
  return {
    revision: index.revision,
    text,
    knownFrom: session.oldestRevision,
    changed,
    lines: groupLines(latest, startLine),
    lineCount,
  };
}

/** Consecutive lines with one writer, as ranges. */
function groupLines(
  latest:
    readonly ({ author: UserId | undefined; revision: number } | undefined)[],
  startLine: number,
): LineWriter[] {
  const groups: LineWriter[] = [];
  latest.forEach((writer, offset) => {
    if (writer === undefined) return;
    const line = startLine + offset;
    const previous = groups.at(-1);
    if (
      previous?.endLine === line - 1 && previous.author === writer.author &&
      previous.revision === writer.revision
    ) {
      groups[groups.length - 1] = { ...previous, endLine: line };
    } else groups.push({ startLine: line, endLine: line, ...writer });
  });
  return groups;
}
