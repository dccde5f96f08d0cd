// Who wrote each code point of a pad's text, kept as runs (length, author,
// the revision that wrote it) in chunks of at most 128: an operation skips
// the chunks it retains by their lengths and splices runs only in those it
// touches, so each costs about the number of chunks, not the pad's length.

import { codePointLength } from "../ot/code_points.ts";
import type { TextOperation } from "../ot/operation.ts";
import type { UserId } from "../rustpad/protocol.ts";

/** Code points written by one author in one operation, side by side. */
export interface Run {
  readonly length: number;
  /** `undefined` for text older than the history known. */
  readonly author: UserId | undefined;
  /** The pad revision the operation that wrote it made (from 1). */
  readonly revision: number;
}

interface Chunk {
  /** Mutable: an operation splices the runs of the chunks it touches. */
  runs: MutableRun[];
  length: number;
}

type MutableRun = { -readonly [K in keyof Run]: Run[K] };

/** A chunk past this many runs is split in two. */
const MAX_CHUNK_RUNS = 128;

function chunkOf(runs: MutableRun[]): Chunk {
  let length = 0;
  for (const run of runs) length += run.length;
  return { runs, length };
}

/** The authorship of one pad's text at one revision. */
export class Authorship {
  #chunks: Chunk[];
  /** The revision the runs describe. */
  revision: number;

  /** `length` code points of unknown authorship, at `revision`. */
  constructor(length: number, revision: number) {
    this.#chunks = length === 0
      ? []
      : [chunkOf([{ length, author: undefined, revision }])];
    this.revision = revision;
  }

  /** Fold in the next history operation, by `author`. */
  apply(operation: TextOperation, author: UserId): void {
    const revision = ++this.revision;
    const chunks = this.#chunks;
    // Where the operation is: chunk `chunk`, `at` code points into it.
    let chunk = 0;
    let at = 0;
    for (const component of operation.components) {
      if (typeof component === "string") {
        if (chunk === chunks.length) {
          if (chunk === 0) chunks.push({ runs: [], length: 0 });
          else [chunk, at] = [chunk - 1, chunks[chunk - 1]!.length];
        }
        const length = codePointLength(component);
        insertRun(chunks[chunk]!, at, { length, author, revision });
        at += length;
      } else if (component > 0) {
        let count = component;
        while (count > 0) {
          const left = chunks[chunk]!.length - at;
          if (count < left) {
            at += count;
            break;
          }
          count -= left;
          chunk++;
          at = 0;
        }
      } else {
        let count = -component;
        while (count > 0) {
          const target = chunks[chunk]!;
          const removed = Math.min(count, target.length - at);
          deleteRuns(target, at, removed);
          count -= removed;
          if (at === target.length) {
            chunk++;
            at = 0;
          }
        }
      }
    }
    this.#chunks = rebalance(chunks);
  }

  /** Every run, in text order. */
  runs(): Run[] {
    const runs: Run[] = [];
    for (const chunk of this.#chunks) {
      for (const run of chunk.runs) runs.push(run);
    }
    return runs;
  }

  /** The text's length in code points. */
  get length(): number {
    let length = 0;
    for (const chunk of this.#chunks) length += chunk.length;
    return length;
  }
}

/** The run index holding code point `at` of `chunk`, and `at` within it. */
function find(chunk: Chunk, at: number): [number, number] {
  let index = 0;
  while (index < chunk.runs.length && at >= chunk.runs[index]!.length) {
    at -= chunk.runs[index]!.length;
    index++;
  }
  return [index, at];
}

/** Put `run` at code point `at` of `chunk`, splitting the run there. */
function insertRun(chunk: Chunk, at: number, run: MutableRun): void {
  const [index, offset] = find(chunk, at);
  chunk.length += run.length;
  if (offset === 0) {
    const before = chunk.runs[index - 1];
    if (
      before !== undefined && before.author === run.author &&
      before.revision === run.revision
    ) {
      before.length += run.length;
    } else chunk.runs.splice(index, 0, run);
    return;
  }
  const split = chunk.runs[index]!;
  const tail = { ...split, length: split.length - offset };
  split.length = offset;
  chunk.runs.splice(index + 1, 0, run, tail);
}

/** Remove `count` code points of `chunk` from `at`, all within it. */
function deleteRuns(chunk: Chunk, at: number, count: number): void {
  chunk.length -= count;
  let [index, offset] = find(chunk, at);
  while (count > 0) {
    const run = chunk.runs[index]!;
    const removed = Math.min(count, run.length - offset);
    run.length -= removed;
    count -= removed;
    if (run.length === 0) chunk.runs.splice(index, 1);
    else [index, offset] = [index + 1, 0];
  }
}

/** Empty chunks dropped, long ones split. */
function rebalance(chunks: Chunk[]): Chunk[] {
  if (!chunks.some((c) => c.length === 0 || c.runs.length > MAX_CHUNK_RUNS)) {
    return chunks;
  }
  const result: Chunk[] = [];
  for (const chunk of chunks) {
    if (chunk.length === 0) continue;
    if (chunk.runs.length <= MAX_CHUNK_RUNS) {
      result.push(chunk);
      continue;
    }
    const half = chunk.runs.length >> 1;
    result.push(chunkOf(chunk.runs.slice(0, half)));
    result.push(chunkOf(chunk.runs.slice(half)));
  }
  return result;
}
