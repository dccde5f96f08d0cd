/**
 * The document state a session folds from the server's messages, apart from
 * the socket that carries them: the text with our pending edits, the text at
 * the server's revision, the recent history with authors and inverses, and
 * who is in the pad. Pure: no timers, no I/O.
 *
 * @module
 */

import {
  applyClient,
  applyServer,
  type ClientState,
  type EditToSend,
  serverAck,
  synchronized,
} from "../ot/client_state.ts";
import type { TextOperation } from "../ot/operation.ts";
import {
  type CursorData,
  MAX_TEXT_LENGTH,
  type ServerMessage,
  type UserId,
  type UserOperation,
} from "./protocol.ts";
import { type LoggedOperation, RevisionLog } from "./revision_log.ts";
import type { SessionError } from "./session_error.ts";
import { TextBuffer } from "../ot/text_buffer.ts";
import { PadPeople, type PadUser } from "./_pad_people.ts";
import { chainDigest, Lineage } from "./_history_digest.ts";
import type { SessionEvent, SessionListener } from "./session_event.ts";

export type { SessionEvent, SessionListener } from "./session_event.ts";
import { HistoryBacklog } from "./_history_backlog.ts";

/**
 * A pad's state as one client sees it, folded from server messages and its
 * own edits through the {@link ../ot/client_state.ts | client state machine}.
 *
 * @example Fold a history, then rebase an edit made against revision 1
 * ```ts
 * import { PadState, TextOperation } from "../mod.ts";
 * import assert from "node:assert/strict";
 *
 * const state = new PadState();
 * state.receive({ History: { start: 0, operations: [
 *   { id: 1, operation: TextOperation.fromJSON(["world"]) },
 *   { id: 2, operation: TextOperation.fromJSON(["hello ", 5]) },
 * ] } }, 0, () => {});
 * const late = state.rebase(TextOperation.fromJSON([5, "!"]), 1);
 * assert.equal(late.apply(state.text), "hello world!");
 * ```
 */
export class PadState {
  #client: ClientState = synchronized(0);
  #server = new TextBuffer();
  /**
   * The text with our pending edits: the server's buffer itself while none
   * is pending (a history is then applied once, not twice), a copy of it
   * with them applied otherwise.
   */
  #local = this.#server;
  #log = new RevisionLog();
  /**
   * Others' operations received while nothing of ours was pending and no
   * one listened, not yet in `#server` and `#log` (see _history_backlog.ts):
   * folded in by {@linkcode PadState.#settled} before anything reads them.
   */
  #backlog = new HistoryBacklog();
  /** The author of operation 0, kept past the log's window. */
  #firstAuthor: UserId | undefined;
  /** The digests naming the history's first 1, 2, … operations. */
  readonly #lineage = new Lineage();
  #people = new PadPeople();
  #listeners = new Set<SessionListener>();

  /** The text with our pending edits. */
  get text(): string {
    return this.#settled().#local.toString();
  }

  /** Length of {@linkcode PadState.text} in code points. */
  get length(): number {
    // While a backlog is held nothing of ours is pending: no need to fold.
    return this.#backlog.length ?? this.#local.length;
  }

  /**
   * {@linkcode PadState.text} as it is now, to read later: a copy of the
   * chunk list, not of the text, which is joined only if asked for.
   */
  textSnapshot(): Pick<TextBuffer, "window" | "toString" | "locator"> {
    return this.#settled().#local.clone();
  }

  /** The text at {@linkcode PadState.revision}, as the server has it. */
  get serverText(): string {
    return this.#settled().#server.toString();
  }

  /** The server's text at `revision` (default: now), as a buffer of its own. */
  serverBuffer(revision?: number): TextBuffer {
    const state = this.#settled();
    return revision === undefined
      ? state.#server.clone()
      : state.#log.bufferAt(revision, state.#server);
  }

  /** {@linkcode PadState.serverText}'s length in code points, known without counting. */
  get serverLength(): number {
    return this.#backlog.length ?? this.#server.length;
  }

  /** History operations applied. */
  get revision(): number {
    return this.#client.revision;
  }

  /** The oldest revision {@linkcode PadState.textAt} and rebase accept. */
  get oldestRevision(): number {
    return this.#settled().#log.oldestRevision;
  }

  /** Whether edits of ours wait for their acknowledgement. */
  get hasPendingEdits(): boolean {
    return this.#client.kind !== "synchronized";
  }

