// The frames a server socket has yet to write, so a test can delay them all
// (a slow network) without ever reordering them, a hang-up included; and
// none goes out while the gate is held (operations not yet stored).

import { ServerWebSocket } from "../http/mod.ts";
import type { Gate } from "./_gate.ts";

/** One socket's outgoing frames, written after a delay, in order. */
export class Outbox {
  readonly #socket: ServerWebSocket;
  readonly #delayMs: () => number;
  readonly #gate: Gate;
  readonly #flushNow = () => this.#flush();
  /** Frames waiting for their time; `null` stands for hanging up. */
  readonly #queue: { frame: string | null; due: number }[] = [];
  #timer: ReturnType<typeof setTimeout> | undefined;
  #lastDue = 0;
  #done = false;

  /**
   * @param socket The server side of a connection.
   * @param delayMs Read for each frame: how long to hold it back.
   * @param gate While held, nothing is written.
   */
  constructor(socket: ServerWebSocket, delayMs: () => number, gate: Gate) {
    this.#socket = socket;
    this.#delayMs = delayMs;
    this.#gate = gate;
  }

  /**
   * Write `frame` once every earlier frame is written and its delay passed,
   * held back `extraMs` more than the others (later frames wait behind it).
   */
  send(frame: string, extraMs = 0): void {
    this.#push(frame, extraMs);
  }

  /**
   * Hang up once every frame before is written: the connection closes with
   * no close frame, as the real server drops a socket.
   */
  close(): void {
    this.#push(null, 0);
    this.#done = true;
  }

  /**
   * Drop every waiting frame and hang up now: what they told of was not
   * stored.
   */
  abort(): void {
    this.dispose();
    if (this.#socket.readyState === ServerWebSocket.OPEN) {
      this.#socket.terminate();
    }
  }

  /** Drop every waiting frame and stop the timer: the socket is gone. */
  dispose(): void {
    this.#done = true;
    this.#queue.length = 0;
    clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  #push(frame: string | null, extraMs: number): void {
    if (this.#done) return;
    const delay = this.#delayMs() + extraMs;
    if (delay <= 0 && this.#queue.length === 0 && !this.#gate.held) {
      this.#write(frame);
      return;
    }
    const due = Math.max(performance.now() + delay, this.#lastDue);
    this.#lastDue = due;
    this.#queue.push({ frame, due });
    this.#schedule();
  }

  #schedule(): void {
    const next = this.#queue[0];
    if (this.#timer !== undefined || next === undefined) return;
    if (this.#gate.held) return this.#gate.whenOpen(this.#flushNow);
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.#flush();
    }, Math.max(0, next.due - performance.now()));
  }

  #flush(): void {
    if (this.#done && this.#queue.length === 0) return;
    if (this.#gate.held) return this.#gate.whenOpen(this.#flushNow);
    const now = performance.now();
    for (let next = this.#queue[0]; next !== undefined && next.due <= now;) {
      this.#queue.shift();
      this.#write(next.frame);
      next = this.#queue[0];
    }
    this.#schedule();
  }

  #write(frame: string | null): void {
    if (this.#socket.readyState !== ServerWebSocket.OPEN) return;
    if (frame === null) this.#socket.terminate();
    else this.#socket.send(frame);
  }
}
