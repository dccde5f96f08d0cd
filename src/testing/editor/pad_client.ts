/**
 * The browser page's connection to one pad, without the DOM: the project's
 * own operation type and client state machine over a WebSocket, with the
 * people in the pad, their cursors, the language, and reconnection with
 * backoff. Positions are code points, as on the wire.
 *
 * On every connection the first frame after `Identity` tells the pad's
 * whole history (or that it has none). If that history starts with the one
 * this client had, it goes on from there, as Rustpad's own page does;
 * otherwise the server lost it (a restart): the client takes the server's
 * text, with its own unsent edits moved over the difference and sent again.
 *
 * @module
 */

import type { TextOperation } from "../../ot/operation.ts";
import {
  applyClient,
  applyServer,
  type ClientState,
  serverAck,
  synchronized,
} from "../../ot/client_state.ts";
import {
  type ClientMessage,
  type CursorData,
  encodeMessage,
  parseServerMessage,
  type ServerMessage,
  type UserId,
  type UserInfo,
  type UserOperation,
} from "../../rustpad/protocol.ts";
import { diffOperation } from "./units.ts";

/** Where the connection stands. */
export type ConnectionStatus = "connecting" | "connected" | "disconnected";

/** Someone else in the pad: who, and where their cursors are. */
export interface Peer {
  /** Their name and colour. */
  readonly info: UserInfo;
  /** Their cursors and selections, in code points of the current text. */
  readonly cursor: CursorData | undefined;
}

/** What the page is told. */
export interface PadClientEvents {
  /** An operation from elsewhere was applied; `before` is the old text. */
  remote?(operation: TextOperation, before: string): void;
  /** The people or their cursors changed. */
  peers?(peers: ReadonlyMap<UserId, Peer>): void;
  /** The pad's language changed. */
  language?(language: string): void;
  /** The connection changed. */
  status?(status: ConnectionStatus): void;
}

/** How to open a {@linkcode PadClient}. */
export interface PadClientOptions {
  /** The pad's socket URL, such as `ws://127.0.0.1:3030/api/socket/notes`. */
  readonly url: string;
  /** This person's name and colour. */
  readonly user: UserInfo;
  /** What to tell. */
  readonly events?: PadClientEvents;
  /** First reconnect delay; it doubles per failure up to 30 s. */
  readonly reconnectMs?: number;
}

const MAX_RECONNECT_MS = 30_000;

/**
 * One person's live copy of a pad.
 *
 * @example Type into a pad
 * ```ts
 * import { startPadServer } from "../pad_server.ts";
 * import { TextOperation } from "../../ot/operation.ts";
 * import { PadClient } from "./pad_client.ts";
 * import assert from "node:assert/strict";
 *
 * await using server = await startPadServer();
 * const client = new PadClient({
 *   url: `${server.url.replace("http", "ws")}/api/socket/notes`,
 *   user: { name: "Ada", hue: 30 },
 * });
 * await client.connected;
 * client.edit(TextOperation.fromJSON(["hi"]));
 * await client.settled();
 * assert.equal(server.text("notes"), "hi");
 * client.close();
 * ```
 */
export class PadClient {
  readonly #options: PadClientOptions;
  #socket: WebSocket | undefined;
  #status: ConnectionStatus = "connecting";
  #text = "";
  /** The text at `#state.revision`, as the server has it. */
  #serverText = "";
  #state: ClientState = synchronized(0);
  #me: UserId | undefined;
  /** Our ids in this life of the pad: acknowledgements come under any. */
  #ours = new Set<UserId>();
  /** True from `Identity` until the frame that tells the history. */
  #welcome = false;
  /** True once the first frame after `Identity` was handled. */
  #synced = false;
  #cursor: CursorData = { cursors: [], selections: [] };
  #cursorPending = false;
  readonly #peers = new Map<UserId, Peer>();
  #user: UserInfo;
  #failures = 0;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #closed = false;
  #connected = Promise.withResolvers<void>();
  readonly #waiters: (() => void)[] = [];

  /**
   * Connect at once; reconnects by itself until {@linkcode PadClient.close}.
   *
   * @param options The pad, the person, what to tell.
   */
  constructor(options: PadClientOptions) {
    this.#options = options;
    this.#user = options.user;
    this.#connect();
  }

  /** Resolves once the first connection knows the pad's text. */
  get connected(): Promise<void> {
    return this.#connected.promise;
  }

  /** The text as this person sees it, their unacknowledged edits included. */
  get text(): string {
    return this.#text;
  }

  /** Operations of the pad's history applied. */
  get revision(): number {
    return this.#state.revision;
  }

  /** The connection's state. */
  get status(): ConnectionStatus {
    return this.#status;
  }

  /** The others in the pad who announced themselves, by user id. */
  get peers(): ReadonlyMap<UserId, Peer> {
    return this.#peers;
  }