  /**
   * The editor language, or `null` if never set; cut to
   * {@linkcode MAX_NAME_LENGTH} code points.
   */
  get language(): string | null {
    return this.#people.language;
  }

  /** Whether the language set was longer and is cut, ending in "…". */
  get languageTruncated(): boolean {
    return this.#people.languageTruncated;
  }

  /** Everyone announced in the pad, by user id, names cut. */
  get users(): ReadonlyMap<UserId, PadUser> {
    return this.#people.users;
  }

  /** Cursor data by user id, at most {@linkcode MAX_CURSORS} of each kind. */
  get cursors(): ReadonlyMap<UserId, CursorData> {
    return this.#people.cursors;
  }

  /**
   * The author of history operation `revision`: the first, or one within
   * the log's window (all of them would grow without bound).
   *
   * @param revision The operation's index in the history.
   * @returns The author, or `undefined` if not seen yet or no longer kept.
   */
  authorOf(revision: number): UserId | undefined {
    if (revision === 0) return this.#firstAuthor;
    return this.#settled().#log.authorOf(revision);
  }

  /**
   * The digest naming the history's first operations up to `revision`
   * (`_history_digest.ts`; a restarted server's differs), or `undefined`.
   */
  lineageAt(revision: number): string | undefined {
    if (revision > this.#client.revision) return undefined;
    return this.#lineage.at(revision);
  }

  /**
   * The digest of the operation at history index `at` with its author (to
   * tell it from another after a restart); `undefined` past the log.
   */
  operationDigest(at: number): string | undefined {
    // A held entry needs no fold (a session closing asks for its last).
    const held = this.#backlog.at(at - this.#log.revision);
    const entry = held ?? this.#settled().#log.at(at);
    return entry && chainDigest("", entry.author, entry.operation);
  }

  /**
   * The operations since `revision`, within the log's window.
   *
   * @param revision A revision from {@linkcode PadState.oldestRevision} on.
   * @returns Oldest first.
   * @throws {RangeError} Outside the window.
   */
  operationsSince(revision: number): readonly LoggedOperation[] {
    return this.#settled().#log.since(revision);
  }

  /**
   * The server's text at `revision`.
   *
   * @param revision A revision within the window.
   * @returns The text then.
   * @throws {RangeError} Outside the window.
   */
  textAt(revision: number): string {
    return this.#settled().#log.textAt(revision, this.#server);
  }

  /**
   * Turn an operation made against the text at `baseRevision` into one on
   * {@linkcode PadState.text}, transformed over everything since with ours
   * first at a tie, as the server transforms an incoming edit.
   *
   * @param operation Based on the text at `baseRevision`.
   * @param baseRevision A revision within the window.
   * @returns The operation to submit now.
   * @throws {RangeError} Outside the window, or if the operation does not
   * fit the text at `baseRevision`.
   */
  rebase(operation: TextOperation, baseRevision: number): TextOperation {
    const since = this.#settled().#log.since(baseRevision);
    const baseLength = since[0]?.operation.baseLength ?? this.#server.length;
    if (operation.baseLength !== baseLength) {
      throw new RangeError(
        `Cannot rebase edit as its base length ${operation.baseLength} differs from the pad length at revision ${baseRevision}: length then was ${baseLength}`,
      );
    }
    let rebased = operation;
    for (const entry of since) [rebased] = rebased.transform(entry.operation);
    const client = this.#client;
    if (client.kind === "awaitingConfirm") {
      [rebased] = rebased.transform(client.outstanding);
    } else if (client.kind === "awaitingWithBuffer") {
      [rebased] = rebased.transform(client.outstanding.compose(client.buffer));
    }
    return rebased;
  }

  /**
   * Apply our own operation to the local text.
   *
   * @param operation Based on {@linkcode PadState.text}.
   * @returns The edit to send now, if nothing was in flight.
   * @throws {RangeError} If it does not fit or the result is over Rustpad's
   * limit; nothing changes.
   */
  applyLocal(operation: TextOperation): EditToSend | undefined {
    this.#settled();
    if (operation.baseLength !== this.#local.length) {
      throw new RangeError(
        `Cannot submit edit as its base length ${operation.baseLength} differs from the pad length: current length is ${this.#local.length}`,
      );
    }
    if (operation.targetLength > MAX_TEXT_LENGTH) {
      throw new RangeError(
        `Cannot submit edit as the pad would be ${operation.targetLength} code points, over Rustpad's limit of ${MAX_TEXT_LENGTH}: current length is ${this.#local.length}`,
      );
    }
    const transition = applyClient(this.#client, operation);
    if (this.#local === this.#server) this.#local = this.#server.clone();
    this.#local.apply(operation);
    this.#client = transition.state;
    return transition.send;
  }

  /**
   * Fold one server message (anything after `Identity`).
   *
   * @param message The message.
   * @param ownId This connection's user id, whose history entries are
   * acknowledgements.
   * @param onAck Called at each acknowledgement, with the buffered edit to
   * send next if any.
   * @throws {RangeError} If history operations are missing or do not fit.
   * @throws {TypeError} On a second `Identity`, or an acknowledgement with
   * nothing in flight.
   */
  receive(
    message: ServerMessage,
    ownId: UserId,
    onAck: (send: EditToSend | undefined) => void,
  ): void {
    if ("History" in message) {
      const { start, operations } = message.History;
      this.#receiveHistory(start, operations, ownId, onAck);
    } else if ("Language" in message) {
      const language = this.#people.setLanguage(message.Language);
      this.#emit({ type: "language", language });
    } else if ("UserInfo" in message) {
      this.#people.setUser(message.UserInfo.id, message.UserInfo.info);
      this.#emit({ type: "users" });
    } else if ("UserCursor" in message) {
      this.#people.setCursor(message.UserCursor.id, message.UserCursor.data);
      this.#emit({ type: "cursor", id: message.UserCursor.id });
    } else {
      throw new TypeError(
        `Cannot take a second Identity: current user id is ${ownId}`,
      );
    }
  }

  /**
   * Be told of every change, after it is folded in. Listeners run in a
   * microtask, so they may call back into the session.
   *
   * @param listener Called with each event.
   * @returns A function that unsubscribes.
   */
  subscribe(listener: SessionListener): () => void {
    // Held operations came before it listened: they have no events, and
    // the next one to come is folded in after them, with its event.
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /**
   * Tell subscribers the session ended; no events follow.
   *
   * @param error Why, or `undefined` when closed on purpose.
   */
  end(error: SessionError | undefined): void {
    this.#emit({ type: "closed", error });
    this.#listeners.clear();
  }

  #receiveHistory(
    start: number,
    operations: readonly UserOperation[],
    ownId: UserId,
    onAck: (send: EditToSend | undefined) => void,
  ): void {
    // An index loop: the initial burst runs this before it is compiled, and
    // an iterator of [offset, entry] pairs costs twice the loop there.
    for (let offset = 0; offset < operations.length; offset++) {
      const { id, operation } = operations[offset]!;
      const revision = start + offset;
      // The server may resend operations we already have (overlap).
      if (revision < this.#client.revision) continue;
      if (revision > this.#client.revision) {
        throw new RangeError(
          `Cannot apply history from revision ${revision} as operations are missing: current revision is ${this.#client.revision}`,
        );
      }
      if (revision === 0) this.#firstAuthor = id;
      this.#lineage.note(revision, id, operation);
      if (
        id !== ownId && this.#listeners.size === 0 &&
        this.#client.kind === "synchronized" &&
        !this.#backlog.full
      ) {
        // Held, checked to fit; folded in when something reads it.
        this.#backlog.hold(
          operations[offset]!,
          this.#backlog.length ?? this.#server.length,
        );
        this.#client = synchronized(revision + 1);
        continue;
      }
      const inverse = this.#settled().#server.applyAndInvert(operation);
      const entry = this.#log.append({ author: id, operation, inverse });
      if (id === ownId) {
        const { state, send } = serverAck(this.#client);
        this.#client = state;
        // Nothing pending: the server's text is ours again.
        if (state.kind === "synchronized") this.#local = this.#server;
        onAck(send);
      } else {
        const { state, apply } = applyServer(this.#client, operation);
        // Shared while nothing is pending: applied above already.
        if (this.#local !== this.#server) this.#local.apply(apply);
        this.#client = state;
      }
      this.#emit({ type: "operation", entry });
    }
  }

  /** This state with its backlog folded into the text and the log. */
  #settled(): this {
    if (this.#backlog.size > 0) this.#backlog.foldInto(this.#server, this.#log);
    return this;
  }

  #emit(event: SessionEvent): void {
    if (this.#listeners.size === 0) return;
    const listeners = [...this.#listeners];
    queueMicrotask(() => {
      for (const listener of listeners) {
        try {
          listener(event);
        } catch {
          // A listener's failure is its own; the session goes on.
        }
      }
    });
  }
}
