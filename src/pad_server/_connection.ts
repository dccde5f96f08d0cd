// One pad connection's loop, as the real server runs it per socket: it
// either handles the next message from its client or forwards the next
// metadata message (Language, UserInfo, UserCursor) of the pad's broadcast
// queue, choosing at random when both are ready, as `tokio::select!` does.
//
// The queue holds 16 messages per pad (a tokio broadcast channel). A
// connection that has more than 16 of them not yet forwarded has lagged:
// the messages it missed are gone, and its next turn at the queue ends the
// connection with no message, as the real server's `update?` does.
//
// A connection whose client sends nothing forwards each metadata message at
// once, as the real server's task wakes for it at once. One whose client
// keeps sending shares its turns between reading and forwarding, so a
// client flooding metadata makes its own connection fall behind (it
// receives its own messages back). `drainDelayMs` stands for a socket that
// drains slowly: at most one metadata message per that many milliseconds.
//
// History travels by another path, unbounded, and is written at once (the
// real server writes it at the top of its loop, before anything else).

import type { Outbox } from "./_outbox.ts";
import type { Steppable } from "./_scheduler.ts";

/**
 * How far held history trails the frame that overtook it, so a client
 * handles that frame on its own before the history arrives.
 */
const HISTORY_SPACING_MS = 1;

/** Metadata messages a connection may have pending before it has lagged. */
export const METADATA_CAPACITY = 16;

/** What a connection asks of its pad. */
export interface ConnectionHandler {
  /** Handle one client frame; may hang the connection up. */
  handle(connection: Connection, frame: string): void;
  /** The connection lagged behind the metadata queue: end it. */
  lagged(connection: Connection): void;
}

/** One open socket that has received its initial burst. */
export class Connection implements Steppable {
  readonly userId: number;
  readonly outbox: Outbox;
  /** False once hung up or closed: it takes no more messages. */
  live = true;
  /** True once it stopped reading its client (a stall fault). */
  stalled = false;
  /** True while it takes its time over one edit (a slow-edit fault). */
  busy = false;
  /** True once its client closed the socket. */
  closedByClient = false;
  /** Per forwarded metadata message, how long the socket takes to drain. */
  drainDelayMs = 0;

