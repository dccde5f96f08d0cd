/**
 * A text that many operations are applied to, such as a pad's history replayed
 * on connect. Applying to a plain string copies the whole text per
 * operation; this keeps the text in chunks and reuses every chunk an
 * operation only retains, so an edit costs about the number of chunks, not the
 * length of the text.
 *
 * @module
 */

import { advanceCodePoints, codePointLength } from "./code_points.ts";
import { TextOperation } from "./operation.ts";

/** Chunks grow to about this many UTF-16 units before a new one starts. */
const CHUNK_SIZE = 2048;

interface Chunk {
  readonly text: string;
  /** Length in code points. */
  readonly length: number;
}

/**
 * A text in code points that operations apply to in place.
 *
 * @example Replay a history
 * ```ts
 * import { TextBuffer, TextOperation } from "@rustpad-mcp/server";
 * import assert from "node:assert/strict";
 *
 * const buffer = new TextBuffer("hello");
 * buffer.apply(TextOperation.fromJSON([5, " world"]));
 * buffer.apply(TextOperation.fromJSON([-1, "H", 10]));
 * assert.deepEqual(buffer.toString(), "Hello world");
 * assert.deepEqual(buffer.length, 11);
 * ```
 */
export class TextBuffer {
  #chunks: Chunk[];
  #length: number;
  #joined: string | undefined;

  /**
   * Create a buffer holding `text`.
   *
   * @param text The initial text.
   */
  constructor(text = "") {
    this.#chunks = [];
    this.#length = 0;
    const writer = new ChunkWriter(this.#chunks);
    writer.write(text, codePointLength(text));
    this.#length = writer.length;
    this.#joined = text;
  }

  /** Length in code points. */
  get length(): number {
    return this.#length;
  }

  /**
   * Apply `operation` to the text.
   *
   * @param operation An operation whose base length is this text's length.
   * @throws {RangeError} If the operation does not fit; the text is then
   * unchanged.
   */
  apply(operation: TextOperation): void {
    this.#apply(operation, undefined);
  }

  /**
   * Apply `operation` and return its inverse, as
   * {@linkcode TextOperation.invert} on the text before would, at the cost
   * of the operation rather than of the whole text.
   *
   * @param operation An operation whose base length is this text's length.
   * @returns The operation that takes the new text back to the old one.
   * @throws {RangeError} If the operation does not fit; the text is then
   * unchanged.
   *
   * @example
   * ```ts
   * import { TextBuffer, TextOperation } from "@rustpad-mcp/server";
   * import assert from "node:assert/strict";
   *
   * const buffer = new TextBuffer("hello");
   * const inverse = buffer.applyAndInvert(TextOperation.fromJSON([-1, "J", 4]));
   * assert.equal(buffer.toString(), "Jello");
   * buffer.apply(inverse);
   * assert.equal(buffer.toString(), "hello");
   * ```
   */
  applyAndInvert(operation: TextOperation): TextOperation {
    const inverse = new TextOperation();
    this.#apply(operation, inverse);
    return inverse;
  }

  /**
   * An independent copy; chunks are immutable, so this costs one array copy.
   *
   * @returns A buffer with the same text.
   *
   * @example
   * ```ts
   * import { TextBuffer } from "@rustpad-mcp/server";
   * import assert from "node:assert/strict";
   *
   * const buffer = new TextBuffer("abc");
   * assert.equal(buffer.clone().toString(), "abc");
   * ```
   */
  clone(): TextBuffer {
    const copy = new TextBuffer();
    copy.#chunks = [...this.#chunks];
    copy.#length = this.#length;
    copy.#joined = this.#joined;
    return copy;
  }

  #apply(operation: TextOperation, inverse: TextOperation | undefined): void {
    if (operation.baseLength !== this.#length) {
      throw new RangeError(
        `Cannot apply operation as its base length ${operation.baseLength} differs from the text length: current length is ${this.#length}`,
      );
    }
    const chunks: Chunk[] = [];
    const writer = new ChunkWriter(chunks);
    const reader = new ChunkReader(this.#chunks);
    for (const component of operation.components) {
      if (typeof component === "string") {
        const length = codePointLength(component);
        writer.write(component, length);
        inverse?.delete(length);
      } else if (component > 0) {
        reader.copy(component, writer);
        inverse?.retain(component);
      } else if (inverse) {
        inverse.insert(reader.take(-component));
      } else {
        reader.skip(-component);
      }
    }
    this.#chunks = chunks;
    this.#length = writer.length;
    this.#joined = undefined;
  }

  /**
   * The whole text.
   *
   * @returns The text as a string; cached until the next change.
   */
  toString(): string {
    this.#joined ??= this.#chunks.map((chunk) => chunk.text).join("");
    return this.#joined;
  }
}

/** Appends text to a chunk list, merging small pieces into the last chunk. */
class ChunkWriter {
  #chunks: Chunk[];
  length = 0;

