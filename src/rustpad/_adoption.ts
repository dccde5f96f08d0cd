// Earlier connections' user ids that a pool's session took as its own,
// having recovered their edits from the history, and who is told of each.

import type { UserId } from "./protocol.ts";
import type { PadSession } from "./session.ts";

/** Told of an id adopted by `SessionPool.onAdopt`. */
export type AdoptListener = (
  padId: string,
  session: PadSession,
  userId: UserId,
  fromRevision: number,
) => void;

/** The adopted ids of one pool's sessions. */
export class Adoptions {
  #adopted = new WeakMap<PadSession, Set<UserId>>();
  #listeners = new Set<AdoptListener>();

  /** Whether `author` is `session` itself or an id it adopted. */
  isOwnAuthor(session: PadSession, author: UserId): boolean {
    return author === session.userId ||
      (this.#adopted.get(session)?.has(author) ?? false);
  }

  /** Be told of each adoption; returns the unsubscribe. */
  listen(listener: AdoptListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** `session` takes `userId` (whose edit from `fromRevision` landed) as its own. */
  adopt(
    padId: string,
    session: PadSession,
    userId: UserId,
    fromRevision: number,
  ): void {
    const ids = this.#adopted.get(session) ?? new Set();
    ids.add(userId);
    this.#adopted.set(session, ids);
    for (const listener of this.#listeners) {
      try {
        listener(padId, session, userId, fromRevision);
      } catch {
        // A listener's failure is its own.
      }
    }
  }
}
