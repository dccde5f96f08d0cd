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

/**
 * Steps every woken loop once per turn while any has work. Only loops
 * woken since (or still with work) are looked at, so a turn costs what
 * the busy connections cost, not what all of them do: thousands of idle
 * sockets on one pad cost nothing while another pad is busy.
 */
export class StepScheduler {
  readonly #loops = new Set<Steppable>();
  /** Loops that may have work: woken, or left with work by their step. */
  readonly #woken = new Set<Steppable>();
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
    this.#woken.delete(loop);
    // The channel stays open while connections do (making one per burst
    // costs more than the turn); without any, it must not hold the event
    // loop open.
    if (this.#loops.size === 0 && !this.#posted) this.#closeChannel();
  }

  /** `loop` may have work: make sure a turn comes that looks at it. */
  wake(loop: Steppable): void {
    if (this.#closed || !this.#loops.has(loop)) return;
    this.#woken.add(loop);
    this.#post();
  }

  close(): void {
    this.#closed = true;
    clearTimeout(this.#timer);
    this.#closeChannel();
  }

  #post(): void {
    if (this.#closed || this.#posted) return;
    if (this.#channel === undefined) {
      this.#channel = new MessageChannel();
      this.#channel.port1.onmessage = () => this.#turn();
    }
    this.#posted = true;
    this.#channel.port2.postMessage(null);
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
    if (this.#cursor === 0) {
      this.#round = [...this.#woken];
      this.#woken.clear();
    }
    let steps = 0;
    while (this.#cursor < this.#round.length) {
      const loop = this.#round[this.#cursor++]!;
      if (!this.#loops.has(loop)) continue;
      if (loop.ready) {
        loop.step();
        steps++;
      }
      // Work left, now or at a time: it is looked at again.
      if (loop.ready || loop.readyAt !== Infinity) this.#woken.add(loop);
      if (steps === MAX_STEPS_PER_TURN) break;
    }
    if (this.#cursor < this.#round.length) return this.#post();
    this.#cursor = 0;
    this.#round = [];
    let next = Infinity;
    for (const loop of this.#woken) {
      if (loop.ready) return this.#post();
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
        this.#post();
      }, Math.max(0, next - performance.now()));
    }
  }
}
