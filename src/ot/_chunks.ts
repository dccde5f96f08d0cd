// The chunks a TextBuffer keeps its text in, and the cursor that walks them
// in code points. Chunks are immutable values, so a buffer and its clones
// share them; an edit replaces only the chunks it touches, in place, so an
// operation costs what it changes plus a walk over the chunk list, never a
// copy of the text.

import { advanceCodePoints, codePointLength } from "./code_points.ts";

/**
 * Chunks stay below twice this many UTF-16 units: small enough that finding
 * a code point inside one is cheap, large enough that the list stays short.
 */
export const CHUNK_SIZE = 512;

/**
 * A piece of the text. Its line breaks are counted when first asked for:
 * replaying a history makes many chunks no one reads lines of.
 */
export class Chunk {
  readonly text: string;
  /** Length in code points. */
  readonly length: number;
  #breaks = -1;

  constructor(text: string, length: number) {
    this.text = text;
    this.length = length;
  }

  /** How many `\n` it holds. */
  get breaks(): number {
    if (this.#breaks === -1) {
      let breaks = 0;
      for (
        let at = this.text.indexOf("\n");
        at !== -1;
        at = this.text.indexOf("\n", at + 1)
      ) breaks++;
      this.#breaks = breaks;
    }
    return this.#breaks;
  }
}

/** A chunk of `text`, which holds `length` code points. */
export function chunkOf(text: string, length = codePointLength(text)): Chunk {
  return new Chunk(text, length);
}

/** `text` as chunks of at most CHUNK_SIZE units, never cutting a pair. */
export function chunksOf(text: string): Chunk[] {
  const chunks: Chunk[] = [];
  for (let start = 0; start < text.length;) {
    const end = text.length - start <= CHUNK_SIZE
      ? text.length
      : advanceCodePoints(text, start, CHUNK_SIZE);
    chunks.push(chunkOf(text.slice(start, end)));
    start = end;
  }
  return chunks;
}

/**
 * The UTF-16 offset `count` code points after unit `from` of a chunk, which
 * is `offset` code points into it: counted from whichever end is nearer.
 */
export function unitsAfter(
  chunk: Chunk,
  from: number,
  count: number,
  offset?: number,
): number {
  const text = chunk.text;
  // A chunk without surrogate pairs counts both the same.
  if (text.length === chunk.length) return from + count;
  const fromEnd = offset === undefined
    ? Infinity
    : chunk.length - offset - count;
  if (fromEnd >= count) return advanceCodePoints(text, from, count);
  let index = text.length;
  for (let n = 0; n < fromEnd; n++) {
    const unit = text.charCodeAt(index - 1);
    index -= unit >= 0xdc00 && unit <= 0xdfff && index >= 2 &&
        (text.charCodeAt(index - 2) & 0xfc00) === 0xd800
      ? 2
      : 1;
  }
  return index;
}

/**
 * A position in a chunk list: chunk `index`, `offset` code points (and
 * `unit` UTF-16 units) into it. At the end of a chunk it moves to the start
 * of the next one, so `index` may equal the list's length at the end.
 */
export class ChunkCursor {
  index = 0;
  offset = 0;
  unit = 0;
  readonly #chunks: Chunk[];

  constructor(chunks: Chunk[]) {
    this.#chunks = chunks;
  }

  /** Move `count` code points on. */
  retain(count: number): void {
    const chunks = this.#chunks;
    let remaining = count;
    let index = this.index;
    let rest = chunks[index]!.length - this.offset;
    // Whole chunks are skipped by their length alone.
    while (remaining >= rest) {
      remaining -= rest;
      index++;
      if (remaining === 0) break;
      rest = chunks[index]!.length;
      this.offset = 0;
      this.unit = 0;
    }
    if (index !== this.index || remaining === 0) {
      this.index = index;
      this.offset = 0;
      this.unit = 0;
    }
    if (remaining > 0) {
      this.unit = unitsAfter(chunks[index]!, this.unit, remaining, this.offset);
      this.offset += remaining;
    }
  }

  /** Insert `text` (`length` code points) here; the cursor ends after it. */
  insert(text: string, length: number): void {
    // At a chunk boundary (the end of the text is one), the chunk before
    // takes the text if it has room: appending a line at a time would
    // otherwise make a chunk of every line, and every walk longer.
    if (this.offset === 0 && this.index > 0) {
      const previous = this.#chunks[this.index - 1]!;
      if (previous.text.length + text.length <= 2 * CHUNK_SIZE) {
        this.#chunks[this.index - 1] = chunkOf(
          previous.text + text,
          previous.length + length,
        );
        return;
      }
    }
    const chunk = this.#chunks[this.index];
    if (
      chunk === undefined || chunk.text.length + text.length > 2 * CHUNK_SIZE
    ) {
      this.#insertChunks(text);
      return;
    }
    const joined = chunk.text.slice(0, this.unit) + text +
      chunk.text.slice(this.unit);
    this.#chunks[this.index] = chunkOf(joined, chunk.length + length);
    this.offset += length;
    this.unit += text.length;
    if (this.offset === chunk.length + length) this.#next();
  }

  /** Remove `count` code points here; returns them if `keep`. */
  delete(count: number, keep: boolean): string {
    const removed: string[] = [];
    let remaining = count;
    while (remaining > 0) {
      const chunk = this.#chunks[this.index]!;
      const rest = chunk.length - this.offset;
      const taken = Math.min(rest, remaining);
      const end = taken === rest
        ? chunk.text.length
        : unitsAfter(chunk, this.unit, taken, this.offset);
      if (keep) removed.push(chunk.text.slice(this.unit, end));
      remaining -= taken;
      if (taken === chunk.length) {
        this.#chunks.splice(this.index, 1);
        continue;
      }
      const text = chunk.text.slice(0, this.unit) + chunk.text.slice(end);
      this.#chunks[this.index] = chunkOf(text, chunk.length - taken);
      if (this.offset === chunk.length - taken) this.#next();
    }
    return removed.join("");
  }

  #next(): void {
    this.index++;
    this.offset = 0;
    this.unit = 0;
  }

  /** Split the current chunk here and put `text`'s own chunks between. */
  #insertChunks(text: string): void {
    const chunks = this.#chunks;
    const chunk = chunks[this.index];
    // Everything from here on comes off, then goes back after the new
    // chunks: one pass, with no spread of a list of any length.
    const after = chunks.splice(this.index);
    if (chunk !== undefined && this.offset > 0) {
      chunks.push(chunkOf(chunk.text.slice(0, this.unit), this.offset));
      after[0] = chunkOf(
        chunk.text.slice(this.unit),
        chunk.length - this.offset,
      );
    }
    for (const piece of chunksOf(text)) chunks.push(piece);
    this.index = chunks.length;
    for (const rest of after) chunks.push(rest);
    this.offset = 0;
    this.unit = 0;
  }
}
