/**
 * A batch of edits located in one text and turned into one operation: exact
 * strings (`old_string` → `new_string`) and whole-line ranges
 * (`start_line`..`end_line` → `new_string`). All are located in the same text
 * before anything is built, so the batch is all or nothing, and edits that
 * overlap are refused rather than guessed at. Each change keeps what the
 * text it replaces and its new text share at either end, so extending a
 * string inserts only what is new.
 *
 * @module
 */

import { commonEnds } from "./common_ends.ts";
import { findOccurrences } from "./edits.ts";
import {
  asCrlf,
  inLineEndingOf,
  notFoundHint,
  withoutLineNumbers,
} from "./lines.ts";
import { TextOperation } from "../ot/operation.ts";
import type { TextBuffer } from "../ot/text_buffer.ts";
import {
  BufferSource,
  type EditSource,
  StringSource,
} from "./_edit_sources.ts";

/** Replace an exact string: once, or every occurrence with `replace_all`. */
export interface StringEdit {
  /** The exact text to replace. */
  old_string: string;
  /** Its replacement. */
  new_string: string;
  /** Replace every occurrence; otherwise it must occur once. */
  replace_all?: boolean | undefined;
}

/**
 * Replace lines `start_line` to `end_line` (1-based, inclusive) with
 * `new_string`; `end_line = start_line - 1` inserts before `start_line`.
 */
export interface LineEdit {
  /** The first line replaced (1-based). */
  start_line: number;
  /** The last line replaced, inclusive; `start_line - 1` to insert. */
  end_line: number;
  /** The lines to put there; a final line break is added if missing. */
  new_string: string;
}

/** One edit of a batch. */
export type BatchEdit = StringEdit | LineEdit;

/**
 * One place a batch changes, in the text it was located in: only what
 * really changes there, as what the edit replaces and what it puts in its
 * place may share a start and an end, which are kept.
 */
export interface LocatedChange {
  /** The index of the edit in the batch. */
  edit: number;
  /** Where the text really replaced starts, in UTF-16 units. */
  start: number;
  /** Where it ends (exclusive), in UTF-16 units; `start` for an insertion. */
  end: number;
  /** Where it starts, in code points (Rustpad's unit). */
  codePointStart: number;
  /** Where it ends, in code points. */
  codePointEnd: number;
  /** The text put there (without the kept ends). */
  text: string;
}

/** A batch located in one text, from {@linkcode locateEdits}. */
export interface LocatedBatch {
  /** Every place changed, in text order. */
  changes: LocatedChange[];
  /** All changes as one operation on the text. */
  operation: TextOperation;
  /** Code points the batch really removes (kept ends not included). */
  deleted: number;
  /** Whether an edit with `replace_all` changes more than one place. */
  replacesMany: boolean;
}

/**
 * An edit of a batch that cannot be located; `edit` is its index.
 *
 * @example
 * ```ts
 * import { BatchEditError, locateEdits } from "./batch_edits.ts";
 * import assert from "node:assert/strict";
 *
 * assert.throws(
 *   () => locateEdits("a b", [{ old_string: "c", new_string: "d" }]),
 *   (error) => error instanceof BatchEditError && error.edit === 0,
 * );
 * ```
 */
export class BatchEditError extends Error {
  /** The index of the edit at fault. */
  readonly edit: number;

  /**
   * Make an error about one edit.
   *
   * @param edit The index of the edit at fault.
   * @param message What was wrong and what to do.
   */
  constructor(edit: number, message: string) {
    super(message);
    this.name = "BatchEditError";
    this.edit = edit;
  }
}

/**
 * Locate every edit of a batch in `text` and build the one operation that
 * makes them all.
 *
 * @param text The text the edits were made against: a string, or a
 * {@linkcode TextBuffer}, joined only if a string edit must search it.
 * @param edits The edits, in any order.
 * @param where Words naming that text in errors, such as "at revision 7".
 * @param length The length of `text` in code points, if known: the rest
 * after the last change is then not counted.
 * @returns The changes in text order and the operation.
 * @throws {BatchEditError} If an edit matches nowhere, matches several
 * places without `replace_all`, names lines out of range, or overlaps
 * another; nothing is built.
 *
 * @example
 * ```ts
 * import { locateEdits } from "./batch_edits.ts";
 * import assert from "node:assert/strict";
 *
 * const text = "one\ntwo\nthree\n";
 * const batch = locateEdits(text, [
 *   { old_string: "one", new_string: "1" },
 *   { start_line: 3, end_line: 3, new_string: "3" },
 * ]);
 * assert.equal(batch.operation.apply(text), "1\ntwo\n3\n");
 * ```
 */
