// What of one pad's history is this process's own. OwnIds: its user ids,
// one per connection it opened and each earlier connection whose edit a
// later one recovered, so edits from before a reconnect still count as its
// own; Rustpad numbers connections anew when it restarts, so on a restart
// the earlier ids are forgotten (they may be people's now). EditOwners:
// which of its agents made each edit.

import type { UserId } from "../rustpad/protocol.ts";
import {
  type LoggedOperation,
  REVISION_LOG_CAPACITY,
} from "../rustpad/revision_log.ts";
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

/**
 * Which agent of this process (an MCP session) made each of its recent
 * edits to one pad, by history index: one connection serves every agent,
 * so the author id alone cannot tell them apart.
 */
export class EditOwners {
  #owners = new Map<number, string>();

  /** The edit at `revision` is `owner`'s. */
  claim(revision: number, owner: string): void {
    this.#owners.set(revision, owner);
    // As many as the revision log keeps: older edits cannot be rebased on.
    for (const oldest of this.#owners.keys()) {
      if (this.#owners.size <= REVISION_LOG_CAPACITY) break;
      this.#owners.delete(oldest);
    }
  }

  /** Who made the edit at `revision`, if an agent of this process did. */
  ownerOf(revision: number): string | undefined {
    return this.#owners.get(revision);
  }

  /** Forget every claim: Rustpad restarted, revisions name other edits. */
  clear(): void {
    this.#owners.clear();
  }
}
