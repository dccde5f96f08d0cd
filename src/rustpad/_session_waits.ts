// What a session waits for, each bounded: acknowledgements of its edits
// (the one in flight and those buffered behind it) and echoes of its
// metadata. Kept apart from the socket so every wait is settled in one place
// when the session ends.

import type { ServerMessage, UserId } from "./protocol.ts";
import { EditNotAcknowledgedError, SessionError } from "./session_error.ts";

/** What the server's acknowledgement of an edit tells. */
export interface Acknowledgement {
  /** The pad's revision right after the edit (history operations applied). */
  revision: number;
  /** The pad's text as this session then sees it. */
  text: string;
}

interface PendingEdit {
  resolve(ack: Acknowledgement): void;
  reject(error: Error): void;
  /** When it times out, by `performance.now()`. */
  deadline: number;
  onTimeout(): void;
}

interface EchoWaiter {
  matches(message: ServerMessage): boolean;
  resolve(): void;
  reject(error: Error): void;
  timer: ReturnType<typeof setTimeout>;
}

/** The waits of one session. */
export class SessionWaits {
  #timeoutMs: number;
  #outstanding: PendingEdit[] = [];
  #buffered: PendingEdit[] = [];
  /**
   * One timer for every edit's deadline, left running across
   * acknowledgements and checked when it fires: a timer set and cleared
   * for each edit cost 30 µs of an append's first hundreds.
   */
  #deadlineTimer: ReturnType<typeof setTimeout> | undefined;
  #echoes = new Set<EchoWaiter>();

  constructor(timeoutMs: number) {
    this.#timeoutMs = timeoutMs;
  }

  /**
   * Wait for an edit's acknowledgement. `sent` says whether it left now or
   * was buffered behind the one in flight; `onTimeout` fails the session.
   */
  edit(sent: boolean, onTimeout: () => void): Promise<Acknowledgement> {
    const { promise, resolve, reject } = Promise.withResolvers<
      Acknowledgement
    >();
    const deadline = performance.now() + this.#timeoutMs;
    (sent ? this.#outstanding : this.#buffered).push(
      { resolve, reject, deadline, onTimeout },
    );
    if (this.#deadlineTimer === undefined) this.#armDeadline(this.#timeoutMs);
    return promise;
  }

  /**
   * Check the oldest edit's deadline in `ms`. Unreferenced: an edit in
   * flight has its open socket to keep the process up.
   */
  #armDeadline(ms: number): void {
    const timer = setTimeout(() => {
      this.#deadlineTimer = undefined;
      // Edits are submitted in order: the oldest is the first outstanding.
      const oldest = this.#outstanding[0] ?? this.#buffered[0];
      if (oldest === undefined) return;
      const left = oldest.deadline - performance.now();
      if (left <= 0) oldest.onTimeout();
      else this.#armDeadline(left);
    }, ms);
    Deno.unrefTimer(timer);
    this.#deadlineTimer = timer;
  }

  /** The edit in flight was acknowledged; the buffered ones are now sent. */
  acknowledge(ack: () => Acknowledgement): void {
    const acknowledged = this.#outstanding;
    this.#outstanding = this.#buffered;
    this.#buffered = [];
    if (acknowledged.length === 0) return;
    const value = ack();
    for (const pending of acknowledged) pending.resolve(value);
  }

  /** Wait for a message that `matches`, for at most the timeout. */
  echo(
    matches: (message: ServerMessage) => boolean,
    what: string,
    padId: string,
  ): Promise<void> {
    const { promise, resolve, reject } = Promise.withResolvers<void>();
    const waiter: EchoWaiter = {
      matches,
      resolve,
      reject,
      timer: setTimeout(() => {
        this.#echoes.delete(waiter);
        reject(
          new SessionError(
            "timeout",
            `Rustpad did not confirm ${what} on pad "${padId}" within ${this.#timeoutMs} ms`,
          ),
        );
      }, this.#timeoutMs),
    };
    this.#echoes.add(waiter);
    return promise;
  }

  /** Settle the echo waits that `message` answers. */
  offer(message: ServerMessage): void {
    for (const waiter of this.#echoes) {
      if (waiter.matches(message)) {
        this.#echoes.delete(waiter);
        clearTimeout(waiter.timer);
        waiter.resolve();
      }
    }
  }

  /**
   * Reject every wait: edits with {@linkcode EditNotAcknowledgedError}
   * saying whether they were sent, echoes with `cause`.
   */
  rejectAll(cause: SessionError, userId: UserId, revision: number): void {
    const unacknowledged = (sent: boolean) =>
      new EditNotAcknowledgedError(
        cause.kind,
        sent
          ? `${cause.message}. The edit was sent but not acknowledged, so it may or may not have landed: read the pad before trying again`
          : `${cause.message}. The edit was never sent, so it did not land`,
        { sent, userId, revision },
        { cause },
      );
    for (
      const [edits, sent] of [
        [this.#outstanding, true],
        [this.#buffered, false],
      ] as const
    ) {
      for (const pending of edits) pending.reject(unacknowledged(sent));
    }
    this.#outstanding = [];
    this.#buffered = [];
    clearTimeout(this.#deadlineTimer);
    this.#deadlineTimer = undefined;
    for (const waiter of this.#echoes) {
      clearTimeout(waiter.timer);
      waiter.reject(cause);
    }
    this.#echoes.clear();
  }
}
