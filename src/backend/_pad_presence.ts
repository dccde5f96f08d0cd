// Where people are in one pad, kept current for one session at a time:
// every person's cursors moved through each operation as editors move them
// (the server sends a cursor only when it moves), when each last moved or
// typed, the names of everyone seen, who was near each of our own edits,
// and our own caret shown to people after each edit, at most five cursor
// updates a second (Rustpad drops connections whose 16-message metadata
// queue overflows). Everything here is bounded whatever people send: names
// and cursor lists are cut by the session on arrival, at most MAX_USERS
// people are present, names of people gone are forgotten oldest first past
// NAMES_KEPT, and each own edit remembers at most NEARBY_LISTED people.

import { Coalescer } from "./coalescer.ts";
import type { LoggedOperation } from "../rustpad/revision_log.ts";
import type { TextLocator } from "../ot/mod.ts";
import {
  caretAfter,
  changedRanges,
  peopleInRanges,
  type PersonCursors,
  type PersonInRange,
  positionsOf,
  type TextPosition,
} from "../rustpad/presence.ts";
import { MAX_USERS } from "../rustpad/mod.ts";
import type { UserId } from "../rustpad/protocol.ts";
import type { PadSession } from "../rustpad/session.ts";

/** A person in a pad and where their cursors are, for tools to report. */
export interface PersonPresence {
  /** Their user id on this connection's view of the pad. */
  id: UserId;
  /** Display name (untrusted), at most 64 code points. */
  name: string;
  /** Whether the announced name was longer and is cut, ending in "…". */
  nameTruncated: boolean;
  /** Cursor positions. */
  cursors: TextPosition[];
  /** Selections. */
  selections: { start: TextPosition; end: TextPosition }[];
  /** Milliseconds since their cursor last moved or they last typed. */
  idleMs: number;
}

/** At most this many cursor updates per second per pad. */
const CURSOR_UPDATES_PER_SECOND = 5;
/** Own edits whose nearby people are remembered. */
const NEARBY_KEPT = 100;
/** People remembered near each own edit; the rest are only counted. */
export const NEARBY_LISTED = 100;
/** Names kept for authors of the history, present or gone. */
const NAMES_KEPT = 2 * MAX_USERS;

/** Who was near one own edit: the first people, and how many in all. */
export interface Nearby {
  people: PersonInRange[];
  total: number;
}

interface Cursor {
  cursors: number[];
  selections: [number, number][];
  movedAt: number;
}

/** Whether user `id` is this process on `session` (the pool's answer). */
export type IsOwnAuthor = (session: PadSession, id: UserId) => boolean;

/**
 * Which connections are agents', of any replica or identity: `is` answers
 * from what was learnt; `learn` loads the records of those present (from
 * the state store, in the background).
 */
export interface AgentRecords {
  is(id: UserId): boolean;
  learn(): void;
}

/** How often at most a cursor of someone unknown makes presence learn. */
const LEARN_EVERY_MS = 1000;

export class PadPresence {
  #isOwn: IsOwnAuthor;
  #agents: AgentRecords;
  #learntAt = -Infinity;
  #session: PadSession | undefined;
  #cursors = new Map<UserId, Cursor>();
  #names = new Map<UserId, string>();
  /** Our caret in the server's text, once we edited. */
  #caret: number | undefined;
  #caretDirty = false;
  #beacon = this.#newBeacon();
  #nearby = new Map<number, Nearby>();

  /**
   * `isOwn` tells our own edits and cursors from people's; `agents`, the
   * other agents, who are never listed as people.
   */
  constructor(
    isOwn: IsOwnAuthor,
    agents: AgentRecords = { is: () => false, learn: () => {} },
  ) {
    this.#isOwn = isOwn;
    this.#agents = agents;
  }

  /** Follow `session` from now on; its initial cursors count as just moved. */
  follow(session: PadSession): void {
    this.#beacon.close();
    this.#beacon = this.#newBeacon();
    this.#session = session;
    this.#caret = undefined;
    this.#caretDirty = false;
    const now = Date.now();
    this.#cursors = new Map(
      [...session.cursors].filter(([id]) => !this.#isOwn(session, id))
        .map(([id, data]) => [id, {
          cursors: [...data.cursors],
          selections: data.selections.map(([a, b]) => [a, b]),
          movedAt: now,
        }]),
    );
    this.onUsers();
  }

  /** Stop sending our caret (the session ended). */
  stop(): void {
    this.#beacon.close();
    this.#session = undefined;
  }

  /** Move everything through one history operation. */
  onOperation(entry: LoggedOperation): void {
    const session = this.#session;
    if (!session) return;
    const moved = (position: number) =>
      entry.operation.transformIndex(position);
    for (const cursor of this.#cursors.values()) {
      cursor.cursors = cursor.cursors.map(moved);
      cursor.selections = cursor.selections.map(([a, b]) => [
        moved(a),
        moved(b),
      ]);
    }
    if (this.#caret !== undefined) this.#caret = moved(this.#caret);
    if (!this.#isOwn(session, entry.author)) {
      const cursor = this.#cursors.get(entry.author);
      if (cursor) cursor.movedAt = Date.now();
      return;
    }
    this.#recordNearby(session, entry);
    this.#caret = caretAfter(entry.operation);
    this.#caretDirty = true;
    this.#beacon.poke();
  }

  /** A person's cursor arrived. */
  onCursor(id: UserId): void {
    const session = this.#session;
    const data = session?.cursors.get(id);
    if (!session || !data || this.#isOwn(session, id)) return;
    const now = Date.now();
    this.#cursors.set(id, {
      cursors: [...data.cursors],
      selections: data.selections.map(([a, b]) => [a, b]),
      movedAt: now,
    });
    // An agent of another replica may be recorded only after it joined;
    // its caret moves once it writes, which is when it may be near ours.
    if (!this.#agents.is(id) && now - this.#learntAt >= LEARN_EVERY_MS) {
      this.#learntAt = now;
      this.#agents.learn();
    }
  }

