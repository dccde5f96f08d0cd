/**
 * Each agent's own edits per pad (an owner is one agent, such as one MCP
 * session), so `undo_last_edit` can take them back one by one the way
 * ot.js's UndoManager does: a stack of inverses of the owner's edits, each
 * based on the text with every entry above it undone; everyone else's
 * operations (people's, other agents') transform the stack top-down, the
 * owner's edits push, its undos pop. The stack is rebuilt at undo time from the pad's history
 * (the session's revision log) and the record kept here of which history
 * operations were our edits and which our undos, so a reconnect or an edit
 * recovered on a new connection needs nothing more than that record.
 *
 * @module
 */

import type { TextOperation } from "../ot/operation.ts";
import type { UserId } from "./protocol.ts";
import type { LoggedOperation } from "./revision_log.ts";
import type { PadSession } from "./session.ts";
import {
  type Action,
  keyOf,
  knownAt,
  MAX_ACTIONS,
  MAX_HELD_UNDOS,
  order,
  remove,
  type StackEntry,
  transformStack,
  undoIn,
} from "./_undo_stack.ts";

/** How many own edits per pad can be undone, newest first. */
export const UNDO_DEPTH = 100;

/** What the rebuild needs of a session. */
export type UndoSession = Pick<
  PadSession,
  "oldestRevision" | "revision" | "operationsSince"
>;

/**
 * The own edits and undos of this process, per pad.
 *
 * @example Record an edit, then rebuild its undo after a person typed
 * ```ts
 * import { UndoHistory } from "./undo.ts";
 * import { RevisionLog } from "./revision_log.ts";
 * import { TextBuffer } from "../ot/text_buffer.ts";
 * import { TextOperation } from "../ot/operation.ts";
 * import assert from "node:assert/strict";
 *
 * const text = new TextBuffer("");
 * const log = new RevisionLog();
 * const write = (author: number, json: (string | number)[]) => {
 *   const operation = TextOperation.fromJSON(json);
 *   return log.append({ author, operation, inverse: text.applyAndInvert(operation) });
 * };
 * const history = new UndoHistory();
 * history.record("agent", "notes", write(1, ["hi"]));
 * write(2, ["> ", 2]);
 * const session = {
 *   oldestRevision: log.oldestRevision,
 *   revision: log.revision,
 *   operationsSince: (revision: number) => log.since(revision),
 * };
 * assert.equal(history.latest("agent", "notes"), 0);
 * assert.equal(history.rebuild("agent", "notes", session).apply(text.toString()), "> ");
 * // Another agent has nothing to undo there.
 * assert.equal(history.count("other", "notes"), 0);
 * ```
 */
export class UndoHistory {
  #pads = new Map<string, Action[]>();
  /** Stacks emptied by a restart of their pad, until their owner edits there. */
  #restarted = new Set<string>();
  /** Undos held as suggestions, by suggestion id: whose edit, and which. */
  #heldUndos = new Map<string, { owner: string; undone: number }>();
  #depth: number;

  /**
   * Make an empty history.
   *
   * @param depth Edits kept per pad.
   */
  constructor(depth: number = UNDO_DEPTH) {
    this.#depth = depth;
  }

  /**
   * Remember an own operation as the server applied it: an edit, or an
   * undo already marked by {@linkcode UndoHistory.markUndo}. No-op edits
   * are not kept; a revision already known is not kept twice.
   *
   * @param owner The agent that made it.
   * @param padId The pad.
   * @param entry The history entry, authored by this process.
   */
  record(owner: string, padId: string, entry: LoggedOperation): void {
    const key = keyOf(owner, padId);
    const actions = this.#pads.get(key) ?? [];
    const known = knownAt(actions, entry.revision);
    if (known?.kind === "undo") known.operation ??= entry.operation;
    if (known || entry.operation.isNoop()) return;
    const { revision, author, operation } = entry;
    this.#insert(key, actions, { kind: "edit", revision, author, operation });
  }

  /**
   * Say that our own operation at `revision` undid the edit at `undone`,
   * whether or not it was recorded yet.
   *
   * @param owner The agent that made it.
   * @param padId The pad.
   * @param revision The undo's revision in the history.
   * @param author The user id it was sent with.
   * @param undone The undone edit's revision.
   */
  markUndo(
    owner: string,
    padId: string,
    revision: number,
    author: UserId,
    undone: number,
  ): void {
    const key = keyOf(owner, padId);
    const actions = this.#pads.get(key) ?? [];
    const index = actions.findIndex((action) =>
      action.kind !== "drop" && action.revision === revision
    );
    const known = actions[index];
    const operation = known?.kind === "drop" ? undefined : known?.operation;
    const action: Action = {
      kind: "undo",
      revision,
      author,
      operation,
      undone,
    };
    if (index !== -1) actions.splice(index, 1);
    this.#insert(key, actions, action);
  }

