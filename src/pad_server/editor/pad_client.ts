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
  type ClientMessage,
  type CursorData,
  encodeMessage,
  parseServerMessage,
  type ServerMessage,
  type UserId,
  type UserInfo,
  type UserOperation,
} from "../../rustpad/protocol.ts";
import { moveCursor, overPending } from "./_cursor_moves.ts";
import {
  type ConnectionStatus,
  ReconnectingSocket,
} from "./_reconnecting_socket.ts";
import { type Anchor, TextSync } from "./_text_sync.ts";

import { type Peer, Peers } from "./_peers.ts";

export type { ConnectionStatus } from "./_reconnecting_socket.ts";
export type { Peer } from "./_peers.ts";
export type { Anchor } from "./_text_sync.ts";

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
  readonly #socket: ReconnectingSocket;
  readonly #sync: TextSync;
  #status: ConnectionStatus = "connecting";
  #me: UserId = 0;
  #identified = false;
  /** True from `Identity` until the frame that tells the history. */
  #welcome = false;
  /** True once the first frame after `Identity` was handled. */
  #synced = false;
  #cursor: CursorData = { cursors: [], selections: [] };
  #cursorPending = false;
  readonly #peers = new Peers();
  #user: UserInfo;
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
    this.#sync = new TextSync({
      // Before a connection has told the history, an edit waits: the
      // resync sends it.
      send: (revision, operation) => {
        if (this.#synced) this.#send({ Edit: { revision, operation } });
      },
      applied: (operation, before) => {
        this.#moveCursors(operation);
        this.#cursor = moveCursor(this.#cursor, operation);
        this.#options.events?.remote?.(operation, before);
      },
      acknowledged: () => {
        this.#flushCursor();
        if (this.pending) return;
        for (const resolve of this.#waiters.splice(0)) resolve();
      },
    });
    this.#socket = new ReconnectingSocket(
      options.url,
      options.reconnectMs ?? 500,
      {
        open: () => {
          this.#peers.all.clear();
          this.#options.events?.peers?.(this.#peers.all);
          this.#send({ ClientInfo: this.#user });
        },
        frame: (data) => this.#frame(data),
        status: (status) => {
          // Until the next connection tells the history, edits wait.
          this.#synced = false;
          this.#welcome = false;
          this.#setStatus(status);
        },
      },
    );
  }

  /** Resolves once the first connection knows the pad's text. */
  get connected(): Promise<void> {
    return this.#connected.promise;
  }

  /** The text as this person sees it, their unacknowledged edits included. */
  get text(): string {
    return this.#sync.text;
  }

  /** Operations of the pad's history applied. */
  get revision(): number {
    return this.#sync.state.revision;
  }

  /**
   * Positions in the pad's text at `revision` (UTF-16 units), in
   * {@linkcode PadClient.text}: moved through the operations since and this
   * person's unacknowledged edits. Undefined when `revision` is ahead of
   * this client's or too far behind.
   *
   * @param revision The revision the positions are of.
   * @param anchors The positions, each with the side it keeps to.
   * @returns The positions now.
   */
  carry(revision: number, anchors: readonly Anchor[]): number[] | undefined {
    return this.#sync.carry(revision, anchors);
  }

  /** The connection's state. */
  get status(): ConnectionStatus {
    return this.#status;
  }

  /** The others in the pad who announced themselves, by user id. */
  get peers(): ReadonlyMap<UserId, Peer> {
    return this.#peers.all;
  }

  /** Whether edits of ours are not yet acknowledged. */
  get pending(): boolean {
    return this.#sync.state.kind !== "synchronized";
  }

  /**
   * A local edit, based on {@linkcode PadClient.text}: applied at once, sent
   * when the server is ready for it.
   *
   * @param operation The edit.
   */
  edit(operation: TextOperation): void {
    if (operation.isNoop()) return;
    this.#moveCursors(operation);
    this.#sync.edit(operation);
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

  /** This page's user id in the pad (its socket's `Identity`), once told. */
  get userId(): UserId | undefined {
    return this.#identified ? this.#me : undefined;
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
    this.#socket.reconnect();
  }

  /** Close for good: no more reconnects. */
  close(): void {
    this.#socket.close();
    this.#setStatus("disconnected");
  }

  #frame(data: string): void {
    let message: ServerMessage;
    try {
      message = parseServerMessage(data);
    } catch {
      return this.#socket.drop();
    }
    this.#handle(message);
  }

  #handle(message: ServerMessage): void {
    if ("Identity" in message) {
      this.#me = message.Identity;
      this.#identified = true;
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
      const revision = this.#sync.state.revision;
      // A gap: the server skipped operations we need. Start over.
      if (start > revision) return this.#socket.drop();
      this.#sync.receive(operations.slice(revision - start));
    } else if ("Language" in message) {
      this.#options.events?.language?.(message.Language);
    } else if ("UserInfo" in message) {
      const { id, info } = message.UserInfo;
      if (id === this.#me) return;
      this.#peers.announce(id, info);
      this.#options.events?.peers?.(this.#peers.all);
    } else {
      const { id, data } = message.UserCursor;
      if (id === this.#me) return;
      this.#peers.place(id, overPending(data, this.#sync.state));
      this.#options.events?.peers?.(this.#peers.all);
    }
  }

  /** The first frame of a connection told the pad's whole history. */
  #resync(history: readonly UserOperation[]): void {
    // Edits it would send meanwhile are held: the one in flight goes after.
    this.#sync.resync(this.#me, history);
    this.#synced = true;
    const state = this.#sync.state;
    if (state.kind !== "synchronized") {
      const { revision, outstanding: operation } = state;
      this.#send({ Edit: { revision, operation } });
    }
    this.#socket.succeeded();
    this.#setStatus("connected");
    this.#cursorPending = true;
    this.#flushCursor();
    this.#connected.resolve();
  }

  /** Others' cursors move with every change, as the server moves them. */
  #moveCursors(operation: TextOperation): void {
    this.#peers.move(operation);
    this.#options.events?.peers?.(this.#peers.all);
  }

  #flushCursor(): void {
    // Positions in text the server has not seen yet would mislead others.
    if (
      !this.#cursorPending || this.#sync.state.kind === "awaitingWithBuffer"
    ) {
      return;
    }
    if (this.#send({ CursorData: this.#cursor })) this.#cursorPending = false;
  }

  #send(message: ClientMessage): boolean {
    return this.#socket.send(encodeMessage(message));
  }

  #setStatus(status: ConnectionStatus): void {
    if (status === this.#status) return;
    this.#status = status;
    this.#options.events?.status?.(status);
  }
}
