/**
 * One live session per pad, shared by every tool call on that pad. Rustpad
 * drops connections that fall 16 metadata messages behind, so a client that
 * cares about the people in a pad keeps one connection per pad and announces
 * itself once, rather than connecting for every call.
 *
 * At most `maxOpen` sessions (of this pool, or of every pool sharing its
 * `slots`) are open or opening at once. To open another, the least recently
 * used idle one is closed; a session held ({@linkcode SessionPool.retain}),
 * opening, or awaiting an acknowledgement never is. When every one is held,
 * opening one more is refused with an {@linkcode OpenPadLimitError}.
 *
 * @module
 */

import type { TextOperation } from "../ot/operation.ts";
import type { UserId } from "./protocol.ts";
import { Adoptions, type AdoptListener } from "./_adoption.ts";
import type { PadSession } from "./session.ts";
import {
  acknowledged,
  type EditOutcome,
  recovered,
  type SessionPoolOptions,
} from "./_pool_types.ts";
import { armIdle, type Entry, openEntry } from "./_pool_entry.ts";
import { EditNotAcknowledgedError } from "./session_error.ts";
import {
  DEFAULT_MAX_OPEN_PADS,
  PadSlots,
  type SlotHolder,
} from "./pad_slots.ts";
import { PadLineages, type PadRestart } from "./_lineage.ts";
import { reopenAndSettle, settleForeign, settleOptions } from "./_recovery.ts";

export { DEFAULT_MAX_OPEN_PADS } from "./pad_slots.ts";

export type {
  EditMark,
  EditOutcome,
  SessionPoolOptions,
} from "./_pool_types.ts";
export type { AdoptListener } from "./_adoption.ts";
export type { PadRestart } from "./_lineage.ts";

/**
 * Opens, reuses and closes pad sessions.
 *
 * @example
 * ```ts
 * import { SessionPool } from "../mod.ts";
 * import { startPadServer } from "@rustpad-mcp/server/testing";
 * import assert from "node:assert/strict";
 *
 * await using server = await startPadServer();
 * await using pool = new SessionPool(server.url);
 * const first = await pool.get("notes");
 * assert.equal(await pool.get("notes"), first);
 * ```
 */
export class SessionPool {
  #baseUrl: string | URL;
  #options: SessionPoolOptions;
  /** Least recently used first: {@linkcode SessionPool.#touch} moves to the end. */
  #entries = new Map<string, Entry>();
  #closed = false;
  /** Pads kept open whatever their idle time, with how many holds each. */
  #retained = new Map<string, number>();
  #openListeners = new Set<(padId: string, session: PadSession) => void>();
  /** Earlier connections' ids whose edits a session recovered. */
  #adoptions = new Adoptions();
  /** What each pad's histories were, across its sessions. */
  #lineages = new PadLineages();
  #slots: PadSlots;
  #holder: SlotHolder;
  #leaveSlots: () => void;

