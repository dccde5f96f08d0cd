// The frames a session receives, handled strictly in order and bounded: a
// frame over the size limit fails the session unread, and a long History is
// parsed and folded in slices that yield to the event loop, so a hostile or huge pad
// cannot starve the other pads of this process nor outlive the session's
// timeout (a failed session stops folding at the next slice).

import { HistorySlices } from "./_history_slices.ts";
import { parseServerMessage, type ServerMessage } from "./protocol.ts";

/**
 * The largest frame a session reads, in UTF-16 units (64 Mi, Deno's own
 * WebSocket limit). Only a History comes near: a pad holds at most 262,144
 * code points, but its history can be millions of operations long, and is
 * parsed a slice at a time.
 */
export const MAX_FRAME_LENGTH = 64 * 1024 * 1024;

/**
 * The largest frame parsed whole (16 Mi units): one that is not a History in
 * the server's own shape. Parsing it blocks the whole process for about a
 * second, so anything larger is refused unread.
 */
const MAX_WHOLE_FRAME_LENGTH = 16 * 1024 * 1024;

/** A frame over {@linkcode MAX_FRAME_LENGTH}: our limit, not the server's words. */
export class FrameTooLargeError extends RangeError {}

/** History operations parsed and folded at a time. */
const HISTORY_SLICE = 2048;

/**
 * How long folding may hold the event loop before it yields: a timer costs
 * about 2 ms in Deno, so yielding after every slice would cost more than
 * the folding, and other pads wait at most this long.
 */
const FOLD_BUDGET_MS = 25;

/**
 * Frames longer than this are parsed a slice at a time when they are a
 * History; shorter ones are parsed at once (JSON.parse is far faster than
 * slicing), and a long History among them is still folded in slices.
 */
const SLICED_FRAME_LENGTH = 4 * 1024 * 1024;

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
        new FrameTooLargeError(
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
      try {
        const sliced = frame.length > SLICED_FRAME_LENGTH
          ? HistorySlices.of(frame)
          : undefined;
        const slices: Slices | undefined = sliced && {
          next: (count) => {
            const slice = sliced.next(count);
            return slice && parseServerMessage(slice.frame);
          },
        };
        if (!slices && frame.length > MAX_WHOLE_FRAME_LENGTH) {
          throw new FrameTooLargeError(
            `Cannot read a frame of ${frame.length} UTF-16 units as only a History may be over ${MAX_WHOLE_FRAME_LENGTH}`,
          );
        }
        const message = slices ? undefined : parseServerMessage(frame);
        const long = message !== undefined && "History" in message &&
          message.History.operations.length > HISTORY_SLICE;
        if (slices || long) {
          this.#busy = true;
          this.#fold(slices ?? inSlices(message!)).finally(() => {
            this.#busy = false;
            this.#drain();
          });
          return;
        }
        this.#handlers.handle(message!);
      } catch (error) {
        this.#queue = [];
        this.#handlers.fail(error as Error);
        return;
      }
    }
  }

  /** Fold a long History a slice at a time, yielding in between. */
  async #fold(slices: Slices): Promise<void> {
    let since = performance.now();
    while (this.#handlers.isOpen()) {
      try {
        const slice = slices.next(HISTORY_SLICE);
        if (slice === undefined) return;
        this.#handlers.handle(slice);
      } catch (error) {
        this.#queue = [];
        this.#handlers.fail(error as Error);
        return;
      }
      if (performance.now() - since < FOLD_BUDGET_MS) continue;
      await new Promise((resolve) => setTimeout(resolve, 0));
      since = performance.now();
    }
  }
}

/** The slices of a History, each a message of its own. */
interface Slices {
  next(count: number): ServerMessage | undefined;
}

/** A History parsed already, sliced. */
function inSlices(message: ServerMessage): Slices {
  const { start, operations } = (message as Extract<
    ServerMessage,
    { History: unknown }
  >).History;
  let done = 0;
  return {
    next(count) {
      if (done >= operations.length) return undefined;
      const slice = operations.slice(done, done + count);
      const history = { History: { start: start + done, operations: slice } };
      done += slice.length;
      return history;
    },
  };
}
