// Others' history entries held as they came, not yet folded into the text
// and the revision log: a session's initial burst (10,000 operations on a
// busy pad) costs a fold of each, which a first call that needs only the
// length and the revision (`get_document_info`) should not wait for, and
// their inverses, which only an undo or an older revision's text needs. Each entry is checked to fit as it is held, so a malformed
// history fails the session at once, as a fold would; the fold happens on
// the first read of the text or the log.

import { insertedUnits } from "../ot/component.ts";
import type { DeferredInverses } from "../ot/deferred_inverses.ts";
import type { TextBuffer } from "../ot/text_buffer.ts";
import type { TextOperation } from "../ot/operation.ts";
import type { UserId, UserOperation } from "./protocol.ts";
import {
  REVISION_LOG_CAPACITY,
  REVISION_LOG_MAX_TEXT,
  type RevisionLog,
} from "./revision_log.ts";

/**
 * At most this many entries are held: a few logs' worth, so the initial
 * burst of a pad with a long history is held whole; past it (or past the
 * log's bound on text) they are folded in as they come.
 */
const MAX_HELD = 4 * REVISION_LOG_CAPACITY;

/** History entries waiting to be folded in, in order. */
export class HistoryBacklog {
  #entries: UserOperation[] = [];
  #length = 0;
  /** UTF-16 units the held operations insert. */
  #text = 0;
  /** The inverses the last fold deferred, until they are made. */
  #deferred: DeferredInverses | undefined;

  /** How many entries are held. */
  get size(): number {
    return this.#entries.length;
  }

  /** The `index`th entry held (0: the oldest), as the log would name it. */
  at(index: number): { author: UserId; operation: TextOperation } | undefined {
    const entry = this.#entries[index];
    return entry && { author: entry.id, operation: entry.operation };
  }

  /** Whether no more may be held: fold them in, then fold each as it comes. */
  get full(): boolean {
    return this.#entries.length >= MAX_HELD ||
      this.#text >= REVISION_LOG_MAX_TEXT;
  }

  /** The text's length in code points after the held entries, if any. */
  get length(): number | undefined {
    return this.#entries.length === 0 ? undefined : this.#length;
  }

  /**
   * Hold `entry`, whose operation must apply to a text of `length` code
   * points (the text after the entries held before it).
   *
   * @throws {RangeError} If it does not fit; nothing is held then.
   */
  hold(entry: UserOperation, length: number): void {
    const { operation } = entry;
    if (operation.baseLength !== length) {
      throw new RangeError(
        `Cannot apply operation as its base length ${operation.baseLength} differs from the text length: current length is ${length}`,
      );
    }
    this.#entries.push(entry);
    this.#length = operation.targetLength;
    this.#text += insertedUnits(operation.components);
  }

  /**
   * Fold every held entry into `text` and `log`, in order, and forget it.
   * Their inverses are made when one is first read (most sessions never
   * do); the ones deferred by the fold before are made now, so no more
   * than one earlier text is held for them.
   */
  foldInto(text: TextBuffer, log: RevisionLog): void {
    const entries = this.#entries;
    this.#entries = [];
    this.#text = 0;
    this.#deferred?.resolve();
    const inverses = text.applyAllDeferringInverses(
      entries.map((entry) => entry.operation),
    );
    this.#deferred = inverses.resolved ? undefined : inverses;
    // An index loop: this runs once, before it is compiled.
    for (let i = 0; i < entries.length; i++) {
      const { id, operation } = entries[i]!;
      log.append({ author: id, operation, inverse: { inverses, index: i } });
    }
  }
}