  /**
   * Make an empty pool; sessions open on first use.
   *
   * @param baseUrl The Rustpad base URL.
   * @param options Timeout, announced user, idle time and socket budget.
   */
  constructor(baseUrl: string | URL, options: SessionPoolOptions = {}) {
    this.#baseUrl = baseUrl;
    this.#options = options;
    this.#slots = options.slots ??
      new PadSlots(options.maxOpen ?? DEFAULT_MAX_OPEN_PADS);
    const counted = () => this.openCount;
    const oldestIdle = () => this.#oldestIdle();
    this.#holder = {
      get openCount() {
        return counted();
      },
      oldestIdle,
    };
    this.#leaveSlots = this.#slots.join(this.#holder);
  }

  /**
   * The open session on `padId`, connecting if there is none or the last
   * one failed. Concurrent calls share one connection attempt.
   *
   * @param padId The pad id.
   * @returns A ready session.
   * @throws {SessionError} If connecting fails.
   * @throws {TypeError} If the pool is closed or the pad id is invalid.
   */
  async get(padId: string): Promise<PadSession> {
    if (this.#closed) {
      throw new TypeError(
        `Cannot open pad "${padId}" as the session pool is closed`,
      );
    }
    const known = this.#entries.get(padId);
    if (known) {
      const session = await known.session.catch(() => undefined);
      if (session?.isOpen) {
        this.#touch(padId, known);
        return session;
      }
      // Failed or closed: forget it, then connect anew.
      await this.#drop(padId, known);
    }
    // A concurrent call may have started connecting meanwhile: share it.
    const entry = this.#entries.get(padId) ?? this.#open(padId);
    const session = await entry.session;
    this.#touch(padId, entry);
    return session;
  }

  /** How many sessions of this pool hold a socket now: open or opening. */
  get openCount(): number {
    let count = 0;
    for (const { ready, failed } of this.#entries.values()) {
      count += (ready ? ready.isOpen : !failed) ? 1 : 0;
    }
    return count;
  }

  /** The most sessions open at once, across the pools of its budget. */
  get maxOpen(): number {
    return this.#slots.max;
  }

  /** The least recently used session that may close to make room. */
  #oldestIdle(): ReturnType<SlotHolder["oldestIdle"]> {
    for (const [id, entry] of this.#entries) {
      const session = entry.ready;
      if (
        session?.isOpen && !session.hasPendingEdits && !this.#retained.has(id)
      ) return { usedAt: entry.usedAt, close: () => this.#drop(id, entry) };
    }
    return undefined;
  }

  #open(padId: string): Entry {
    // The new session connects once the socket closed for it is closed,
    // so never more are open than the budget.
    const room = this.#slots.makeRoom(padId, this.#holder);
    const stamp = this.#slots.stamp();
    const entry = openEntry(this.#baseUrl, padId, this.#options, room, stamp);
    this.#entries.set(padId, entry);
    entry.session.then((session) => {
      entry.ready = session;
      this.#lineages.join(session, (id) => this.#entries.has(id));
      for (const listener of this.#openListeners) {
        try {
          listener(padId, session);
        } catch {
          // A listener's failure is its own; the session goes on.
        }
      }
    }, () => {
      entry.failed = true;
      if (this.#entries.get(padId) === entry) this.#entries.delete(padId);
    });
    return entry;
  }

  /**
   * The restart of `session`'s pad that a caller's `revision` predates, if
   * this pool found one (see `_lineage.ts`); `undefined` if `revision` may
   * be of the history now.
   */
  staleRevision(session: PadSession, revision: number): PadRestart | undefined {
    return this.#lineages.staleRevision(session, revision);
  }

  /** The restart found when `session` opened: its history was not the last one's. */
  restartOn(session: PadSession): PadRestart | undefined {
    return this.#lineages.restartOn(session);
  }

  /** Note that a caller was given `revision` (by default the open session's) of `padId`. */
  noteShown(padId: string, revision?: number): void {
    const shown = revision ?? this.#entries.get(padId)?.ready?.revision;
    if (shown !== undefined) this.#lineages.show(padId, shown);
  }

  /**
   * Keep `padId`'s session from closing, when idle or to make room for
   * another pad (a subscription, a wait or a call in flight needs it), until
   * the returned function is called; holds nest. The pad need not be open.
   *
   * @param padId The pad id.
   * @returns Releases this hold (idempotent); the idle clock restarts.
   */
  retain(padId: string): () => void {
    this.#retained.set(padId, (this.#retained.get(padId) ?? 0) + 1);
    let held = true;
    return () => {
      if (!held) return;
      held = false;
      const count = (this.#retained.get(padId) ?? 1) - 1;
      if (count > 0) return void this.#retained.set(padId, count);
      this.#retained.delete(padId);
      const entry = this.#entries.get(padId);
      if (entry) this.#touch(padId, entry);
    };
  }

  /**
   * Be told (with the pad id and the ready session) of every session this
   * pool opens, before any caller gets it; returns the unsubscribe.
   */
  onOpen(listener: (padId: string, session: PadSession) => void): () => void {
    this.#openListeners.add(listener);
    return () => this.#openListeners.delete(listener);
  }

  /**
   * Whether `author` (from `session`'s history) is this pool: the session's
   * own user id, or an earlier connection's whose edit was recovered on it.
   */
  isOwnAuthor(session: PadSession, author: UserId): boolean {
    return this.#adoptions.isOwnAuthor(session, author);
  }

  /**
   * Be told (with the pad, the session, the old id and the revision its
   * operations may start at) when a session takes an earlier connection's
   * id as its own, having recovered its edit; returns the unsubscribe.
   */
  onAdopt(listener: AdoptListener): () => void {
    return this.#adoptions.listen(listener);
  }

  /**
   * Build an operation from the pad's current state and submit it. If the
   * server closes the connection before the acknowledgement, a new
   * connection reads the history to learn whether the edit landed: if it
   * did, this resolves as usual (with `recovered: true`); if not, it rejects
   * saying nothing changed, except that an edit whose server had gone
   * altogether is sent once more to the server started again.
   *
   * @param padId The pad id.
   * @param build Makes the operation from the ready session, synchronously,
   * so no other operation can arrive in between; it may throw to refuse.
   * @returns The acknowledgement and the pad's length.
   * @throws {EditNotAcknowledgedError} If the edit did not land or whether
   * it landed cannot be known; the message says which.
   */
  async edit(
    padId: string,
    build: (session: PadSession) => TextOperation,
  ): Promise<EditOutcome> {
    // Held until the outcome is known, through any recovery.
    const release = this.retain(padId);
    try {
      for (let sends = 1;; sends++) {
        const session = await this.get(padId);
        const operation = build(session);
        try {
          const ack = await session.submit(operation);
          this.noteShown(padId, ack.revision);
          return acknowledged(session, ack);
        } catch (error) {
          if (!(error instanceof EditNotAcknowledgedError && error.sent)) {
            throw error;
          }
          const lineage = session.lineageAt(error.revision);
          const outcome = await this.#recover(padId, error, lineage, sends);
          if (outcome) return outcome;
        }
      }
    } finally {
      release();
    }
  }

  /**
   * A new connection decides whether the lost edit landed: its outcome if
   * so; `undefined` to send it once more if not and the whole server had
   * gone (the connection closed, and reopening waited for the server to
   * come back) rather than hung up on the edit.
   */
  async #recover(
    padId: string,
    error: EditNotAcknowledgedError,
    lineage: string | undefined,
    sends: number,
  ): Promise<EditOutcome | undefined> {
    const settling = { ...settleOptions(this.#options), lineage };
    const { fresh, landed } = await reopenAndSettle(
      () => this.get(padId),
      error,
      settling,
      (fresh) => {
        const entry = this.#entries.get(padId);
        return sends === 1 && error.kind === "closed" &&
          entry?.ready === fresh && entry.waited === true;
      },
    );
    if (!landed) return undefined;
    this.#adoptions.adopt(padId, fresh, error.userId, error.revision);
    this.noteShown(padId, fresh.revision);
    return recovered(fresh);
  }

  /**
   * Whether an edit that another process (a replica that stopped) sent on
   * its connection `userId`, built on `revision`, landed: decided as for a
   * lost acknowledgement of our own (see `_recovery.ts`).
   *
   * @param padId The pad.
   * @param sent The sending connection's user id and the revision then.
   * @returns The pad now if it landed; `undefined` if it did not.
   * @throws {EditNotAcknowledgedError} If that cannot be known.
   */
  async landedElsewhere(
    padId: string,
    sent: { userId: UserId; revision: number; lineage?: string | undefined },
  ): Promise<EditOutcome | undefined> {
    const release = this.retain(padId);
    try {
      const open = () => this.get(padId);
      const fresh = await settleForeign(
        open,
        padId,
        sent,
        settleOptions(this.#options),
      );
      return fresh && recovered(fresh);
    } finally {
      release();
    }
  }

  /** Close every session; later calls to {@linkcode SessionPool.get} fail. */
  async close(): Promise<void> {
    this.#closed = true;
    this.#leaveSlots();
    const entries = [...this.#entries.entries()];
    this.#entries.clear();
    await Promise.all(
      entries.map(([padId, entry]) => this.#drop(padId, entry)),
    );
  }

  /** Close every session; for `await using`. */
  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }

  #touch(padId: string, entry: Entry): void {
    entry.usedAt = this.#slots.stamp();
    entry.lastUsed = performance.now();
    if (this.#entries.get(padId) === entry) {
      // Most recently used: to the end of the eviction order.
      this.#entries.delete(padId);
      this.#entries.set(padId, entry);
    }
    // One timer per session, checked when it fires: a call touches its pad
    // several times, and re-arming a timer each time costs more than the
    // rest of the bookkeeping.
    if (entry.idleTimer === undefined) this.#armIdle(padId, entry);
  }

  #armIdle(padId: string, entry: Entry): void {
    armIdle(entry, this.#options.idleMs ?? 120_000, async () => {
      const session = await entry.session.catch(() => undefined);
      // Never cut an edit short: wait for its acknowledgement first.
      if (session?.hasPendingEdits || this.#retained.has(padId)) {
        this.#touch(padId, entry);
      } else await this.#drop(padId, entry);
    });
  }

  async #drop(padId: string, entry: Entry): Promise<void> {
    clearTimeout(entry.idleTimer);
    if (this.#entries.get(padId) === entry) this.#entries.delete(padId);
    const session = await entry.session.catch(() => undefined);
    await session?.close();
    if (session) this.#lineages.leave(session);
  }
}
