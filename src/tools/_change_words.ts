// The words a suggestion carries when its agent gave no `summary`: what the
// change does, in one short line, from the text and the operation (never
// the tool's title): `Replace "teh" with "the" (2 places)`,
// `Insert "## Notes" at line 3`, `Delete "draft" at line 7`, or, for
// unlike changes, `Change 3 places, first at line 2`.

import type { Component } from "../ot/component.ts";
import { hunksOf as changesOf } from "../rustpad/suggestion_views.ts";

/** A character of a word, which a change is widened over. */
const WORD = /[\p{L}\p{N}_]/u;

/** The longest quote of pad text in the words, in UTF-16 units. */
const MAX_QUOTE = 40;

/** One change: where, what went, what came. */
interface Hunk {
  readonly line: number;
  readonly deleted: string;
  readonly inserted: string;
}

/**
 * The changes of `components` on `text`, each widened to whole words
 * ("teh" to "the" rather than "eh" to "he"), with its first line (1-based).
 */
function hunksOf(text: string, components: readonly Component[]): Hunk[] {
  let lines = 1;
  let counted = 0;
  const lineAt = (offset: number) => {
    for (; counted < offset; counted++) {
      if (text.charCodeAt(counted) === 10) lines++;
    }
    return lines;
  };
  return changesOf(text, components).map(({ from, to, inserted }) => {
    let start = from;
    let end = to;
    while (start > 0 && WORD.test(text[start - 1]!)) start--;
    while (end < text.length && WORD.test(text[end]!)) end++;
    return {
      line: lineAt(start),
      deleted: text.slice(start, end),
      inserted: text.slice(start, from) + inserted + text.slice(to, end),
    };
  });
}

/** `text` quoted on one line, cut to {@linkcode MAX_QUOTE}. */
function quote(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  const cut = flat.length > MAX_QUOTE
    ? `${flat.slice(0, MAX_QUOTE - 1).replace(/[\ud800-\udbff]$/, "")}…`
    : flat;
  return cut === "" ? "a line break" : JSON.stringify(cut);
}

/** What one kind of change does, without where. */
function verb({ deleted, inserted }: Hunk): string {
  if (deleted === "") return `Insert ${quote(inserted)}`;
  if (inserted === "") return `Delete ${quote(deleted)}`;
  return `Replace ${quote(deleted)} with ${quote(inserted)}`;
}

/**
 * Words for the change `components` makes to `text`, for the people who
 * decide a suggestion its agent left without a summary.
 *
 * @returns One line of at most about 100 characters.
 */
export function describeChange(
  text: string,
  components: readonly Component[],
): string {
  const hunks = hunksOf(text, components);
  const [first] = hunks;
  if (first === undefined) return "Change nothing";
  const alike = hunks.every((hunk) =>
    hunk.deleted === first.deleted && hunk.inserted === first.inserted
  );
  if (hunks.length === 1) return `${verb(first)} at line ${first.line}`;
  if (alike) return `${verb(first)} (${hunks.length} places)`;
  return `Change ${hunks.length} places, first at line ${first.line}: ${
    verb(first).replace(/^./, (letter) => letter.toLowerCase())
  }`;
}
