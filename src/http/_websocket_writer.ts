// What waits to be written to one server socket's connection: frames in
// order, the small ones joined into one write, each write watched for a
// client that stops reading.

import { frameHead } from "./_websocket_frames.ts";
import { watchWrite, writesInFlight } from "./_websocket_tasks.ts";

// Frames below JOIN_BELOW go out joined, at most JOIN_UP_TO bytes a write.
const JOIN_BELOW = 16_384;
const JOIN_UP_TO = 65_536;

/** One socket's queue of frames to write, and the writing of it. */
export class FrameWriter {
  readonly #queue: { head: Uint8Array; payload: Uint8Array }[] = [];
  #bytes = 0;
  #writing = false;
  #stopped = false;
  #flushing: Promise<void> = Promise.resolve();
  #conn: Deno.Conn | undefined;
  readonly #failed: () => void;
  readonly #drained: () => void;

  /**
   * @param failed Called when a write fails or stalls: the client is gone.
   * @param drained Called when a write ends with nothing left queued.
   */
  constructor(failed: () => void, drained: () => void) {
    this.#failed = failed;
    this.#drained = drained;
  }

  /** Frames waiting. */
  get length(): number {
    return this.#queue.length;
  }

  /** Payload bytes waiting. */
  get bytes(): number {
    return this.#bytes;
  }

  /** Whether a write is under way or frames wait. */
  get busy(): boolean {
    return this.#writing || this.#queue.length > 0;
  }

  /** Settles when the write under way, if any, is done. */
  get flushing(): Promise<void> {
    return this.#flushing;
  }

  /** Write on `conn` from now on, what is queued first. */
  attach(conn: Deno.Conn): void {
    this.#conn = conn;
    if (this.#queue.length > 0 && !this.#writing) {
      this.#flushing = this.#flush();
    }
  }

  /** Queue a frame; it is written after every frame queued before. */
  enqueue(opcode: number, payload: Uint8Array): void {
    if (this.#stopped) return;
    this.#queue.push({ head: frameHead(opcode, payload.length), payload });
    this.#bytes += payload.length;
    if (!this.#writing) this.#flushing = this.#flush();
  }

  /** Drop what waits and write nothing more. */
  stop(): void {
    this.#stopped = true;
    this.#queue.length = 0;
    this.#bytes = 0;
  }

  async #flush(): Promise<void> {
    this.#writing = true;
    try {
      while (this.#queue.length > 0 && this.#conn !== undefined) {
        const first = this.#queue[0]!;
        if (first.payload.length >= JOIN_BELOW) {
          this.#queue.shift();
          await this.#writeAll(first.head);
          await this.#writeAll(first.payload);
          this.#bytes -= first.payload.length;
          continue;
        }
        const batch = [];
        let bytes = 0;
        while (
          this.#queue.length > 0 &&
          this.#queue[0]!.payload.length < JOIN_BELOW && bytes < JOIN_UP_TO
        ) {
          const entry = this.#queue.shift()!;
          batch.push(entry.head, entry.payload);
          bytes += entry.head.length + entry.payload.length;
          this.#bytes -= entry.payload.length;
        }
        const joined = new Uint8Array(bytes);
        let offset = 0;
        for (const part of batch) {
          joined.set(part, offset);
          offset += part.length;
        }
        await this.#writeAll(joined);
      }
    } catch {
      return this.#failed();
    } finally {
      this.#writing = false;
    }
    if (this.#queue.length === 0 && this.#conn !== undefined) this.#drained();
  }

  async #writeAll(bytes: Uint8Array): Promise<void> {
    let written = 0;
    while (written < bytes.length) {
      if (this.#stopped) throw new Error("stopped");
      watchWrite(this, this.#failed);
      try {
        written += await this.#conn!.write(bytes.subarray(written));
      } finally {
        writesInFlight.delete(this);
      }
    }
  }
}