  /** People joined, renamed or left. */
  onUsers(): void {
    const users = this.#session?.users;
    if (!users) return;
    this.#agents.learn();
    for (const [id, info] of users) this.#names.set(id, info.name);
    for (const id of this.#cursors.keys()) {
      if (!users.has(id)) this.#cursors.delete(id);
    }
    // People come and go for ever: forget the oldest names of those gone.
    for (const id of this.#names.keys()) {
      if (this.#names.size <= NAMES_KEPT) break;
      if (!users.has(id)) this.#names.delete(id);
    }
  }

  /**
   * The first `limit` others in the pad, by arrival, positions in the
   * server's text now.
   */
  people(limit: number): PersonPresence[] {
    const session = this.#session;
    if (!session?.isOpen) return [];
    const now = Date.now();
    // Read only for someone's cursors: a first call on a busy pad would
    // otherwise fold its whole history in for no one's.
    const people: PersonPresence[] = [];
    for (const [id, info] of session.users) {
      if (people.length >= limit) break;
      if (!this.#isPerson(session, id)) continue;
      const cursor = this.#cursors.get(id);
      const count = cursor?.cursors.length ?? 0;
      const offsets = cursor
        ? [...cursor.cursors, ...cursor.selections.flat()]
        : [];
      const positions = offsets.length === 0
        ? []
        : positionsOf(session.serverBuffer().locator(), offsets);
      const ends = positions.slice(count);
      people.push({
        id,
        name: info.name,
        nameTruncated: info.nameTruncated,
        cursors: positions.slice(0, count),
        selections: (cursor?.selections ?? []).map((_, index) => ({
          start: ends[2 * index]!,
          end: ends[2 * index + 1]!,
        })),
        idleMs: cursor ? now - cursor.movedAt : Infinity,
      });
    }
    return people;
  }

  /** How many others are in the pad. */
  peopleCount(): number {
    const session = this.#session;
    if (!session?.isOpen) return 0;
    let count = 0;
    for (const id of session.users.keys()) {
      if (this.#isPerson(session, id)) count++;
    }
    return count;
  }

  /** People who moved or typed within `withinMs`, raw offsets. */
  recentCursors(withinMs: number): PersonCursors[] {
    if (!this.#session?.isOpen) return [];
    const since = Date.now() - withinMs;
    return [...this.#people()]
      .filter(([, cursor]) => cursor.movedAt >= since)
      .map(([id, cursor]) => ({
        name: this.name(id),
        cursors: cursor.cursors,
        selections: cursor.selections,
      }));
  }

  /** Who was at our own edit at `revision`. */
  nearby(revision: number): Nearby {
    return this.#nearby.get(revision) ?? { people: [], total: 0 };
  }

  /** A name for user `id`, even after they left. */
  name(id: UserId): string {
    return this.#names.get(id) ?? `user ${id}`;
  }

  #recordNearby(session: PadSession, entry: LoggedOperation): void {
    if (this.#cursors.size === 0) return;
    const people = [...this.#people()].map(([id, cursor]) => ({
      name: this.name(id),
      cursors: cursor.cursors,
      selections: cursor.selections,
    }));
    if (people.length === 0) return;
    let locator: TextLocator;
    try {
      // Not the joined text: a busy pad's is long, and this runs for every
      // write of ours while someone is in the pad.
      locator = session.serverBuffer(entry.revision + 1).locator();
    } catch {
      return;
    }
    const ranges = changedRanges(entry.operation);
    const hits = peopleInRanges(locator, people, ranges, { by: "line" });
    if (hits.length === 0) return;
    this.#nearby.set(entry.revision, {
      people: hits.length > NEARBY_LISTED ? hits.slice(0, NEARBY_LISTED) : hits,
      total: hits.length,
    });
    for (const key of this.#nearby.keys()) {
      if (this.#nearby.size <= NEARBY_KEPT) break;
      this.#nearby.delete(key);
    }
  }

  /** Whether `id` is a person: neither this process nor another agent. */
  #isPerson(session: PadSession, id: UserId): boolean {
    return !this.#isOwn(session, id) && !this.#agents.is(id);
  }

  /** The cursors of people, agents left out. */
  *#people(): Iterable<[UserId, Cursor]> {
    for (const entry of this.#cursors) {
      if (!this.#agents.is(entry[0])) yield entry;
    }
  }

  #newBeacon(): Coalescer {
    return new Coalescer(1000 / CURSOR_UPDATES_PER_SECOND, () => {
      const session = this.#session;
      if (!this.#caretDirty || this.#caret === undefined || !session?.isOpen) {
        return;
      }
      this.#caretDirty = false;
      session.sendCursor({ cursors: [this.#caret], selections: [] });
    });
  }
}