export function locateEdits(
  text: string | TextBuffer,
  edits: readonly BatchEdit[],
  where = "in the pad",
  length?: number,
): LocatedBatch {
  refuseNestedStrings(edits, where);
  // Line edits find their lines in a buffer's chunks; a search needs it all.
  const source: EditSource =
    typeof text === "string" || edits.some((edit) => "old_string" in edit)
      ? new StringSource(text.toString())
      : new BufferSource(text);
  const whole = source instanceof StringSource ? source.text : undefined;
  const found: Omit<LocatedChange, "codePointStart" | "codePointEnd">[] = [];
  let replacesMany = false;
  // Places that do not overlap number at most one per UTF-16 unit, so past
  // that some overlap: the search stops there, whatever the batch asks.
  let placesLeft = whole?.length ?? 0;
  for (const [index, edit] of edits.entries()) {
    if ("old_string" in edit) {
      // A batch with a string edit is located in the whole text.
      const located = locateString(whole!, edit, index, where, placesLeft);
      placesLeft -= located.length;
      if (located.length > 1) replacesMany = true;
      // One by one: a spread of 100,000+ arguments overflows the stack.
      for (const change of located) found.push(change);
    } else {
      found.push(locateLines(source, edit, index, where));
    }
  }
  found.sort((a, b) => a.start - b.start || a.end - b.end);
  for (let i = 1; i < found.length; i++) {
    const previous = found[i - 1]!;
    const next = found[i]!;
    if (next.start < previous.end || next.start === previous.start) {
      const [first, second] = [previous.edit, next.edit].sort((a, b) => a - b);
      throw new BatchEditError(
        second!,
        `Cannot apply edits[${first}] and edits[${second}] as they overlap ${where} (both touch line ${
          source.lineOf(next.start)
        }): make them one edit, or make each cover separate text`,
      );
    }
  }
  // Narrowed only now: overlap is judged on the text each edit names.
  const operation = new TextOperation();
  const changes: LocatedChange[] = [];
  let done = 0;
  let codePoint = 0;
  let deleted = 0;
  for (const located of found) {
    const replaced = source.slice(located.start, located.end);
    const { prefix, suffix } = commonEnds(replaced, located.text);
    const start = located.start + source.measure(replaced.slice(0, prefix));
    const end = located.end -
      source.measure(replaced.slice(replaced.length - suffix));
    const inserted = located.text.slice(prefix, located.text.length - suffix);
    const kept = source.points(done, start);
    const removed = source.points(start, end);
    operation.retain(kept).delete(removed).insert(inserted);
    codePoint += kept;
    changes.push({
      edit: located.edit,
      start: source.unit(start),
      end: source.unit(end),
      codePointStart: codePoint,
      codePointEnd: codePoint + removed,
      text: inserted,
    });
    codePoint += removed;
    deleted += removed;
    done = end;
  }
  operation.retain(
    length === undefined
      ? source.points(done, source.length)
      : length - codePoint,
  );
  return { changes, operation, deleted, replacesMany };
}

/**
 * Refuse, before any search, string edits that overlap wherever they
 * apply: the same old_string twice, or one inside another's (each place
 * the longer matches holds a match of the shorter, or one overlapping it).
 * A shorter one with a line break is left to the search, as it may be
 * matched with CRLF line breaks and the longer not, or the other way.
 */
