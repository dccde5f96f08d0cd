// Which history a pad's revisions belong to. Rustpad numbers its history
// from 0 and keeps none of it across a restart: a persisted pad comes back
// at revision 1 as one insert of its text, and user ids start over, so a
// revision number (and an author id) from before a restart names another
// operation after it. A pad server that keeps its log continues the same
// history across restarts, and starts over like Rustpad when it compacts
// the log. What tells two histories apart is their content: the digests of
// their first operations (the history's lineage) and of the operation at a
// given revision, each with its author.
//
// PadLineage is what one process remembers of one pad across its
// connections: the last history it saw, and the restart it found when a
// new connection's history no longer began with it (or was shorter).

import type { PadSession } from "./session.ts";
import { LINEAGE_DEPTH } from "./_history_digest.ts";

/** What a lineage needs of a pad's state. */
export interface HistoryView {
  /** Operations in the history. */
  readonly revision: number;
  /**
   * The digest naming the history up to `min(revision, LINEAGE_DEPTH)`
   * operations (`""` for none), or `undefined` past the history.
   */
  lineageAt(revision: number): string | undefined;
  /** The digest of the operation at index `at`, if the log still holds it. */
  operationDigest(at: number): string | undefined;
}

/** A restart found on a new connection to a pad. */
export interface PadRestart {
  /** The revision the pad was at when this process first saw the new history. */
  readonly revision: number;
  /** The highest revision this process knew of any earlier history. */
  readonly before: number;
}

/** A history as it was last seen, kept after its connection closed. */
interface Seen {
  revision: number;
  lineage: string;
  /** The digest of its newest operation, when known. */
  last: string | undefined;
}

/** How many revisions handed out since a restart are remembered. */
const MAX_SHOWN = 1024;

/** What one process knows of one pad's histories, across connections. */
export class PadLineage {
  #seen: Seen | undefined;
  #current: HistoryView | undefined;
  #restart: PadRestart | undefined;
  /** Revisions of the current history handed to callers since the restart. */
  #shown = new Set<number>();

  /**
   * A new connection's history, complete up to its revision: compared with
   * the last one seen, it becomes the current one.
   *
   * @returns The restart, if this history does not continue the last one.
   */
  join(view: HistoryView): PadRestart | undefined {
    const seen = this.#current ? snapshot(this.#current) : this.#seen;
    this.#current = view;
    this.#seen = undefined;
    if (seen === undefined || seen.revision === 0) return undefined;
    const depth = Math.min(seen.revision, LINEAGE_DEPTH);
    const last = seen.last === undefined
      ? undefined
      : view.operationDigest(seen.revision - 1);
    const restarted = view.revision < seen.revision ||
      view.lineageAt(depth) !== seen.lineage ||
      (last !== undefined && last !== seen.last);
    if (!restarted) return undefined;
    this.#restart = {
      revision: view.revision,
      before: Math.max(seen.revision, this.#restart?.before ?? 0),
    };
    this.#shown.clear();
    return this.#restart;
  }

  /** The connection of `view` ended: keep what tells its history apart. */
  leave(view: HistoryView): void {
    if (this.#current !== view) return;
    this.#seen = snapshot(view);
    this.#current = undefined;
  }

  /** A caller was given `revision` of the current history. */
  show(revision: number): void {
    if (this.#restart === undefined) return;
    this.#shown.delete(revision);
    this.#shown.add(revision);
    for (const oldest of this.#shown) {
      if (this.#shown.size <= MAX_SHOWN) break;
      this.#shown.delete(oldest);
    }
  }

  /**
   * The restart a caller's `revision` predates: one after 0 that no caller
   * was given since the restart, that the earlier history reached or the
   * current one has not.
   */
  staleRevision(revision: number, current: number): PadRestart | undefined {
    const restart = this.#restart;
    // Revision 0, the empty pad before any operation, is in every history.
    if (restart === undefined || revision === 0) return undefined;
    if (this.#shown.has(revision)) return undefined;
    return revision > current || revision <= restart.before
      ? restart
      : undefined;
  }
}

function snapshot(view: HistoryView): Seen {
  const { revision } = view;
  return {
    revision,
    lineage: view.lineageAt(Math.min(revision, LINEAGE_DEPTH)) ?? "",
    last: revision > 0 ? view.operationDigest(revision - 1) : undefined,
  };
}

/**
 * Pads whose last history is remembered after their session closed, to
 * find a restart when one opens again; the least recently opened go first.
 */
const MAX_LINEAGES = 10_000;

/** The lineages of a pool's pads, by pad id. */
export class PadLineages {
  #pads = new Map<string, PadLineage>();
  /** The restart each session's history was found to be. */
  #found = new WeakMap<PadSession, PadRestart>();

  /**
   * A new session on its pad: compared with the pad's last history.
   * `isOpen` tells the pads whose lineage must not be forgotten.
   */
  join(session: PadSession, isOpen: (padId: string) => boolean): void {
    const { padId } = session;
    const lineage = this.#pads.get(padId) ?? new PadLineage();
    this.#pads.delete(padId);
    this.#pads.set(padId, lineage);
    for (const oldest of this.#pads.keys()) {
      if (this.#pads.size <= MAX_LINEAGES) break;
      if (!isOpen(oldest)) this.#pads.delete(oldest);
    }
    const restart = lineage.join(session);
    if (restart) this.#found.set(session, restart);
  }

  /** `session` is done with: keep only what tells its history apart. */
  leave(session: PadSession): void {
    this.#pads.get(session.padId)?.leave(session);
  }

  /** The restart found when `session` joined, if its history was new. */
  restartOn(session: PadSession): PadRestart | undefined {
    return this.#found.get(session);
  }

  /** As {@linkcode PadLineage.staleRevision}, on `session`'s pad. */
  staleRevision(session: PadSession, revision: number): PadRestart | undefined {
    return this.#pads.get(session.padId)?.staleRevision(
      revision,
      session.revision,
    );
  }

  /** As {@linkcode PadLineage.show}. */
  show(padId: string, revision: number): void {
    this.#pads.get(padId)?.show(revision);
  }
}
