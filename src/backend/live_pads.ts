/**
 * What this process knows about the pads it has open, beyond one session's
 * state: where each person's cursor is now (moved through every operation),
 * the names of everyone who wrote, its own edits for undo, its own caret
 * shown to people after each edit, and watchers (resource subscriptions,
 * waits) that keep a pad's connection open and reconnect it when dropped.
 * One per {@linkcode SessionPool} (one per identity), shared by its MCP
 * sessions.
 *
 * @module
 */

import { describeAuthor } from "./_authors.ts";
import {
  type LiveEvent,
  newPadLive,
  type PadLive,
  type PadWatcher,
  scheduleReconnect,
  watchPad,
} from "./_pad_live.ts";
import { PadPresence, type PersonPresence } from "./_pad_presence.ts";
import { OperatorLog } from "./logging.ts";
import { type AuthorLedger, AuthorsInMemory } from "./state_store.ts";
import type { SessionEvent } from "../rustpad/pad_state.ts";
import type { PersonCursors, PersonInRange } from "../rustpad/presence.ts";
import type { UserId } from "../rustpad/protocol.ts";
import type { PadSession } from "../rustpad/session.ts";
import type { SessionPool } from "../rustpad/session_pool.ts";
import { UndoHistory } from "../rustpad/undo.ts";

export type { PersonPresence } from "./_pad_presence.ts";
export type { LiveEvent, PadWatcher } from "./_pad_live.ts";

const registry = new WeakMap<SessionPool, LivePads>();

/** Who a pool is, for {@linkcode LivePads.of}'s first call. */
export interface LivePadsOptions {
  /** The identity whose pool it is: `""` for the unnamed one. */
  identity?: string;
  /** Where the identity of each of the server's connections is recorded. */
  authors?: AuthorLedger;
}

/**
 * Live knowledge of the pads a pool has open.
 *
 * @example Own edits are told apart by the agent that claimed them
 * ```ts
 * import { LivePads } from "./live_pads.ts";
 * import { TextOperation } from "../ot/operation.ts";
 * import { SessionPool } from "../rustpad/session_pool.ts";
 * import { startPadServer } from "../testing/mod.ts";
 * import assert from "node:assert/strict";
 *
 * await using server = await startPadServer();
 * await using pool = new SessionPool(server.url);
 * const live = LivePads.of(pool);
 * const written = await pool.edit("notes", () => TextOperation.fromJSON(["hi"]));
 * live.claim("notes", written.revision - 1, "agent-a");
 * const session = await pool.get("notes");
 * assert.deepEqual(live.describeAuthor("notes", session.userId, 0, "agent-a"), {
 *   name: "you",
 *   self: true,
 * });
 * assert.equal(live.describeAuthor("notes", session.userId, 0, "agent-b").self, false);
 * assert.deepEqual(live.openPads, ["notes"]);
 * ```
 */
export class LivePads {
  /** The pool watched. */
  readonly pool: SessionPool;
  /** Messages for operators, sent to every attached MCP server. */
  readonly log: OperatorLog = new OperatorLog();
  /** Each agent's own edits, for undo; the write tools record them. */
  readonly undo: UndoHistory = new UndoHistory();
  /** The identity whose pool this is: `""` for the unnamed one. */
  readonly identity: string;
  /** Which identity each of the server's connections is, on any replica. */
  readonly authors: AuthorLedger;
  #pads = new Map<string, PadLive>();
  #openListeners = new Set<() => void>();

  /**
   * The one instance for `pool`, made on first use; make it before the
   * pool opens any pad, so no session goes untracked.
   *
   * @param pool The pool.
   * @param options Whose pool it is, used by the first call only.
   * @returns Its live state.
   */
  static of(pool: SessionPool, options: LivePadsOptions = {}): LivePads {
    let live = registry.get(pool);
    if (!live) {
      live = new LivePads(pool, options);
      registry.set(pool, live);
    }
    return live;
  }

