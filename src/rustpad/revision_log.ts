/**
 * The recent history of a pad as the server applied it: each operation with
 * its author and its inverse, so an edit made against an older revision can
 * be rebased, a change undone, and the text at any recent revision rebuilt.
 *
 * @module
 */

import { TextOperation } from "../ot/operation.ts";
import type { DeferredInverses } from "../ot/deferred_inverses.ts";
import { insertedUnits } from "../ot/component.ts";
import type { UserId } from "./protocol.ts";
import type { TextBuffer } from "../ot/text_buffer.ts";

/** One history operation as the server applied it. */
export interface LoggedOperation {
  /** Its index in the history (0-based): the text before it is revision `revision`. */
  readonly revision: number;
  /** Who wrote it. */
  readonly author: UserId;
  /** The operation, based on the text at `revision`. */
  readonly operation: TextOperation;
  /** Undoes it: based on the text at `revision + 1`. */
  readonly inverse: TextOperation;
}

/**
 * What {@linkcode RevisionLog.append} takes: an operation, its author, and
 * its inverse, or where that inverse is made on first use (the `index`th of
 * `inverses`, as a history folded in at once defers them).
 */
export interface NextOperation {
  /** Who wrote it. */
  readonly author: UserId;
  /** The operation, based on the text at the log's revision. */
  readonly operation: TextOperation;
  /** Undoes it, or where it is made when first read. */
  readonly inverse: TextOperation | {
    readonly inverses: DeferredInverses;
    readonly index: number;
  };
}

/**
 * How many operations a log keeps: edits made against a revision older than
 * this many operations must be read again.
 */
export const REVISION_LOG_CAPACITY = 10_000;

/**
 * The most UTF-16 units of inserted text (in operations and their inverses
 * together) a log keeps, whatever their number: about eight rewrites of a
 * full pad. People may send 10,000 operations of 262,144 code points each,
 * which kept whole would take gigabytes; older ones are dropped first.
 */
export const REVISION_LOG_MAX_TEXT = 4 * 1024 * 1024;

/**
 * A bounded log of the latest history operations.
 *
 * @example
 * ```ts
 * import { RevisionLog, TextBuffer, TextOperation } from "../mod.ts";
 * import assert from "node:assert/strict";
 *
 * const text = new TextBuffer("");
 * const log = new RevisionLog();
 * for (const json of [["hi"], [2, "!"]]) {
 *   const operation = TextOperation.fromJSON(json);
 *   log.append({ author: 1, operation, inverse: text.applyAndInvert(operation) });
 * }
 * assert.equal(log.textAt(1, text), "hi");
 * assert.equal(log.since(1).length, 1);
 * ```
 */
export class RevisionLog {
  /** Dropped entries are `undefined` until compaction, so they are freed. */
  #entries: (Logged | undefined)[] = [];
  /** Index into #entries of the oldest live entry. */
  #head = 0;
  #revision = 0;
  #capacity: number;
  #maxText: number;
  /** UTF-16 units inserted by the live entries and their inverses. */
  #text = 0;

  /**
   * Make an empty log at revision 0.
   *
   * @param capacity How many operations to keep.
   * @param maxText How many UTF-16 units of their text to keep; the newest
   * operation is kept whatever its size.
   */
  constructor(
    capacity: number = REVISION_LOG_CAPACITY,
    maxText: number = REVISION_LOG_MAX_TEXT,
  ) {
    this.#capacity = capacity;
    this.#maxText = maxText;
  }

  /** The revision after the newest operation. */
  get revision(): number {
    return this.#revision;
  }

  /** The oldest revision the log can rebuild or rebase from. */
  get oldestRevision(): number {
    return this.#revision - (this.#entries.length - this.#head);
  }