  /** Whether edits of ours are not yet acknowledged. */
  get pending(): boolean {
    return this.#state.kind !== "synchronized";
  }

  /**
   * A local edit, based on {@linkcode PadClient.text}: applied at once, sent
   * when the server is ready for it.
   *
   * @param operation The edit.
   */
  edit(operation: TextOperation): void {
    if (operation.isNoop()) return;
    this.#text = operation.apply(this.#text);
    this.#moveCursors(operation);
    const { state, send } = applyClient(this.#state, operation);
    this.#state = state;
    if (send !== undefined) this.#sendEdit(send.revision, send.operation);
  }

  /**
   * This person's cursors and selections, in code points of the text; sent
   * unless edits are buffered behind one in flight, then after it.
   *
   * @param data The cursors and selections.
   */
  setCursor(data: CursorData): void {
    this.#cursor = data;
    this.#cursorPending = true;
    this.#flushCursor();
  }

  /**
   * Set the pad's language for everyone.
   *
   * @param language A Monaco language id.
   */
  setLanguage(language: string): void {
    this.#send({ SetLanguage: language });
  }

  /**
   * Change this person's name or colour.
   *
   * @param user The new name and hue.
   */
  setUser(user: UserInfo): void {
    this.#user = user;
    this.#send({ ClientInfo: user });
  }

  /** Resolves once no edit of ours waits for an acknowledgement. */
  settled(): Promise<void> {
    if (!this.pending) return Promise.resolve();
    const { promise, resolve } = Promise.withResolvers<void>();
    this.#waiters.push(resolve);
    return promise;
  }

  /** Reconnect now instead of waiting out the backoff, if disconnected. */
  reconnect(): void {
    if (this.#closed || this.#socket !== undefined) return;
    clearTimeout(this.#timer);
    this.#failures = 0;
    this.#connect();
  }

  /** Close for good: no more reconnects. */
  close(): void {
    this.#closed = true;
    clearTimeout(this.#timer);
    this.#socket?.close();
    this.#setStatus("disconnected");
  }

  #connect(): void {
    this.#setStatus("connecting");
    const socket = new WebSocket(this.#options.url);
    this.#socket = socket;
    this.#synced = false;
    this.#welcome = false;
    socket.onopen = () => {
      this.#peers.clear();
      this.#options.events?.peers?.(this.#peers);
      this.#send({ ClientInfo: this.#user });
    };
    socket.onmessage = (event) => {
      if (typeof event.data !== "string") return;
      let message: ServerMessage;
      try {
        message = parseServerMessage(event.data);
      } catch {
        return socket.close();
      }
      this.#handle(message);
    };
    socket.onclose = () => {
      if (this.#socket !== socket) return;
      this.#socket = undefined;
      if (this.#closed) return;
      this.#setStatus("disconnected");
      const delay = Math.min(
        MAX_RECONNECT_MS,
        (this.#options.reconnectMs ?? 500) * 2 ** this.#failures,
      );
      this.#failures++;
      // A little jitter keeps many pages from reconnecting in step.
      this.#timer = setTimeout(
        () => this.#connect(),
        delay * (1 + Math.random() / 4),
      );
    };
  }

  #handle(message: ServerMessage): void {
    if ("Identity" in message) {
      this.#me = message.Identity;
      this.#welcome = true;
      return;
    }
    if (this.#welcome) {
      this.#welcome = false;
      const history = "History" in message && message.History.start === 0
        ? message.History.operations
        : [];
      this.#resync(history);
      if ("History" in message) return;
    }
    if ("History" in message) {
      const { start, operations } = message.History;
      // A gap: the server skipped operations we need. Start over.
      if (start > this.#state.revision) return this.#socket?.close();
      this.#receive(operations.slice(this.#state.revision - start));
    } else if ("Language" in message) {
      this.#options.events?.language?.(message.Language);
    } else if ("UserInfo" in message) {
      const { id, info } = message.UserInfo;
      if (id === this.#me) return;
      if (info === null) this.#peers.delete(id);
      else this.#peers.set(id, { info, cursor: this.#peers.get(id)?.cursor });
      this.#options.events?.peers?.(this.#peers);
    } else {
      const { id, data } = message.UserCursor;
      const peer = this.#peers.get(id);
      if (id === this.#me || peer === undefined) return;
      this.#peers.set(id, { info: peer.info, cursor: this.#local(data) });
      this.#options.events?.peers?.(this.#peers);
    }
  }

  /** The first frame of a connection told the pad's whole history. */
  #resync(history: UserOperation[]): void {
    const revision = this.#state.revision;
    let known = "";
    for (const entry of history.slice(0, revision)) {
      known = entry.operation.apply(known);
    }
    if (history.length >= revision && known === this.#serverText) {
      if (this.#me !== undefined) this.#ours.add(this.#me);
      this.#receive(history.slice(revision));
    } else {
      this.#restart(history);
    }
    this.#synced = true;
    this.#failures = 0;
    this.#setStatus("connected");
    // What was in flight on the old connection goes again on this one.
    if (this.#state.kind !== "synchronized") {
      this.#sendEdit(this.#state.revision, this.#state.outstanding);
    }
    this.#cursorPending = true;
    this.#flushCursor();
    this.#connected.resolve();
  }

  /** The server's pad is not the one we had: take its text, keep our edits. */
  #restart(history: UserOperation[]): void {
    let text = "";
    for (const entry of history) text = entry.operation.apply(text);
    const lost = diffOperation(this.#serverText, text);
    let local = lost;
    const state = this.#state;
    const revision = history.length;
    if (state.kind === "synchronized") this.#state = synchronized(revision);
    else {
      const [outstanding, afterOutstanding] = state.outstanding.transform(lost);
      local = afterOutstanding;
      if (state.kind === "awaitingConfirm") {
        this.#state = { kind: "awaitingConfirm", revision, outstanding };
      } else {
        const [buffer, afterBuffer] = state.buffer.transform(afterOutstanding);
        local = afterBuffer;
        this.#state = { ...state, revision, outstanding, buffer };
      }
    }
    this.#serverText = text;
    this.#ours = new Set(this.#me === undefined ? [] : [this.#me]);
    this.#applyRemote(local);
  }

  #receive(operations: readonly UserOperation[]): void {
    for (const { id, operation } of operations) {
      this.#serverText = operation.apply(this.#serverText);
      if (this.#ours.has(id)) {
        if (this.#state.kind === "synchronized") {
          // Ours, and already in the text: nothing was waiting for it.
          this.#state = synchronized(this.#state.revision + 1);
          continue;
        }
        const { state, send } = serverAck(this.#state);
        this.#state = state;
        if (send !== undefined) this.#sendEdit(send.revision, send.operation);
        this.#flushCursor();
        continue;
      }
      const { state, apply } = applyServer(this.#state, operation);
      this.#state = state;
      this.#applyRemote(apply);
    }
    if (!this.pending) {
      for (const resolve of this.#waiters.splice(0)) resolve();
    }
  }

  #applyRemote(operation: TextOperation): void {
    if (operation.isNoop()) return;
    const before = this.#text;
    this.#text = operation.apply(before);
    this.#moveCursors(operation);
    this.#cursor = {
      cursors: this.#cursor.cursors.map((c) => operation.transformIndex(c)),
      selections: this.#cursor.selections.map(([s, e]) => [
        operation.transformIndex(s),
        operation.transformIndex(e),
      ]),
    };
    this.#options.events?.remote?.(operation, before);
  }

  /**
   * A cursor from the server, in the text as the server has it, moved over
   * our edits it has not seen yet (an insert of ours before it pushes it).
   */
  #local(data: CursorData): CursorData {
    const state = this.#state;
    if (state.kind === "synchronized") return data;
    const pending = state.kind === "awaitingConfirm"
      ? [state.outstanding]
      : [state.outstanding, state.buffer];
    const move = (position: number) =>
      pending.reduce((at, operation) => operation.transformIndex(at), position);
    return {
      cursors: data.cursors.map(move),
      selections: data.selections.map(([s, e]) => [move(s), move(e)]),
    };
  }

  /** Others' cursors move with every change, as the server moves them. */
  #moveCursors(operation: TextOperation): void {
    for (const [id, peer] of this.#peers) {
      if (peer.cursor === undefined) continue;
      this.#peers.set(id, {
        info: peer.info,
        cursor: {
          cursors: peer.cursor.cursors.map((c) => operation.transformIndex(c)),
          selections: peer.cursor.selections.map(([s, e]) => [
            operation.transformIndex(s),
            operation.transformIndex(e),
          ]),
        },
      });
    }
    this.#options.events?.peers?.(this.#peers);
  }

  #flushCursor(): void {
    // Positions in text the server has not seen yet would mislead others.
    if (!this.#cursorPending || this.#state.kind === "awaitingWithBuffer") {
      return;
    }
    if (this.#send({ CursorData: this.#cursor })) this.#cursorPending = false;
  }

  #sendEdit(revision: number, operation: TextOperation): void {
    // Before the history is known an edit waits: the resync sends it.
    if (this.#synced) this.#send({ Edit: { revision, operation } });
  }

  #send(message: ClientMessage): boolean {
    const socket = this.#socket;
    if (socket?.readyState !== WebSocket.OPEN) return false;
    socket.send(encodeMessage(message));
    return true;
  }

  #setStatus(status: ConnectionStatus): void {
    if (status === this.#status) return;
    this.#status = status;
    this.#options.events?.status?.(status);
  }
}
