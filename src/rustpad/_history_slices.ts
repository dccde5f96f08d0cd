// A long History frame read a slice at a time. `JSON.parse` of a frame of
// millions of operations blocks the whole process for seconds and holds every
// operation at once; this scanner finds the boundaries of the operations
// array's elements and hands out a few thousand of them at a time as a small
// History message of its own, so the session can fold one slice, yield to the
// event loop, and stop as soon as it has failed.
//
// Only the shape the server writes (`{"History":{"start":N,"operations":[…]}}`,
// `start` first) is sliced; anything else answers `undefined` and is parsed
// whole, which gives the usual strict errors.

const HEAD =
  /\{\s*"History"\s*:\s*\{\s*"start"\s*:\s*(\d+)\s*,\s*"operations"\s*:\s*\[\s*/y;
const TAIL = /\s*\}\s*\}\s*$/y;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;

/** One slice: the frame of a History message of its own. */
export interface HistorySlice {
  /** The revision of its first operation. */
  readonly start: number;
  /** `{"History":{"start":…,"operations":[…]}}` for this slice alone. */
  readonly frame: string;
}

/** Reads a History frame's operations a slice at a time. */
export class HistorySlices {
  readonly #frame: string;
  #position: number;
  #start: number;
  #done = false;

  private constructor(frame: string, position: number, start: number) {
    this.#frame = frame;
    this.#position = position;
    this.#start = start;
  }

  /**
   * A slicer for `frame`, or `undefined` if it is not a History in the
   * server's own shape (then parse it whole).
   */
  static of(frame: string): HistorySlices | undefined {
    HEAD.lastIndex = 0;
    const head = HEAD.exec(frame);
    if (head === null) return undefined;
    const start = Number(head[1]);
    if (!Number.isSafeInteger(start)) return undefined;
    return new HistorySlices(frame, HEAD.lastIndex, start);
  }

  /**
   * The next slice of at most `count` operations, or `undefined` at the end.
   *
   * @throws {SyntaxError} If the frame is cut short or its array is broken.
   */
  next(count: number): HistorySlice | undefined {
    if (this.#done) return undefined;
    const frame = this.#frame;
    const from = this.#position;
    let index = from;
    let taken = 0;
    let end = from;
    while (taken < count) {
      if (frame.charCodeAt(index) === CLOSE_BRACKET && taken === 0) break;
      index = this.#skipValue(index);
      end = index;
      taken++;
      index = skipSpace(frame, index);
      const separator = frame.charCodeAt(index);
      if (separator === COMMA) {
        index = skipSpace(frame, index + 1);
      } else if (separator === CLOSE_BRACKET) {
        break;
      } else {
        throw this.#broken(index);
      }
    }
    if (taken === 0 || frame.charCodeAt(index) === CLOSE_BRACKET) {
      TAIL.lastIndex = index + 1;
      if (!TAIL.test(frame)) throw this.#broken(index + 1);
      this.#done = true;
    }
    this.#position = index;
    if (taken === 0) return undefined;
    const slice = {
      start: this.#start,
      frame: `{"History":{"start":${this.#start},"operations":[${
        frame.slice(from, end)
      }]}}`,
    };
    this.#start += taken;
    return slice;
  }

  /** The index just after the JSON value that starts at `index`. */
  #skipValue(index: number): number {
    const frame = this.#frame;
    let depth = 0;
    for (let i = index; i < frame.length; i++) {
      const code = frame.charCodeAt(i);
      if (code === QUOTE) {
        i = this.#skipString(i);
        if (depth === 0) return i + 1;
      } else if (code === OPEN_BRACE || code === OPEN_BRACKET) {
        depth++;
      } else if (code === CLOSE_BRACE || code === CLOSE_BRACKET) {
        if (depth === 0) return i;
        depth--;
        if (depth === 0) return i + 1;
      } else if (depth === 0 && (code === COMMA || code <= 0x20)) {
        return i;
      }
    }
    throw this.#broken(frame.length);
  }

  /** The index of the quote that closes the string opened at `index`. */
  #skipString(index: number): number {
    const frame = this.#frame;
    for (let i = index + 1; i < frame.length; i++) {
      const code = frame.charCodeAt(i);
      if (code === BACKSLASH) i++;
      else if (code === QUOTE) return i;
    }
    throw this.#broken(frame.length);
  }

  #broken(index: number): SyntaxError {
    return new SyntaxError(
      `Cannot read History frame as its operations array is broken: current position is ${index} of ${this.#frame.length}`,
    );
  }
}

function skipSpace(text: string, index: number): number {
  while (index < text.length && text.charCodeAt(index) <= 0x20) index++;
  return index;
}
