// Who wrote each code point of a pad's text, kept as runs (length, author,
// the revision that wrote it) in chunks of a few hundred: an operation
// copies the chunks it retains whole and rebuilds only those it touches, so
// each costs about the number of chunks plus its own size, not the pad's.

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
  readonly runs: readonly Run[];
  readonly length: number;
}

/** Chunks rebuilt from runs are this many runs at most. */
const CHUNK_RUNS = 256;
/** A chunk kept whole is at least this many runs; smaller ones are joined. */
const MIN_KEPT_RUNS = 64;

function chunkOf(runs: Run[]): Chunk {
  let length = 0;
  for (const run of runs) length += run.length;
  return { runs, length };
}

/** Add `run` to `runs`, joined to the last one if the same write. */
function pushRun(runs: Run[], run: Run): void {
  if (run.length === 0) return;
  const last = runs.at(-1);
  if (
    last !== undefined && last.author === run.author &&
    last.revision === run.revision
  ) {
    runs[runs.length - 1] = { ...last, length: last.length + run.length };
  } else runs.push(run);
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
    const out: Chunk[] = [];
    let building: Run[] = [];
    const flush = () => {
      if (building.length > 0) out.push(chunkOf(building));
      building = [];
    };
    let chunk = 0;
    let run = 0;
    let offset = 0;
    /** Walk `count` code points of the old text, keeping them or not. */
    const walk = (count: number, keep: boolean) => {
      while (count > 0) {
        const current = chunks[chunk]!;
        if (keep && run === 0 && offset === 0 && current.length <= count) {
          flush();
          out.push(current);
          count -= current.length;
          chunk++;
          continue;
        }
        const at = current.runs[run]!;
        const taken = Math.min(count, at.length - offset);
        if (keep) pushRun(building, { ...at, length: taken });
        count -= taken;
        offset += taken;
        if (offset === at.length) {
          offset = 0;
          if (++run === current.runs.length) [chunk, run] = [chunk + 1, 0];
        }
      }
    };
    for (const component of operation.components) {
      if (typeof component === "string") {
        const length = codePointLength(component);
        pushRun(building, { length, author, revision });
      } else walk(Math.abs(component), component > 0);
    }
    flush();
    this.#chunks = rechunk(out);
  }

  /** Every run, in text order. */
  *runs(): Generator<Run> {
    for (const chunk of this.#chunks) yield* chunk.runs;
  }

  /** The text's length in code points. */
  get length(): number {
    let length = 0;
    for (const chunk of this.#chunks) length += chunk.length;
    return length;
  }
}

/** Big chunks kept as they are, small neighbours joined into new ones. */
function rechunk(chunks: Chunk[]): Chunk[] {
  const result: Chunk[] = [];
  let joined: Run[] = [];
  const close = () => {
    if (joined.length > 0) result.push(chunkOf(joined));
    joined = [];
  };
  for (const chunk of chunks) {
    const runs = chunk.runs.length;
    if (runs >= MIN_KEPT_RUNS && runs <= 2 * CHUNK_RUNS) {
      close();
      result.push(chunk);
      continue;
    }
    for (const run of chunk.runs) {
      pushRun(joined, run);
      if (joined.length >= CHUNK_RUNS) close();
    }
  }
  close();
  return result;
}
