// The frames a session receives, handled strictly in order and bounded: a
// frame over the size limit fails the session unread, and a long History is
// folded in slices that yield to the event loop, so a hostile or huge pad
// cannot starve the other pads of this process nor outlive the session's
// timeout (a failed session stops folding at the next slice).

import {
  parseServerMessage,
  type ServerMessage,
  type UserOperation,
} from "./protocol.ts";

/**
 * The largest frame a session reads, in UTF-16 units (16 Mi). A pad holds at
 * most 262,144 code points, so only a History of about half a million
 * operations comes near. Parsing a frame blocks the whole process (about a
 * second for this size), so anything larger is refused unread: it would hold
 * up every other pad and outlive the session's timeout.
 */
export const MAX_FRAME_LENGTH = 16 * 1024 * 1024;

/** History operations folded between two yields to the event loop. */
const HISTORY_SLICE = 4096;

/** What the inbox does with frames. */
export interface InboxHandlers {
  /** Handle one parsed message, synchronously; may throw to fail. */
  handle(message: ServerMessage): void;
  /** Whether frames are still wanted. */
  isOpen(): boolean;
  /** The session must fail: a frame was too large, unparseable or refused. */
  fail(error: Error): void;
}

/** Parses and handles frames in arrival order. */
export class FrameInbox {
  #handlers: InboxHandlers;
  #queue: string[] = [];
  #busy = false;

  constructor(handlers: InboxHandlers) {
    this.#handlers = handlers;
  }

  /** Take a frame; it is handled after every earlier one. */
  push(frame: string): void {
    if (frame.length > MAX_FRAME_LENGTH) {
      this.#queue = [];
      this.#handlers.fail(
        new RangeError(
          `Cannot read a frame of ${frame.length} UTF-16 units as it is over the limit of ${MAX_FRAME_LENGTH}`,
        ),
      );
      return;
    }
    this.#queue.push(frame);
    if (!this.#busy) this.#drain();
  }

  #drain(): void {
    while (this.#queue.length > 0 && this.#handlers.isOpen()) {
      const frame = this.#queue.shift() as string;
      let message: ServerMessage;
      try {
        message = parseServerMessage(frame);
        if (
          "History" in message &&
          message.History.operations.length > HISTORY_SLICE
        ) {
          this.#busy = true;
          this.#fold(message.History.start, message.History.operations)
            .finally(() => {
              this.#busy = false;
              this.#drain();
            });
          return;
        }
        this.#handlers.handle(message);
      } catch (error) {
        this.#queue = [];
        this.#handlers.fail(error as Error);
        return;
      }
    }
  }

  async #fold(
    start: number,
    operations: readonly UserOperation[],
  ): Promise<void> {
    for (let offset = 0; offset < operations.length; offset += HISTORY_SLICE) {
      if (!this.#handlers.isOpen()) return;
      try {
        this.#handlers.handle({
          History: {
            start: start + offset,
            operations: operations.slice(offset, offset + HISTORY_SLICE),
          },
        });
      } catch (error) {
        this.#queue = [];
        this.#handlers.fail(error as Error);
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
  }
}
