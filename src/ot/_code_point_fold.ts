// Many operations applied at once, as a pad's history is on connect. String
// chunks find each position by scanning for surrogate pairs and copy the
// chunk an edit changes; here the text is held as blocks of code points in
// typed arrays, where a position is an index and an edit a native move of
// the block's tail, and is turned back into string chunks once at the end.
// On the busy pad (10,000 edits of a 200,000-code-point text with astral
// characters) this takes about 0.6 of the time in a fresh process: the
// conversions each way cost about what 3,000 of those edits save.

import { Chunk, CHUNK_SIZE } from "./_chunks.ts";
import { codePointLength } from "./code_points.ts";
import { insertedUnits } from "./component.ts";
import { TextOperation } from "./operation.ts";

/** Code points a block can hold: an insert that would overflow splits it. */
const BLOCK_CAPACITY = 8192;
/** Code points a new block is filled with, leaving room for inserts. */
const BLOCK_FILL = 4096;

/**
 * A list of operations is applied as code points when it holds at least one
 * for every UNITS_PER_FOLDED of text it touches (the text's length and the
 * units it inserts), and at least MIN_FOLDED: turning the text into code
 * points and back costs about what one operation saves for each 64 of it
 * (on the busy pad in a fresh process, the two ways took as long at about
 * 3,000 operations on 200,000 code points).
 */
const UNITS_PER_FOLDED = 64;
const MIN_FOLDED = 256;

/**
 * Check that `operations` fit in turn on a text of `length` code points.
 *
 * @returns The length after them, and whether to apply them as code points
 * (see UNITS_PER_FOLDED) rather than one by one.
 * @throws {RangeError} If one does not fit.
 */
export function foldPlan(
  length: number,
  operations: readonly TextOperation[],
): { length: number; fold: boolean } {
  let touched = length;
  for (let i = 0; i < operations.length; i++) {
    const operation = operations[i]!;
    if (operation.baseLength !== length) {
      throw new RangeError(
        `Cannot apply operation ${i} of ${operations.length} as its base length ${operation.baseLength} differs from the text length: current length is ${length}`,
      );
    }
    length = operation.targetLength;
    touched += insertedUnits(operation.components);
  }
  const fold = operations.length >= MIN_FOLDED &&
    operations.length * UNITS_PER_FOLDED >= touched;
  return { length, fold };
}

/**
 * Apply `operations` in order to the text in `chunks`, which must fit them
 * (each operation's base length the length before it; the caller checks).
 *
 * @returns The text after them as new chunks; each operation's inverse
 * when `invert` (else an empty list); and the UTF-16 units each deletes,
 * which its inverse inserts.
 */
export function foldOperations(
  chunks: readonly Chunk[],
  operations: readonly TextOperation[],
  invert: boolean,
): { chunks: Chunk[]; inverses: TextOperation[]; deletedUnits: number[] } {
  const blocks = new Blocks(chunks);
  const inverses: TextOperation[] = [];
  const deletedUnits: number[] = [];
  for (let i = 0; i < operations.length; i++) {
    blocks.deletedUnits = 0;
    const inverse = blocks.apply(operations[i]!, invert);
    if (inverse !== undefined) inverses.push(inverse);
    deletedUnits.push(blocks.deletedUnits);
  }
  return { chunks: blocks.toChunks(), inverses, deletedUnits };
}

/** The text as blocks of code points, with a cursor into them. */
class Blocks {
  blocks: Uint32Array[] = [];
  sizes: number[] = [];
  /** The cursor: block `index`, `offset` code points into it. */
  index = 0;
  offset = 0;
  /** UTF-16 units deleted since it was last set to 0. */
  deletedUnits = 0;

  constructor(chunks: readonly Chunk[]) {
    let units = 0;
    for (const chunk of chunks) units += chunk.text.length;
    const points = new Uint32Array(units);
    let length = 0;
    for (const chunk of chunks) length += toPoints(chunk.text, points, length);
    this.#addBlocks(0, points, length);
    if (this.blocks.length === 0) {
      this.blocks.push(new Uint32Array(BLOCK_CAPACITY));
      this.sizes.push(0);
    }
  }

  /** Apply `operation` from the start; returns its inverse if `invert`. */
  apply(operation: TextOperation, invert: boolean): TextOperation | undefined {
    const inverse = invert ? new TextOperation() : undefined;
    this.index = 0;
    this.offset = 0;
    const components = operation.components;
    const last = components.length - 1;
    for (let i = 0; i <= last; i++) {
      const component = components[i]!;
      if (typeof component === "string") {
        // Not inside `inverse?.delete(...)`, which skips its argument.
        const length = this.#insert(component);
        inverse?.delete(length);
      } else if (component > 0) {
        // A last retain keeps the rest as it is: no need to walk it.
        if (i < last) this.#retain(component);
        inverse?.retain(component);
      } else {
        const removed = this.#delete(-component, invert);
        inverse?.insert(removed);
      }
    }
    return inverse;
  }