function refuseNestedStrings(edits: readonly BatchEdit[], where: string): void {
  const strings = edits.flatMap((edit, index) =>
    "old_string" in edit ? [{ index, text: edit.old_string }] : []
  );
  for (const outer of strings) {
    for (const inner of strings) {
      if (inner.index === outer.index) continue;
      const same = inner.text === outer.text;
      const nested = same
        ? inner.index < outer.index
        : inner.text.length < outer.text.length &&
          !inner.text.includes("\n") && outer.text.includes(inner.text);
      if (!nested) continue;
      const [first, second] = [inner.index, outer.index].sort((a, b) => a - b);
      throw new BatchEditError(
        second!,
        `Cannot apply edits[${first}] and edits[${second}] as they overlap wherever ${
          same ? "they apply" : `edits[${outer.index}] applies`
        } ${where}: ${
          same
            ? "both have the same old_string"
            : `edits[${inner.index}]'s old_string occurs inside edits[${outer.index}]'s`
        }; make them one edit, or make each cover separate text`,
      );
    }
  }
}

function locateString(
  text: string,
  edit: StringEdit,
  index: number,
  where: string,
  placesLeft: number,
): Omit<LocatedChange, "codePointStart" | "codePointEnd">[] {
  let search = edit.old_string;
  let replace = inLineEndingOf(edit.new_string, text);
  // One more than allowed, to know the bound is passed.
  let offsets = findOccurrences(text, search, placesLeft + 1);
  // read_lines hides the \r of CRLF lines: match what the agent saw.
  const crlfSearch = offsets.length === 0 ? asCrlf(search) : undefined;
  if (crlfSearch !== undefined) {
    const retried = findOccurrences(text, crlfSearch, placesLeft + 1);
    if (retried.length > 0) {
      [search, replace, offsets] = [
        crlfSearch,
        asCrlf(replace) ?? replace,
        retried,
      ];
    }
  }
  if (offsets.length > placesLeft) {
    throw new BatchEditError(
      index,
      `Cannot apply edits[${index}] as the old_strings up to it match more places ${where} than the text has UTF-16 units, so some overlap: current count is over ${text.length}; make each edit cover separate text`,
    );
  }
  if (offsets.length === 0) {
    const stripped = withoutLineNumbers(search);
    throw new BatchEditError(
      index,
      `Cannot apply edits[${index}] as its old_string does not occur ${where}: ${
        notFoundHint(
          search,
          stripped !== undefined && stripped !== "" &&
            findOccurrences(text, stripped).length > 0,
        )
      }`,
    );
  }
  if (offsets.length > 1 && edit.replace_all !== true) {
    throw new BatchEditError(
      index,
      `Cannot apply edits[${index}] as its old_string occurs ${offsets.length} times ${where}: make old_string longer so it matches once, or pass replace_all: true`,
    );
  }
  return offsets.map((start) => ({
    edit: index,
    start,
    end: start + search.length,
    text: replace,
  }));
}

function locateLines(
  source: EditSource,
  edit: LineEdit,
  index: number,
  where: string,
): Omit<LocatedChange, "codePointStart" | "codePointEnd"> {
  const { start_line: first, end_line: last } = edit;
  const total = source.count;
  const inserting = last === first - 1;
  const limit = inserting ? total + 1 : total;
  if (first < 1 || last < first - 1 || first > limit || last > total) {
    throw new BatchEditError(
      index,
      `Cannot apply edits[${index}] as lines ${first} to ${last} are out of range ${where}: it has ${total} lines; use 1 <= start_line <= end_line <= ${total}, or end_line = start_line - 1 (up to ${
        total + 1
      }) to insert`,
    );
  }
  const { length, lineBreak } = source;
  // The line break stands for the text: only its first break is read.
  let newText = inLineEndingOf(edit.new_string, lineBreak);
  const breakBefore = (offset: number) =>
    offset > 0 && source.slice(offset - 1, offset) === "\n";
  let start = source.start(first);
  const end = inserting ? start : source.start(last + 1);
  const endsWithBreak = breakBefore(end);
  if (
    inserting && newText !== "" && start === length && length > 0 &&
    !breakBefore(length)
  ) {
    // After a last line with no line break: start a line, add none at the end.
    newText = lineBreak + newText.replace(/\r?\n$/, "");
  } else if (
    newText !== "" && !newText.endsWith("\n") &&
    (inserting ? start < length || breakBefore(length) : endsWithBreak)
  ) {
    newText += lineBreak;
  } else if (newText === "" && !inserting && !endsWithBreak && start > 0) {
    // Deleting the last lines: take the line break before them too.
    start -= start >= 2 && source.slice(start - 2, start - 1) === "\r" ? 2 : 1;
  }
  return { edit: index, start, end, text: newText };
}
