// The pad's text as one page holds it, kept in step with the server by the
// project's OT client state machine: local edits, the server's history, and
// what to do when a new connection tells the whole history again.

import type { TextOperation } from "../../ot/operation.ts";
import {
  applyClient,
  applyServer,
  type ClientState,
  serverAck,
  synchronized,
} from "../../ot/client_state.ts";
import type { UserId, UserOperation } from "../../rustpad/protocol.ts";
import { rebaseOver } from "./_cursor_moves.ts";
import { diffOperation } from "./units.ts";
import { mapPosition, pendingChanges, RevisionLog } from "./_revision_map.ts";

/** A position, and which side of an insert exactly at it it keeps to. */
export interface Anchor {
  /** In UTF-16 units. */
  readonly at: number;
  /** -1: before such an insert; 1: after it. */
  readonly assoc: -1 | 1;
}

/** What the text asks of its connection and its page. */
export interface SyncEffects {
  /** Send this edit now (the connection may hold it back). */
  send(revision: number, operation: TextOperation): void;
  /** An operation from elsewhere was applied to the text. */
  applied(operation: TextOperation, before: string): void;
  /** An edit of ours was acknowledged. */
  acknowledged(): void;
}

/** The local text, the server's text at our revision, and the OT state. */
export class TextSync {
  readonly #effects: SyncEffects;
  #text = "";
  /** The text at `#state.revision`, as the server has it. */
  #serverText = "";
  #state: ClientState = synchronized(0);
  /** Our ids in this life of the pad: acknowledgements come under any. */
  #ours = new Set<UserId>();
  /** The server's last operations, to carry positions from before them. */
  readonly #log = new RevisionLog();

  constructor(effects: SyncEffects) {
    this.#effects = effects;
  }

  /** The text with our unacknowledged edits. */
  get text(): string {
    return this.#text;
  }

  /** Where the OT client stands. */
  get state(): ClientState {
    return this.#state;
  }

  /** A local edit, based on the text: applied now, sent when it may be. */
  edit(operation: TextOperation): void {
    this.#text = operation.apply(this.#text);
    const { state, send } = applyClient(this.#state, operation);
    this.#state = state;
    if (send !== undefined) this.#effects.send(send.revision, send.operation);
  }

  /**
   * A new connection, as user `me`, told the pad's whole `history`. If it
   * begins with the history we had, we go on from there, as Rustpad's own
   * page does. Otherwise the server lost it (a restart): its text becomes
   * ours, with our unsent edits moved over the difference. Either way the
   * edit in flight, if any, is to be sent again on the new connection.
   */
  resync(me: UserId, history: readonly UserOperation[]): void {
    const revision = this.#state.revision;
    let known = "";
    for (const entry of history.slice(0, revision)) {
      known = entry.operation.apply(known);
    }
    if (history.length >= revision && known === this.#serverText) {
      this.#ours.add(me);
      this.receive(history.slice(revision));
    } else {
      let text = "";
      for (const entry of history) text = entry.operation.apply(text);
      const lost = diffOperation(this.#serverText, text);
      const { state, local } = rebaseOver(this.#state, lost, history.length);
      this.#state = state;
      this.#log.reset(history.length);
      this.#serverText = text;
      this.#ours = new Set([me]);
      this.#apply(local);
    }
  }

  /** The next operations of the server's history, in order. */
  receive(operations: readonly UserOperation[]): void {
    for (const { id, operation } of operations) {
      const before = this.#serverText;
      this.#serverText = operation.apply(before);
      this.#log.record(this.#state.revision, operation, before);
      if (!this.#ours.has(id)) {
        const { state, apply } = applyServer(this.#state, operation);
        this.#state = state;
        this.#apply(apply);
      } else if (this.#state.kind === "synchronized") {
        // Ours, and already in the text: nothing was waiting for it.
        this.#state = synchronized(this.#state.revision + 1);
      } else {
        const { state, send } = serverAck(this.#state);
        this.#state = state;
        if (send !== undefined) {
          this.#effects.send(send.revision, send.operation);
        }
        this.#effects.acknowledged();
      }
    }
  }

  /**
   * `anchors` in the server's text at `revision`, in this text now;
   * undefined when that revision is ahead of ours or no longer kept.
   */
  carry(revision: number, anchors: readonly Anchor[]): number[] | undefined {
    const now = this.#state.revision;
    const pending = pendingChanges(this.#state, this.#serverText);
    const carried = [];
    for (const { at, assoc } of anchors) {
      let position = this.#log.carry(at, revision, now, assoc);
      if (position === undefined) return undefined;
      for (const changes of pending) {
        position = mapPosition(position, changes, assoc);
      }
      carried.push(position);
    }
    return carried;
  }

  #apply(operation: TextOperation): void {
    if (operation.isNoop()) return;
    const before = this.#text;
    this.#text = operation.apply(before);
    this.#effects.applied(operation, before);
  }
}