  /** The text as string chunks of less than CHUNK_SIZE code points. */
  toChunks(): Chunk[] {
    const chunks: Chunk[] = [];
    for (let b = 0; b < this.blocks.length; b++) {
      const block = this.blocks[b]!;
      const size = this.sizes[b]!;
      for (let start = 0; start < size; start += CHUNK_SIZE - 1) {
        const end = Math.min(size, start + CHUNK_SIZE - 1);
        chunks.push(new Chunk(pointsToString(block, start, end), end - start));
      }
    }
    return chunks;
  }

  #retain(count: number): void {
    const sizes = this.sizes;
    let remaining = count + this.offset;
    let index = this.index;
    // Whole blocks are skipped by their size alone.
    while (index < sizes.length && remaining >= sizes[index]!) {
      remaining -= sizes[index]!;
      index++;
    }
    this.index = index;
    this.offset = remaining;
  }

  /** Insert `text` at the cursor, which ends after it; returns its length. */
  #insert(text: string): number {
    const length = codePointLength(text);
    if (this.index === this.blocks.length) {
      this.index--;
      this.offset = this.sizes[this.index]!;
    }
    const block = this.blocks[this.index]!;
    const size = this.sizes[this.index]!;
    if (size + length <= BLOCK_CAPACITY) {
      block.copyWithin(this.offset + length, this.offset, size);
      toPoints(text, block, this.offset);
      this.sizes[this.index] = size + length;
      this.offset += length;
      return length;
    }
    // The block overflows: it keeps what is before the cursor, and the
    // inserted points and its tail go into new blocks after it.
    const rest = new Uint32Array(length + size - this.offset);
    toPoints(text, rest, 0);
    rest.set(block.subarray(this.offset, size), length);
    this.sizes[this.index] = this.offset;
    this.#addBlocks(this.index + 1, rest, rest.length);
    this.index++;
    this.offset = 0;
    this.#retain(length);
    return length;
  }

  /** Remove `count` code points at the cursor; returns them if `keep`. */
  #delete(count: number, keep: boolean): string {
    const removed: string[] = [];
    let remaining = count;
    while (remaining > 0) {
      const size = this.sizes[this.index]!;
      if (this.offset === size) {
        this.index++;
        this.offset = 0;
        continue;
      }
      const block = this.blocks[this.index]!;
      const taken = Math.min(remaining, size - this.offset);
      let units = taken;
      for (let i = this.offset; i < this.offset + taken; i++) {
        if (block[i]! > 0xffff) units++;
      }
      this.deletedUnits += units;
      if (keep) {
        removed.push(pointsToString(block, this.offset, this.offset + taken));
      }
      block.copyWithin(this.offset, this.offset + taken, size);
      this.sizes[this.index] = size - taken;
      remaining -= taken;
      if (size === taken && this.blocks.length > 1) {
        this.blocks.splice(this.index, 1);
        this.sizes.splice(this.index, 1);
      }
    }
    return removed.length === 1 ? removed[0]! : removed.join("");
  }

  /** Put `points[0, length)` into new blocks at `at`. */
  #addBlocks(at: number, points: Uint32Array, length: number): void {
    const blocks: Uint32Array[] = [];
    const sizes: number[] = [];
    for (let start = 0; start < length; start += BLOCK_FILL) {
      const end = Math.min(length, start + BLOCK_FILL);
      const block = new Uint32Array(BLOCK_CAPACITY);
      block.set(points.subarray(start, end));
      blocks.push(block);
      sizes.push(end - start);
    }
    this.blocks.splice(at, 0, ...blocks);
    this.sizes.splice(at, 0, ...sizes);
  }
}

/**
 * Write `text`'s code points into `out` from `at`; a surrogate pair is one,
 * a lone surrogate one as well (as `codePointLength` counts them).
 *
 * @returns How many were written.
 */
function toPoints(text: string, out: Uint32Array, at: number): number {
  let n = at;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        out[n++] = ((unit - 0xd800) << 10) + (next - 0xdc00) + 0x10000;
        i++;
        continue;
      }
    }
    out[n++] = unit;
  }
  return n - at;
}

/** Code points `from` to `to` of `block` as a string, made natively. */
function pointsToString(block: Uint32Array, from: number, to: number): string {
  if (to - from === 1) return String.fromCodePoint(block[from]!);
  const pieces: string[] = [];
  // In slices, as `apply` passes each point as an argument.
  for (let start = from; start < to; start += 4096) {
    const slice = block.subarray(start, Math.min(to, start + 4096));
    pieces.push(String.fromCodePoint.apply(null, slice as unknown as number[]));
  }
  return pieces.length === 1 ? pieces[0]! : pieces.join("");
}
