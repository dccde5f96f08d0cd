// This process's user ids on one pad, one per connection it opened and each
// earlier connection whose edit a later one recovered, so edits from before
// a reconnect still count as the agent's. Rustpad numbers connections anew
// when it restarts, so on a restart the earlier ids are forgotten: they may
// be people's now.

import type { UserId } from "../rustpad/protocol.ts";
import type { LoggedOperation } from "../rustpad/revision_log.ts";
import type { PadSession } from "../rustpad/session.ts";

export class OwnIds {
  #ids = new Set<UserId>();
  /** The highest revision seen on any connection. */
  #revision = 0;
  /** The author of the history's first operation. */
  #firstAuthor: UserId | undefined;

  /**
   * A new connection to the pad, ready.
   *
   * @returns Whether Rustpad restarted since the last one: the history's
   * revisions then name other operations.
   */
  attach(session: PadSession): boolean {
    // A history shorter than one seen before, or that starts otherwise (a
    // persisted pad comes back as one insert by 2^64-1): Rustpad restarted.
    const firstAuthor = session.authorOf(0);
    const restarted = session.revision < this.#revision ||
      (this.#firstAuthor !== undefined && firstAuthor !== this.#firstAuthor);
    if (restarted) this.#ids.clear();
    this.#revision = session.revision;
    this.#firstAuthor = firstAuthor;
    this.#ids.add(session.userId);
    return restarted;
  }

  /** An operation of the history, anyone's. */
  onOperation(entry: LoggedOperation): void {
    this.#revision = Math.max(this.#revision, entry.revision + 1);
    if (entry.revision === 0) this.#firstAuthor = entry.author;
  }

  /** An earlier connection's id, adopted with its recovered edit. */
  add(id: UserId): void {
    this.#ids.add(id);
  }

  /** Whether `id` is this process on some connection to this history. */
  has(id: UserId): boolean {
    return this.#ids.has(id);
  }
}