  private constructor(pool: SessionPool, options: LivePadsOptions) {
    this.pool = pool;
    this.identity = options.identity ?? "";
    this.authors = options.authors ?? new AuthorsInMemory();
    pool.onOpen((padId, session) => this.#attach(padId, session));
    pool.onAdopt((padId, _session, userId) => this.#adopt(padId, userId));
  }

  /**
   * Be told whenever {@linkcode LivePads.openPads} may have changed.
   *
   * @param listener Called after a pad opens, reopens or closes.
   * @returns Unsubscribes.
   */
  onOpenPadsChange(listener: () => void): () => void {
    this.#openListeners.add(listener);
    return () => this.#openListeners.delete(listener);
  }

  /** The ids of the pads with an open connection now, sorted. */
  get openPads(): string[] {
    return [...this.#pads.values()]
      .filter((pad) => pad.session?.isOpen)
      .map((pad) => pad.padId)
      .sort();
  }

  /**
   * Watch a pad: keep its connection open (reconnecting if it drops) and
   * call `watcher` with each event, until the returned function is called.
   *
   * @param padId The pad.
   * @param watcher Called with each event.
   * @returns The ready session and the function that stops watching.
   * @throws {SessionError} If the pad cannot be opened (nothing is kept).
   */
  watch(
    padId: string,
    watcher: PadWatcher,
  ): Promise<{ session: PadSession; unwatch: () => void }> {
    return watchPad(this.pool, padId, () => this.#pad(padId), watcher);
  }

  /** How many watchers (subscriptions and waits) hold `padId` open now. */
  watchers(padId: string): number {
    return this.#pads.get(padId)?.watchers.size ?? 0;
  }

  /**
   * Everyone else in the pad, positions in the server's text now.
   *
   * @param padId The pad.
   * @param limit At most this many (a pad may hold 10,000).
   * @returns The people, by user id order of arrival.
   */
  people(padId: string, limit: number = Infinity): PersonPresence[] {
    return this.#pads.get(padId)?.presence.people(limit) ?? [];
  }

  /** How many others are in `padId` now (0 if not open): all the people. */
  peopleCount(padId: string): number {
    return this.#pads.get(padId)?.presence.peopleCount() ?? 0;
  }

  /**
   * The people whose cursor moved (or who typed) within the last
   * `withinMs`, with raw code-point offsets in the server's text.
   *
   * @param padId The pad.
   * @param withinMs How recent.
   * @returns Their names and cursors.
   */
  recentCursors(padId: string, withinMs: number): PersonCursors[] {
    return this.#pads.get(padId)?.presence.recentCursors(withinMs) ?? [];
  }

  /**
   * The people whose cursor was inside or next to the lines our own edit at
   * `revision` changed, as they were right after it.
   *
   * @param padId The pad.
   * @param revision The edit's revision (its acknowledgement's revision - 1).
   * @returns The first 100 people, or an empty list.
   */
  nearby(padId: string, revision: number): PersonInRange[] {
    return this.#pads.get(padId)?.presence.nearby(revision).people ?? [];
  }

  /**
   * How many people were near our own edit at `revision`, all told.
   *
   * @param padId The pad.
   * @param revision The edit's revision.
   * @returns The count.
   */
  nearbyCount(padId: string, revision: number): number {
    return this.#pads.get(padId)?.presence.nearby(revision).total ?? 0;
  }

  /**
   * Say that the edit at history index `revision` of `padId` was made by
   * agent `owner` (an MCP session) of this process, so that agent alone
   * counts it as its own (undo, authors).
   *
   * @param padId The pad.
   * @param revision The edit's index in the pad's history.
   * @param owner The agent.
   */
  claim(padId: string, revision: number, owner: string): void {
    this.#pad(padId).owners.claim(revision, owner);
  }

  /** The agent that claimed the edit at history index `revision`, if any. */
  ownerOf(padId: string, revision: number): string | undefined {
    return this.#pads.get(padId)?.owners.ownerOf(revision);
  }

  /**
   * Who made the operation at history index `revision` of `padId`, as agent
   * `agent` should hear it: `"you"` for its own edits (`self`); for another
   * agent's, `"another agent on this server"`, or with a named identity
   * `'an agent of "alice"'`; `"this server"` for an edit of this process no
   * agent claimed; else the display name the person announced, also after
   * they left (untrusted), or `"user N"` if they never had one. Agents of
   * other replicas are known once {@linkcode LivePads.learnAuthors} loaded
   * their records.
   *
   * @param padId The pad.
   * @param author The operation's author.
   * @param revision The operation's index in the history.
   * @param agent The agent asking.
   * @returns The name, and whether it is the asking agent.
   */
  describeAuthor(
    padId: string,
    author: UserId,
    revision: number,
    agent: string,
  ): { name: string; self: boolean } {
    return describeAuthor(this.#pads.get(padId), padId, author, revision, {
      agent,
      identity: this.identity,
      authors: this.authors,
    });
  }

  /**
   * Load which identity the `authors` of `padId` are, where other replicas
   * recorded it, before {@linkcode LivePads.describeAuthor} names them.
   * Never fails: unknown ones keep the name they announced.
   *
   * @param padId The pad.
   * @param authors User ids from its history.
   * @returns When loaded.
   */
  async learnAuthors(padId: string, authors: readonly UserId[]): Promise<void> {
    const others = authors.filter((author) => !this.isOwn(padId, author));
    await this.authors.learn(padId, others);
  }

  /**
   * Load which of the others in `padId` are agents (their connections
   * recorded by any replica), so presence leaves them out of the people.
   * Never fails.
   *
   * @param padId The pad.
   * @returns When loaded.
   */
  async learnPeople(padId: string): Promise<void> {
    const session = this.#pads.get(padId)?.session;
    if (session) await this.learnAuthors(padId, [...session.users.keys()]);
  }

  /**
   * Whether `author` is this process, on any connection it had to the pad.
   *
   * @param padId The pad.
   * @param author A user id from the pad's history.
   * @returns `true` for our own edits.
   */
  isOwn(padId: string, author: UserId): boolean {
    return this.#pads.get(padId)?.ownIds.has(author) ?? false;
  }

  #pad(padId: string): PadLive {
    let pad = this.#pads.get(padId);
    if (!pad) {
      // Agents (this identity through another replica, other identities)
      // are told apart from people by the connections recorded for them.
      pad = newPadLive(
        padId,
        new PadPresence((session, id) => this.pool.isOwnAuthor(session, id), {
          is: (id) => this.authors.identityOf(padId, id) !== undefined,
          learn: () => void this.learnPeople(padId),
        }),
      );
      this.#pads.set(padId, pad);
    }
    return pad;
  }

  #attach(padId: string, session: PadSession): void {
    const pad = this.#pad(padId);
    const reconnected = pad.failed;
    pad.session = session;
    pad.failed = false;
    pad.attempts = 0;
    clearTimeout(pad.reconnectTimer);
    pad.reconnectTimer = undefined;
    pad.presence.follow(session);
    // After a restart, revisions name other operations than claimed ones.
    if (pad.ownIds.attach(session) || this.pool.restartOn(session)) {
      pad.owners.clear();
      this.undo.restarted(padId);
    }
    this.authors.record(padId, session.userId, this.identity);
    session.subscribe((event) => this.#onEvent(pad, session, event));
    if (reconnected) {
      this.log.send("info", `Reconnected to pad "${padId}"`, { pad: padId });
      this.#notify(pad, session, { type: "reconnected" });
    } else {
      this.log.send("debug", `Opened pad "${padId}"`, { pad: padId });
    }
    this.#openPadsChanged();
  }

  /**
   * A recovered edit's connection (the old one, now gone) is ours, in the
   * new session's history too; its write records the edit for undo.
   */
  #adopt(padId: string, userId: UserId): void {
    this.#pad(padId).ownIds.add(userId);
    this.authors.record(padId, userId, this.identity);
  }

  #openPadsChanged(): void {
    for (const listener of [...this.#openListeners]) {
      try {
        listener();
      } catch {
        // A listener's failure is its own.
      }
    }
  }

  #onEvent(pad: PadLive, session: PadSession, event: SessionEvent): void {
    if (pad.session !== session) return;
    if (event.type === "operation") {
      pad.ownIds.onOperation(event.entry);
      pad.presence.onOperation(event.entry);
    } else if (event.type === "cursor") {
      pad.presence.onCursor(event.id);
    } else if (event.type === "users") {
      pad.presence.onUsers();
    } else if (event.type === "closed") {
      this.#onClosed(pad, session, event.error);
    }
    this.#notify(pad, session, event);
  }

