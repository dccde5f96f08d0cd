// Runs the connections' loops one step at a time, fairly, in macrotasks.
//
// The real server gives every connection its own task, looping: send the
// history it has not sent, then wait for whichever comes first of a new
// operation, a metadata message to forward, or a message from its client
// (`tokio::select!`, which picks at random among those ready). Here each
// connection's loop takes one step per turn of the event loop, so that a
// client's frames pile up while its connection is busy, as they do in the
// socket buffer of the real one. A MessageChannel makes the turn: chained
// timers would be clamped to 4 ms each.

/** A connection loop the scheduler steps. */
export interface Steppable {
  /** Whether a step would do something now. */
  readonly ready: boolean;
  /** When a step will next be possible if it is not now, else `Infinity`. */
  readonly readyAt: number;
  /** Take one step. */
  step(): void;
}

/** At most this many steps per turn of the event loop. */
const MAX_STEPS_PER_TURN = 256;

/** Steps every registered loop once per turn while any has work. */
export class StepScheduler {
  readonly #loops = new Set<Steppable>();
  #channel: MessageChannel | undefined;
  #posted = false;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #closed = false;
  /** The loops of the round under way, and the next one to visit. */
  #round: Steppable[] = [];
  #cursor = 0;

  add(loop: Steppable): void {
    this.#loops.add(loop);
  }

  delete(loop: Steppable): void {
    this.#loops.delete(loop);
    // The channel stays open while connections do (making one per burst
    // costs more than the turn); without any, it must not hold the event
    // loop open.
    if (this.#loops.size === 0 && !this.#posted) this.#closeChannel();
  }

  /** Something became ready: make sure a turn comes. */
  wake(): void {
    if (this.#closed || this.#posted) return;
    if (this.#channel === undefined) {
      this.#channel = new MessageChannel();
      this.#channel.port1.onmessage = () => this.#turn();
    }
    this.#posted = true;
    this.#channel.port2.postMessage(null);
  }

  close(): void {
    this.#closed = true;
    clearTimeout(this.#timer);
    this.#closeChannel();
  }

  #closeChannel(): void {
    this.#channel?.port1.close();
    this.#channel?.port2.close();
    this.#channel = undefined;
  }

  #turn(): void {
    this.#posted = false;
    // A round steps each ready loop once; past MAX_STEPS_PER_TURN steps it
    // goes on in the next turn, so thousands of loops (a crowd dropped at
    // once) never hold the event loop from other pads' sockets for long.
    if (this.#cursor === 0) this.#round = [...this.#loops];
    let steps = 0;
    while (this.#cursor < this.#round.length) {
      const loop = this.#round[this.#cursor++]!;
      if (!loop.ready) continue;
      loop.step();
      if (++steps === MAX_STEPS_PER_TURN) break;
    }
    if (this.#cursor < this.#round.length) return this.wake();
    this.#cursor = 0;
    this.#round = [];
    let next = Infinity;
    for (const loop of this.#loops) {
      if (loop.ready) return this.wake();
      next = Math.min(next, loop.readyAt);
    }
    // Idle: let the event loop end when no connection is left, and wake
    // up in time for a slow loop that waits its time.
    if (this.#loops.size === 0) this.#closeChannel();
    clearTimeout(this.#timer);
    this.#timer = undefined;
    if (next !== Infinity && !this.#closed) {
      this.#timer = setTimeout(() => {
        this.#timer = undefined;
        this.wake();
      }, Math.max(0, next - performance.now()));
    }
  }
}