  /**
   * Record the next operation of the history.
   *
   * @param entry The operation, its author and inverse (or where the
   * inverse is made on first use).
   * @returns The entry as logged, with its revision.
   * @throws {RangeError} If a deferred inverse's index is not among its
   * inverses; nothing is logged then.
   */
  append(entry: NextOperation): LoggedOperation {
    const logged = new Logged(this.#revision, entry);
    this.#entries.push(logged);
    this.#revision++;
    this.#text += logged.units;
    while (
      this.#entries.length - this.#head > this.#capacity ||
      (this.#text > this.#maxText && this.#entries.length - this.#head > 1)
    ) {
      this.#text -= this.#entries[this.#head]!.units;
      this.#entries[this.#head++] = undefined;
    }
    // Compact now and then, so dropping old entries stays amortised O(1).
    if (this.#head > this.#capacity) {
      this.#entries = this.#entries.slice(this.#head);
      this.#head = 0;
    }
    return logged;
  }

  /**
   * The author of the operation at `revision`, if the log holds it.
   *
   * @param revision An operation's index in the history.
   * @returns Its author, or `undefined` outside the window.
   */
  authorOf(revision: number): UserId | undefined {
    return this.at(revision)?.author;
  }

  /**
   * The operation at `revision`, if the log holds it.
   *
   * @param revision An operation's index in the history.
   * @returns The logged operation, or `undefined` outside the window.
   */
  at(revision: number): LoggedOperation | undefined {
    if (revision < this.oldestRevision || revision >= this.#revision) {
      return undefined;
    }
    return this.#entries[this.#head + revision - this.oldestRevision];
  }

  /**
   * The operations from `revision` to the newest, oldest first.
   *
   * @param revision A revision within the window.
   * @returns The logged operations since then (empty at the newest).
   * @throws {RangeError} If `revision` is outside the window.
   */
  since(revision: number): readonly LoggedOperation[] {
    this.#check(revision, "read the history");
    // Every entry from #head on is live.
    return this.#entries.slice(
      this.#head + (revision - this.oldestRevision),
    ) as LoggedOperation[];
  }

  /**
   * The text at `revision`, rebuilt from `current` (the text at the newest
   * revision) by applying inverses.
   *
   * @param revision A revision within the window.
   * @param current The text at {@linkcode RevisionLog.revision}; unchanged.
   * @returns The text as it was at `revision`.
   * @throws {RangeError} If `revision` is outside the window.
   */
  textAt(revision: number, current: TextBuffer): string {
    return this.bufferAt(revision, current).toString();
  }

  /**
   * {@linkcode RevisionLog.textAt} as a buffer: a copy of `current`'s
   * chunk list with the inverses applied, the text not joined.
   */
  bufferAt(revision: number, current: TextBuffer): TextBuffer {
    const entries = this.since(revision);
    const text = current.clone();
    for (let index = entries.length - 1; index >= 0; index--) {
      text.apply(entries[index]!.inverse);
    }
    return text;
  }

  #check(revision: number, action: string): void {
    if (!Number.isSafeInteger(revision) || revision > this.#revision) {
      throw new RangeError(
        `Cannot ${action} at revision ${revision} as the pad is not there yet: current revision is ${this.#revision}; read the pad again`,
      );
    }
    if (revision < this.oldestRevision) {
      throw new RangeError(
        `Cannot ${action} at revision ${revision} as only the last ${
          this.#revision - this.oldestRevision
        } operations are kept: oldest revision is ${this.oldestRevision}, current revision is ${this.#revision}; read the pad again`,
      );
    }
  }
}

/** An entry of the log, whose inverse may be made when first read. */
class Logged implements LoggedOperation {
  readonly revision: number;
  readonly author: UserId;
  readonly operation: TextOperation;
  /** The UTF-16 units its operation and inverse insert: what the log bounds. */
  readonly units: number;
  #inverse: NextOperation["inverse"];

  constructor(revision: number, entry: NextOperation) {
    this.revision = revision;
    this.author = entry.author;
    this.operation = entry.operation;
    this.#inverse = entry.inverse;
    this.units = insertedUnits(entry.operation.components) +
      invertedUnits(entry.inverse);
  }

  get inverse(): TextOperation {
    const inverse = this.#inverse;
    if (inverse instanceof TextOperation) return inverse;
    const made = inverse.inverses.at(inverse.index);
    this.#inverse = made;
    return made;
  }
}

/** The UTF-16 units `inverse` inserts, made or deferred. */
function invertedUnits(inverse: NextOperation["inverse"]): number {
  if (inverse instanceof TextOperation) {
    return insertedUnits(inverse.components);
  }
  const units = inverse.inverses.deletedUnits[inverse.index];
  if (units === undefined) {
    throw new RangeError(
      `Cannot log the operation as its deferred inverse ${inverse.index} is not among them: current count is ${inverse.inverses.deletedUnits.length}`,
    );
  }
  return units;
}
