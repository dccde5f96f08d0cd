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

import { codePointLength } from "../ot/code_points.ts";
import { narrowChange } from "./common_ends.ts";
import { findOccurrences } from "./edits.ts";
import {
  asCrlf,
  countLines,
  inLineEndingOf,
  LineIndex,
  notFoundHint,
  withoutLineNumbers,
} from "./lines.ts";
import { TextOperation } from "../ot/operation.ts";

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
 * @param text The text the edits were made against.
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
  text: string,
  edits: readonly BatchEdit[],
  where = "in the pad",
  length?: number,
): LocatedBatch {
  refuseNestedStrings(edits, where);
  const lines = new LazyLines(text);
  const found: Omit<LocatedChange, "codePointStart" | "codePointEnd">[] = [];
  let replacesMany = false;
  // Places that do not overlap number at most one per UTF-16 unit, so past
  // that some overlap: the search stops there, whatever the batch asks.
  let placesLeft = text.length;
  for (const [index, edit] of edits.entries()) {
    if ("old_string" in edit) {
      const located = locateString(text, edit, index, where, placesLeft);
      placesLeft -= located.length;
      if (located.length > 1) replacesMany = true;
      // One by one: a spread of 100,000+ arguments overflows the stack.
      for (const change of located) found.push(change);
    } else {
      found.push(locateLines(lines, edit, index, where));
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
          lines.index.lineOf(next.start)
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
    const change = narrowChange(text, located);
    const kept = codePointLength(text.slice(done, change.start));
    const removed = codePointLength(text.slice(change.start, change.end));
    operation.retain(kept).delete(removed).insert(change.text);
    codePoint += kept;
    changes.push({
      ...change,
      codePointStart: codePoint,
      codePointEnd: codePoint + removed,
    });
    codePoint += removed;
    deleted += removed;
    done = change.end;
  }
  operation.retain(
    length === undefined
      ? codePointLength(text.slice(done))
      : length - codePoint,
  );
  return { changes, operation, deleted, replacesMany };
}

/** The line index, built only if a line edit or an error needs it. */
class LazyLines {
  readonly text: string;
  #index: LineIndex | undefined;
  #count: number | undefined;

  constructor(text: string) {
    this.text = text;
  }

  get index(): LineIndex {
    return this.#index ??= new LineIndex(this.text);
  }

  /** Lines as `read_lines` counts them: a final `\n` starts no new line. */
  get count(): number {
    return this.#count ??= countLines(this.text);
  }

  /** The pad's line break: CRLF if its first line ends so. */
  get lineBreak(): string {
    const first = this.text.indexOf("\n");
    return first > 0 && this.text[first - 1] === "\r" ? "\r\n" : "\n";
  }
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
  lines: LazyLines,
  edit: LineEdit,
  index: number,
  where: string,
): Omit<LocatedChange, "codePointStart" | "codePointEnd"> {
  const { start_line: first, end_line: last } = edit;
  const total = lines.count;
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
  const { text } = lines;
  const lineBreak = lines.lineBreak;
  let newText = inLineEndingOf(edit.new_string, text);
  const at = (line: number): number =>
    line <= lines.index.count ? lines.index.start(line) : text.length;
  let start = at(first);
  const end = inserting ? start : at(last + 1);
  const endsWithBreak = end > 0 && text[end - 1] === "\n";
  if (
    inserting && newText !== "" && start === text.length && text !== "" &&
    !text.endsWith("\n")
  ) {
    // After a last line with no line break: start a line, add none at the end.
    newText = lineBreak + newText.replace(/\r?\n$/, "");
  } else if (
    newText !== "" && !newText.endsWith("\n") &&
    (inserting ? start < text.length || text.endsWith("\n") : endsWithBreak)
  ) {
    newText += lineBreak;
  } else if (newText === "" && !inserting && !endsWithBreak && start > 0) {
    // Deleting the last lines: take the line break before them too.
    start -= text[start - 2] === "\r" ? 2 : 1;
  }
  return { edit: index, start, end, text: newText };
}