  /**
   * Note that suggestion `id` undoes `owner`'s edit at `undone`. Accepted
   * later, {@linkcode UndoHistory.claim} marks it as that undo, as an undo
   * sent is, not as a new edit (which the next undo would redo).
   *
   * @param id The suggestion.
   * @param owner The agent whose edit it undoes.
   * @param undone The edit's revision.
   */
  holdUndo(id: string, owner: string, undone: number): void {
    this.#heldUndos.delete(id);
    this.#heldUndos.set(id, { owner, undone });
    if (this.#heldUndos.size > MAX_HELD_UNDOS) {
      this.#heldUndos.delete(this.#heldUndos.keys().next().value!);
    }
  }

  /**
   * The suggestions noted (see {@linkcode UndoHistory.holdUndo}) as undoing
   * `owner`'s edit at `undone`, whatever became of them since.
   */
  heldUndosOf(owner: string, undone: number): string[] {
    return [...this.#heldUndos]
      .filter(([, held]) => held.owner === owner && held.undone === undone)
      .map(([id]) => id);
  }

  /**
   * Claim an accepted suggestion's operation: the undo it was held as (see
   * {@linkcode UndoHistory.holdUndo}), else an edit of `agent`'s. Claiming
   * again changes nothing.
   *
   * @param agent The agent that made the suggestion.
   * @param padId The pad.
   * @param entry The history entry it landed as.
   * @param id The suggestion.
   */
  claim(
    agent: string,
    padId: string,
    entry: LoggedOperation,
    id: string,
  ): void {
    const held = this.#heldUndos.get(id);
    if (held === undefined) return this.record(agent, padId, entry);
    const { owner, undone } = held;
    this.markUndo(owner, padId, entry.revision, entry.author, undone);
    this.record(owner, padId, entry);
  }

  /**
   * Take the edit at `undone` off the stack with nothing sent, at text
   * revision `revision`: its inverse had become empty (people removed what
   * it changed).
   *
   * @param owner The agent whose edit it is.
   * @param padId The pad.
   * @param undone The edit's revision.
   * @param revision The pad's revision when it was found empty.
   */
  drop(owner: string, padId: string, undone: number, revision: number): void {
    const key = keyOf(owner, padId);
    const actions = this.#pads.get(key) ?? [];
    this.#insert(key, actions, { kind: "drop", revision, undone });
  }

  /**
   * The revision of the own edit an undo on `padId` reverts now.
   *
   * @param owner The agent.
   * @param padId The pad.
   * @returns The revision, or `undefined` when nothing is left.
   */
  latest(owner: string, padId: string): number | undefined {
    return this.#stack(keyOf(owner, padId)).at(-1);
  }

  /** How many of `owner`'s edits on `padId` can be undone. */
  count(owner: string, padId: string): number {
    return this.#stack(keyOf(owner, padId)).length;
  }

  /**
   * The operation that undoes {@linkcode UndoHistory.latest} now, on the
   * server's text at `session.revision`: its inverse transformed over
   * everything since as ot.js's UndoManager would, our later edits and
   * their undos cancelling out. It may be a no-op (people removed what the
   * edit changed).
   *
   * @param owner The agent.
   * @param padId The pad.
   * @param session The pad's session now.
   * @returns The operation, based on the text at `session.revision`.
   * @throws {Error} When nothing is left to undo, or the pad's history no
   * longer holds the edit or what we did since (too old, or the Rustpad
   * server restarted); the message says so and that nothing changed.
   */
  rebuild(owner: string, padId: string, session: UndoSession): TextOperation {
    const actions = this.#pads.get(keyOf(owner, padId)) ?? [];
    const undone = this.latest(owner, padId);
    if (undone === undefined && this.#restarted.has(keyOf(owner, padId))) {
      throw new Error(
        `Cannot undo on pad "${padId}" as the pad restarted since your edits there: its history no longer holds them, and its revisions name other operations now; current count is 0. Nothing was changed; read the pad again and edit it directly`,
      );
    }
    if (undone === undefined) {
      throw new Error(
        `Cannot undo on pad "${padId}" as you have no edit of your own left to undo there: current count is 0. Nothing was changed; only edits you made in this session can be undone`,
      );
    }
    if (undone < session.oldestRevision) {
      throw new Error(
        `Cannot undo your edit of revision ${
          undone + 1
        } on pad "${padId}" as the history kept starts later: current oldest revision is ${session.oldestRevision}. Nothing was changed; edit the pad directly`,
      );
    }
    const gone = () =>
      new Error(
        `Cannot undo your edit of revision ${
          undone + 1
        } on pad "${padId}" as the pad's history no longer holds it (the Rustpad server may have restarted): current revision is ${session.revision}. Nothing was changed; edit the pad directly`,
      );
    if (undone >= session.revision) throw gone();
    const log = session.operationsSince(undone);
    const later = actions.filter((action) => action.revision > undone);
    const stack: StackEntry[] = [];
    let next = 0;
    for (const entry of log) {
      for (
        let drop = later[next];
        drop?.kind === "drop";
        drop = later[++next]
      ) {
        if (drop.revision > entry.revision) break;
        remove(stack, drop.undone);
      }
      const action = entry.revision === undone
        ? actions.find((action) =>
          action.kind !== "drop" && action.revision === undone
        )
        : later[next]?.revision === entry.revision
        ? later[next++]
        : undefined;
      if (action && action.kind !== "drop") {
        if (
          action.author !== entry.author ||
          (action.operation && !action.operation.equals(entry.operation))
        ) throw gone();
      }
      if (action?.kind === "edit") {
        stack.push({ revision: entry.revision, inverse: entry.inverse });
      } else if (action?.kind === "undo") {
        undoIn(stack, action.undone, entry.operation);
      } else {
        transformStack(stack, stack.length, entry.operation);
      }
    }
    for (const action of later.slice(next)) {
      if (action.kind === "drop") remove(stack, action.undone);
    }
    const found = stack.find((entry) => entry.revision === undone);
    if (!found) throw gone();
    return found.inverse;
  }

  /** The revisions of the undoable edits, oldest first, `depth` at most. */
  #stack(key: string, depth = this.#depth): number[] {
    const stack: number[] = [];
    for (const action of this.#pads.get(key) ?? []) {
      if (action.kind === "edit") {
        stack.push(action.revision);
        if (stack.length > depth) stack.shift();
      } else {
        const index = stack.lastIndexOf(action.undone);
        if (index !== -1) stack.splice(index, 1);
      }
    }
    return stack;
  }

