/**
 * Replay a busy pad's history, as a client does on connecting: 10,000
 * single-code-point edits (about half inserts, half deletes, at seeded random
 * positions) onto a 200,000-code-point document with astral characters.
 *
 * As a script (`deno run bench/replay.ts`) it times the {@linkcode TextBuffer}
 * replay over a few runs and prints the median against the target: the Rust
 * crate's apply loop takes about 4.5 s for this replay, and ours must take
 * under a twentieth of that (225 ms). As a module it provides the fixture for
 * `bench/replay_bench.ts`.
 *
 * @module
 */

import type { TextOperation } from "../src/ot/operation.ts";
import { TextBuffer } from "../src/ot/text_buffer.ts";
import { Random } from "../src/ot/_random.ts";

/** Code points in the document the history is replayed onto. */
export const DOCUMENT_LENGTH = 200_000;
/** Single-code-point edits in the history. */
export const EDIT_COUNT = 10_000;
/** The Rust crate's apply loop on this replay, in milliseconds. */
export const RUST_MS = 4_500;
/** Our target: a twentieth of the Rust figure, in milliseconds. */
export const TARGET_MS: number = RUST_MS / 20;

/** Mostly prose, with astral characters, a joiner and non-ASCII BMP ones. */
const DOCUMENT_ALPHABET: readonly string[] = [
  ..."abcdefghijklmnopqrstuvwxyz      ",
  "\n",
  "é",
  "🎉",
  "😀",
  "👨",
  "\u200d",
];

/** A document and a history of operations that applies to it in order. */
export interface ReplayFixture {
  /** The document before the history. */
  document: string;
  /** The operations, each made against the result of the ones before. */
  operations: TextOperation[];
}

/**
 * Build the replay fixture from a seed: the same seed gives the same document
 * and history.
 *
 * @param seed The random seed.
 * @returns The document and its history.
 *
 * @example
 * ```ts
 * import { replayFixture } from "./replay.ts";
 * import assert from "node:assert/strict";
 *
 * const { operations } = replayFixture();
 * assert.equal(operations.length, 10_000);
 * ```
 */
export function replayFixture(seed = 2024): ReplayFixture {
  const random = new Random(seed);
  const document = random.text(DOCUMENT_LENGTH, DOCUMENT_ALPHABET);
  const operations: TextOperation[] = [];
  let length = DOCUMENT_LENGTH;
  for (let i = 0; i < EDIT_COUNT; i++) {
    const op = random.edit(length, DOCUMENT_ALPHABET);
    operations.push(op);
    length = op.targetLength;
  }
  return { document, operations };
}

/**
 * The product path: load the document into a {@linkcode TextBuffer}, apply
 * every operation, read the text back.
 *
 * @param fixture The document and history.
 * @returns The final text.
 *
 * @example
 * ```ts
 * import { replayTextBuffer } from "./replay.ts";
 * import { TextOperation } from "../src/ot/operation.ts";
 * import assert from "node:assert/strict";
 *
 * const operations = [TextOperation.fromJSON([2, "!"])];
 * assert.equal(replayTextBuffer({ document: "hi", operations }), "hi!");
 * ```
 */
export function replayTextBuffer(fixture: ReplayFixture): string {
  const buffer = new TextBuffer(fixture.document);
  for (const op of fixture.operations) buffer.apply(op);
  return buffer.toString();
}

/**
 * The naive path: {@linkcode TextOperation.apply} on a string for every
 * operation, copying the whole text each time.
 *
 * @param fixture The document and history.
 * @returns The final text.
 *
 * @example
 * ```ts
 * import { replayString } from "./replay.ts";
 * import { TextOperation } from "../src/ot/operation.ts";
 * import assert from "node:assert/strict";
 *
 * const operations = [TextOperation.fromJSON([2, "!"])];
 * assert.equal(replayString({ document: "hi", operations }), "hi!");
 * ```
 */
export function replayString(fixture: ReplayFixture): string {
  let text = fixture.document;
  for (const op of fixture.operations) text = op.apply(text);
  return text;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? sorted[middle] as number
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

/** Time the TextBuffer replay and print the median against the target. */
function main(runs = 7): void {
  const fixture = replayFixture();
  const inserts =
    fixture.operations.filter((op) => op.targetLength > op.baseLength).length;
  replayTextBuffer(fixture); // warm up
  const times: number[] = [];
  let result = "";
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    result = replayTextBuffer(fixture);
    times.push(performance.now() - start);
  }
  const ms = median(times);
  console.log(
    `TextBuffer replay of ${EDIT_COUNT} edits (${inserts} inserts, ${
      EDIT_COUNT - inserts
    } deletes) onto ${DOCUMENT_LENGTH} code points; final length ${
      [...result].length
    }`,
  );
  console.log(`runs (ms): ${times.map((t) => t.toFixed(1)).join(", ")}`);
  console.log(`median: ${ms.toFixed(1)} ms`);
  console.log(
    `ratio to the Rust crate's ${RUST_MS} ms: 1/${(RUST_MS / ms).toFixed(1)} (${
      (ms / RUST_MS * 100).toFixed(2)
    }%)`,
  );
  console.log(
    ms < TARGET_MS
      ? `under the ${TARGET_MS} ms target: yes`
      : `under the ${TARGET_MS} ms target: NO`,
  );
}

if (import.meta.main) main();