  #onClosed(pad: PadLive, session: PadSession, error: unknown): void {
    pad.presence.stop();
    this.#openPadsChanged();
    if (!error) {
      this.log.send("debug", `Closed pad "${pad.padId}"`, { pad: pad.padId });
      pad.session = undefined;
      // Forgotten unless it holds own edits to undo: a process that reads
      // a million pads keeps nothing of them.
      if (pad.watchers.size === 0 && !this.undo.holds(pad.padId)) {
        this.#pads.delete(pad.padId);
      }
      return;
    }
    pad.failed = true;
    const message = (error as Error).message;
    this.log.send(
      "warning",
      session.hasPendingEdits
        ? `Lost the connection to pad "${pad.padId}" with an edit in flight (Rustpad may have refused it): ${message}`
        : `Lost the connection to pad "${pad.padId}": ${message}`,
      { pad: pad.padId },
    );
    this.#scheduleReconnect(pad);
  }

  #scheduleReconnect(pad: PadLive): void {
    scheduleReconnect(pad, () => this.pool.get(pad.padId), this.log);
  }

  #notify(pad: PadLive, session: PadSession, event: LiveEvent): void {
    for (const watcher of [...pad.watchers]) {
      try {
        watcher(session, event);
      } catch {
        // A watcher's failure is its own.
      }
    }
  }
}
