/**
 * What this process knows about the pads it has open, beyond one session's
 * state: where each person's cursor is now (moved through every operation),
 * the names of everyone who wrote, its own edits for undo, its own caret
 * shown to people after each edit, and watchers (resource subscriptions,
 * waits) that keep a pad's connection open and reconnect it when dropped.
 * One per {@linkcode SessionPool}, shared by every MCP session.
 *
 * @module
 */

import { OwnIds } from "./_own_ids.ts";
import { PadPresence, type PersonPresence } from "./_pad_presence.ts";
import { OperatorLog } from "./logging.ts";
import type { SessionEvent } from "../rustpad/pad_state.ts";
import type { PersonCursors, PersonInRange } from "../rustpad/presence.ts";
import type { UserId } from "../rustpad/protocol.ts";
import type { PadSession } from "../rustpad/session.ts";
import type { SessionPool } from "../rustpad/session_pool.ts";
import { UndoHistory } from "../rustpad/undo.ts";

export type { PersonPresence } from "./_pad_presence.ts";

/** A session event, or the news that a dropped pad is connected again. */
export type LiveEvent = SessionEvent | { readonly type: "reconnected" };

/** Told of every event on a watched pad, with the session it came from. */
export type PadWatcher = (session: PadSession, event: LiveEvent) => void;

/** Delays between attempts to reconnect a watched pad. */
const RECONNECT_DELAYS_MS = [100, 500, 1000, 2000, 5000];

interface PadLive {
  readonly padId: string;
  session: PadSession | undefined;
  failed: boolean;
  presence: PadPresence;
  /** This process's user ids on the pad, across its connections. */
  ownIds: OwnIds;
  watchers: Set<PadWatcher>;
  release: (() => void) | undefined;
  reconnectTimer: ReturnType<typeof setTimeout> | undefined;
  attempts: number;
}

const registry = new WeakMap<SessionPool, LivePads>();

/**
 * Live knowledge of the pads a pool has open.
 *
 * @example Own edits are remembered for undo
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
 * await pool.edit("notes", () => TextOperation.fromJSON(["hi"]));
 * // Session events arrive in a microtask.
 * await new Promise((resolve) => setTimeout(resolve, 0));
 * assert.equal(live.undo.count("notes"), 1);
 * assert.deepEqual(live.openPads, ["notes"]);
 * ```
 */
export class LivePads {
  /** The pool watched. */
  readonly pool: SessionPool;
  /** Messages for operators, sent to every attached MCP server. */
  readonly log: OperatorLog = new OperatorLog();
  /** This process's own edits, for undo. */
  readonly undo: UndoHistory = new UndoHistory();
  #pads = new Map<string, PadLive>();
  #openListeners = new Set<() => void>();

  /**
   * The one instance for `pool`, made on first use; make it before the
   * pool opens any pad, so no session goes untracked.
   *
   * @param pool The pool.
   * @returns Its live state.
   */
  static of(pool: SessionPool): LivePads {
    let live = registry.get(pool);
    if (!live) {
      live = new LivePads(pool);
      registry.set(pool, live);
    }
    return live;
  }

  private constructor(pool: SessionPool) {
    this.pool = pool;
    pool.onOpen((padId, session) => this.#attach(padId, session));
    pool.onAdopt((padId, session, userId, fromRevision) =>
      this.#adopt(padId, session, userId, fromRevision)
    );
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
  async watch(
    padId: string,
    watcher: PadWatcher,
  ): Promise<{ session: PadSession; unwatch: () => void }> {
    const release = this.pool.retain(padId);
    let session: PadSession;
    try {
      session = await this.pool.get(padId);
    } catch (error) {
      release();
      throw error;
    }
    const pad = this.#pad(padId);
    pad.watchers.add(watcher);
    pad.release ??= release;
    if (pad.release !== release) release();
    let watching = true;
    const unwatch = () => {
      if (!watching) return;
      watching = false;
      pad.watchers.delete(watcher);
      if (pad.watchers.size > 0) return;
      clearTimeout(pad.reconnectTimer);
      pad.reconnectTimer = undefined;
      pad.release?.();
      pad.release = undefined;
    };
    return { session, unwatch };
  }

  /**
   * How many watchers hold `padId` open now (subscriptions and waits).
   *
   * @param padId The pad.
   * @returns The count.
   */
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

  /**
   * How many others are in the pad now: all {@linkcode LivePads.people}.
   *
   * @param padId The pad.
   * @returns The count; 0 for a pad not open.
   */
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
   * A display name for an author of the pad's history: the name they
   * announced, `"this agent"` for this process, else `"user N"`.
   *
   * @param padId The pad.
   * @param author The author's user id.
   * @returns The name (untrusted unless it is this agent).
   */
  authorName(padId: string, author: UserId): string {
    if (this.isOwn(padId, author)) return "this agent";
    return this.#pads.get(padId)?.presence.name(author) ?? `user ${author}`;
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
      pad = {
        padId,
        session: undefined,
        failed: false,
        presence: new PadPresence((session, id) =>
          this.pool.isOwnAuthor(session, id)
        ),
        ownIds: new OwnIds(),
        watchers: new Set(),
        release: undefined,
        reconnectTimer: undefined,
        attempts: 0,
      };
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
    pad.ownIds.attach(session);
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
   * A recovered edit's operation came in the new session's history (maybe
   * before we listened to it), authored by the old connection: it is ours.
   */
  #adopt(
    padId: string,
    session: PadSession,
    userId: UserId,
    fromRevision: number,
  ): void {
    const pad = this.#pad(padId);
    pad.ownIds.add(userId);
    if (pad.session !== session) return;
    const from = Math.max(fromRevision, session.oldestRevision);
    if (from > session.revision) return;
    for (const entry of session.operationsSince(from)) {
      if (entry.author === userId) this.undo.record(padId, entry);
    }
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
      if (this.pool.isOwnAuthor(session, event.entry.author)) {
        this.undo.record(pad.padId, event.entry);
      }
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
      if (pad.watchers.size === 0 && this.undo.count(pad.padId) === 0) {
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
    if (pad.watchers.size === 0 || pad.reconnectTimer !== undefined) return;
    const delay = RECONNECT_DELAYS_MS[
      Math.min(pad.attempts, RECONNECT_DELAYS_MS.length - 1)
    ]!;
    pad.attempts++;
    pad.reconnectTimer = setTimeout(() => {
      pad.reconnectTimer = undefined;
      if (pad.watchers.size === 0) return;
      this.pool.get(pad.padId).catch((error: Error) => {
        if (error instanceof TypeError) return; // The pool is closed.
        // A server that stays down is reported about once a minute.
        if (pad.attempts > 2 && pad.attempts % 12 !== 0) {
          return this.#scheduleReconnect(pad);
        }
        this.log.send(
          "warning",
          `Cannot reconnect to pad "${pad.padId}" yet (attempt ${pad.attempts}): ${error.message}`,
          { pad: pad.padId },
        );
        this.#scheduleReconnect(pad);
      });
    }, delay);
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
