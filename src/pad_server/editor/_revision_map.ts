// Positions in the server's text at an earlier revision, carried to the
// page's text now: through the server's operations since (kept, in the
// editor's UTF-16 units, for the last revisions), then through this page's
// edits the server has not acknowledged yet. Suggestions are listed on the
// server's text at some revision; this is how they land where they belong.

import type { TextOperation } from "../../ot/operation.ts";
import type { ClientState } from "../../ot/client_state.ts";
import { toUtf16Changes, type Utf16Change } from "./units.ts";

/** How many revisions back a position can be carried. */
const KEPT_REVISIONS = 2000;

/**
 * Where `position` goes through `changes` (sorted, in units of the text
 * before them); `assoc` says on which side of an insert exactly at it.
 */
export function mapPosition(
  position: number,
  changes: readonly Utf16Change[],
  assoc: -1 | 1,
): number {
  let delta = 0;
  for (const { from, to, insert } of changes) {
    if (from > position) break;
    if (from === to && from === position) {
      if (assoc < 0) break;
      delta += insert.length;
    } else if (to <= position) {
      delta += insert.length - (to - from);
    } else {
      // Inside deleted text: to where it was.
      return from + delta + (assoc > 0 ? insert.length : 0);
    }
  }
  return position + delta;
}

/** The server's last operations, by revision, in UTF-16 changes. */
export class RevisionLog {
  /** The revision the first kept step starts from. */
  #base = 0;
  #steps: Utf16Change[][] = [];

  /** The server's `operation` took its text `before` past `revision`. */
  record(revision: number, operation: TextOperation, before: string): void {
    if (revision !== this.#base + this.#steps.length) this.reset(revision);
    this.#steps.push(toUtf16Changes(operation, before));
    if (this.#steps.length > KEPT_REVISIONS) {
      this.#steps.shift();
      this.#base++;
    }
  }

  /** The history was lost (a restarted server): nothing before `revision`. */
  reset(revision: number): void {
    this.#base = revision;
    this.#steps = [];
  }

  /**
   * `position`, in the server's text at `revision`, in its text at `now`;
   * undefined when those revisions are not kept.
   */
  carry(
    position: number,
    revision: number,
    now: number,
    assoc: -1 | 1,
  ): number | undefined {
    if (revision === now) return position;
    const end = this.#base + this.#steps.length;
    if (revision < this.#base || revision > now || now !== end) {
      return undefined;
    }
    for (const changes of this.#steps.slice(revision - this.#base)) {
      position = mapPosition(position, changes, assoc);
    }
    return position;
  }
}

/**
 * The changes from the server's text at the client's revision to the
 * page's: its edits in flight and buffered.
 */
export function pendingChanges(
  state: ClientState,
  serverText: string,
): Utf16Change[][] {
  if (state.kind === "synchronized") return [];
  const first = toUtf16Changes(state.outstanding, serverText);
  if (state.kind === "awaitingConfirm") return [first];
  return [
    first,
    toUtf16Changes(state.buffer, state.outstanding.apply(serverText)),
  ];
}