  constructor(chunks: Chunk[]) {
    this.#chunks = chunks;
  }

  write(text: string, length: number): void {
    if (length === 0) return;
    this.length += length;
    const last = this.#chunks.at(-1);
    if (last !== undefined && last.text.length + text.length <= CHUNK_SIZE) {
      this.#chunks[this.#chunks.length - 1] = {
        text: last.text + text,
        length: last.length + length,
      };
      return;
    }
    if (text.length <= CHUNK_SIZE) {
      this.#chunks.push({ text, length });
      return;
    }
    for (let start = 0; start < text.length;) {
      const end = advanceCodePoints(text, start, CHUNK_SIZE);
      const piece = text.slice(start, end);
      this.#chunks.push({ text: piece, length: codePointLength(piece) });
      start = end;
    }
  }

  /** Append a whole chunk, merging it only if both are small. */
  writeChunk(chunk: Chunk): void {
    const last = this.#chunks.at(-1);
    if (
      last !== undefined && last.text.length + chunk.text.length > CHUNK_SIZE
    ) {
      this.length += chunk.length;
      this.#chunks.push(chunk);
    } else {
      this.write(chunk.text, chunk.length);
    }
  }
}

/** Reads a chunk list from the start, in code points. */
class ChunkReader {
  #chunks: readonly Chunk[];
  #index = 0;
  /** Code points already consumed of the current chunk. */
  #offset = 0;
  /** The same position in UTF-16 units, so it is never counted twice. */
  #unitOffset = 0;

  constructor(chunks: readonly Chunk[]) {
    this.#chunks = chunks;
  }

  copy(count: number, writer: ChunkWriter): void {
    this.#consume(count, (chunk, from, to, start, end) => {
      if (from === 0 && to === chunk.length) {
        writer.writeChunk(chunk);
      } else {
        writer.write(chunk.text.slice(start, end), to - from);
      }
    });
  }

  skip(count: number): void {
    this.#consume(count, () => {});
  }

  /** Consume `count` code points and return them as a string. */
  take(count: number): string {
    const pieces: string[] = [];
    this.#consume(count, (chunk, _from, _to, start, end) => {
      pieces.push(chunk.text.slice(start, end));
    });
    return pieces.join("");
  }

  #consume(
    count: number,
    visit: (
      chunk: Chunk,
      from: number,
      to: number,
      start: number,
      end: number,
    ) => void,
  ): void {
    let remaining = count;
    while (remaining > 0) {
      const chunk = this.#chunks[this.#index];
      if (chunk === undefined) return;
      const available = chunk.length - this.#offset;
      const taken = Math.min(available, remaining);
      const start = this.#unitOffset;
      const end = taken === available
        ? chunk.text.length
        : chunk.text.length === chunk.length // no surrogate pairs
        ? start + taken
        : advanceCodePoints(chunk.text, start, taken);
      visit(chunk, this.#offset, this.#offset + taken, start, end);
      remaining -= taken;
      if (taken === available) {
        this.#index++;
        this.#offset = 0;
        this.#unitOffset = 0;
      } else {
        this.#offset += taken;
        this.#unitOffset = end;
      }
    }
  }
}