  readonly #handler: ConnectionHandler;
  readonly #random: () => number;
  readonly #wake: (connection: Connection) => void;
  readonly #inbox: string[] = [];
  readonly #backlog: string[] = [];
  #lagged = false;
  /** True while it handles a frame of its client. */
  #reading = false;
  #drainedAt = 0;
  /** History frames held back by a fault, and until when. */
  readonly #heldHistory: { frame: string; extraMs: number }[] = [];
  #historyTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    userId: number,
    outbox: Outbox,
    handler: ConnectionHandler,
    random: () => number,
    wake: (connection: Connection) => void,
  ) {
    this.userId = userId;
    this.outbox = outbox;
    this.#handler = handler;
    this.#random = random;
    this.#wake = wake;
  }

  /** Whether it fell behind the metadata queue and is to be ended. */
  get lagged(): boolean {
    return this.#lagged;
  }

  /** Metadata messages queued for it and not yet forwarded. */
  get backlog(): number {
    return this.#backlog.length;
  }

  get ready(): boolean {
    return this.live && (this.#canRead || this.#canForward);
  }

  get readyAt(): number {
    if (!this.live || (this.#backlog.length === 0 && !this.#lagged)) {
      return Infinity;
    }
    return this.#drainedAt + this.drainDelayMs;
  }

  get #canRead(): boolean {
    return this.#inbox.length > 0 && !this.stalled && !this.busy;
  }

  get #canForward(): boolean {
    return (this.#backlog.length > 0 || this.#lagged) &&
      performance.now() >= this.#drainedAt + this.drainDelayMs;
  }

  /**
   * A frame from the client. Idle, with no metadata to forward, its task
   * has only this to wake for and handles it at once, as `select!` with one
   * branch ready does; otherwise it is handled in a later step, where the
   * choice between reading and forwarding is made.
   */
  receive(frame: string): void {
    if (!this.live) return;
    this.#inbox.push(frame);
    if (
      this.#inbox.length === 1 && !this.#reading && this.#canRead &&
      this.#backlog.length === 0 && !this.#lagged
    ) this.#read();
    else this.#wake(this);
  }

  /**
   * A metadata message broadcast on the pad; with `mayForward` false, one
   * of a burst, forwarded at the connection's next turn at the earliest.
   */
  queueMetadata(frame: string, mayForward = true): void {
    if (!this.live || this.#lagged) return;
    if (this.#backlog.length === METADATA_CAPACITY) {
      // The oldest it has not read is overwritten: it has lagged.
      this.#lagged = true;
      this.#backlog.length = 0;
    } else {
      this.#backlog.push(frame);
    }
    // Idle, with a socket that drains: its task forwards it right away
    // (while it handles its own client's frame, at its next turn).
    if (
      mayForward && !this.#reading && !this.#canRead && !this.#lagged &&
      this.#canForward
    ) this.#forward();
    else this.#wake(this);
  }

  /**
   * A History frame: written now, or after a held-back delay; `extraMs`
   * more for a slow network to this client (every later frame waits behind
   * it). Frames keep their order either way.
   */
  sendHistory(frame: string, extraMs = 0): void {
    if (!this.live) return;
    if (this.#historyTimer !== undefined) {
      this.#heldHistory.push({ frame, extraMs });
    } else {
      this.outbox.send(frame, extraMs);
    }
  }

  /**
   * Let metadata overtake the history, as the real server's loop may once:
   * woken by a new operation and a metadata message at the same time, its
   * `select!` may forward the message first and send the history at the
   * top of its next turn. History frames are held until the next metadata
   * message is forwarded, or a client frame handled, or `ms` pass; then
   * they go out a millisecond behind the overtaking frame (every later
   * frame waits behind them), so that frame reaches the client alone.
   */
  holdHistory(ms: number): void {
    if (this.#historyTimer !== undefined) return;
    this.#historyTimer = setTimeout(() => this.#releaseHistory(), ms);
  }

  #releaseHistory(spacingMs = 0): void {
    if (this.#historyTimer === undefined) return;
    clearTimeout(this.#historyTimer);
    this.#historyTimer = undefined;
    for (const { frame, extraMs } of this.#heldHistory.splice(0)) {
      if (this.live) this.outbox.send(frame, Math.max(spacingMs, extraMs));
    }
  }

  /**
   * The client closed: the frames it sent before are still read, in order,
   * as the real server reads its socket to the end before it lets go.
   */
  readRest(): void {
    while (this.live && !this.stalled && this.#inbox.length > 0) {
      this.#read();
    }
  }

  step(): void {
    const read = this.#canRead;
    const forward = this.#canForward;
    if (read && (!forward || this.#random() < 0.5)) {
      this.#read();
    } else if (forward) {
      this.#forward();
    }
  }

  /**
   * It takes no more messages: drop what it holds and stop its timer. Its
   * outbox is the caller's to close or dispose.
   */
  stop(): void {
    this.live = false;
    this.#inbox.length = 0;
    this.#backlog.length = 0;
    this.#heldHistory.length = 0;
    clearTimeout(this.#historyTimer);
    this.#historyTimer = undefined;
  }

  #read(): void {
    this.#reading = true;
    try {
      this.#handler.handle(this, this.#inbox.shift()!);
    } finally {
      this.#reading = false;
    }
    this.#releaseHistory(HISTORY_SPACING_MS);
    if (this.#backlog.length > 0) this.#wake(this);
  }

  #forward(): void {
    if (this.#lagged) return this.#handler.lagged(this);
    const frame = this.#backlog.shift();
    if (frame === undefined) return;
    this.#drainedAt = performance.now();
    this.outbox.send(frame);
    this.#releaseHistory(HISTORY_SPACING_MS);
    if (this.#backlog.length > 0) this.#wake(this);
  }
}