  /**
   * Whether any agent has an edit on `padId` it could still undo.
   *
   * @param padId The pad.
   * @returns `true` if some agent's stack there is not empty.
   */
  holds(padId: string): boolean {
    const suffix = keyOf("", padId);
    for (const key of this.#pads.keys()) {
      if (key.endsWith(suffix) && this.#stack(key).length > 0) return true;
    }
    return false;
  }

  /**
   * Forget every agent's edits on `padId`, as the pad restarted (Rustpad, or
   * a pad server that compacted its log): its revisions name other
   * operations now. An undo there says so until the agent edits again.
   *
   * @param padId The pad.
   */
  restarted(padId: string): void {
    const suffix = keyOf("", padId);
    for (const key of [...this.#pads.keys()]) {
      if (!key.endsWith(suffix)) continue;
      if (this.#stack(key).length > 0) this.#restarted.add(key);
      this.#pads.delete(key);
    }
  }

  /**
   * Forget everything `owner` did, when that agent is gone.
   *
   * @param owner The agent.
   */
  forget(owner: string): void {
    const prefix = keyOf(owner, "");
    for (const key of [...this.#pads.keys()]) {
      if (key.startsWith(prefix)) this.#pads.delete(key);
    }
    for (const key of [...this.#restarted]) {
      if (key.startsWith(prefix)) this.#restarted.delete(key);
    }
    for (const [id, held] of this.#heldUndos) {
      if (held.owner === owner) this.#heldUndos.delete(id);
    }
  }

  /**
   * Insert in history order, then, once the record holds four times the
   * depth, forget what no undo can need. Trimming reads the whole record:
   * done on every edit, each write paid for a hundred actions.
   */
  #insert(key: string, actions: Action[], action: Action): void {
    this.#restarted.delete(key);
    let index = actions.length;
    while (index > 0 && order(actions[index - 1]!) > order(action)) index--;
    actions.splice(index, 0, action);
    this.#pads.set(key, actions);
    if (actions.length <= 4 * this.#depth) return;
    // A rebuild starts at an edit still on the stack: what came before the
    // oldest one is never read again. The stack is taken twice as deep, as
    // an undo recorded before it is marked counts as an edit until then and
    // pushes the oldest true entry out.
    const oldest = this.#stack(key, 2 * this.#depth)[0];
    const keep = oldest === undefined
      ? actions.length
      : actions.findIndex((action) => order(action) >= oldest);
    if (keep > 0) actions.splice(0, keep);
    if (actions.length > MAX_ACTIONS) {
      actions.splice(0, actions.length - MAX_ACTIONS);
    }
    if (actions.length === 0) this.#pads.delete(key);
  }
}
