// A tiny seeded pseudo-random generator and random texts and operations for
// property tests and benchmarks. No dependencies: the same seed always gives
// the same sequence, so a failing case can be replayed from its seed. It
// lives in src/ (not tests/) because benchmarks use it too; deno.json keeps
// it out of the published package.

import { TextOperation } from "./operation.ts";

/**
 * The characters random texts are drawn from: ASCII, a newline, "é", astral
 * characters (two UTF-16 units, one code point), a zero-width joiner, the
 * first private-use code point and U+FFFF (the last BMP code point, one unit).
 */
export const ALPHABET: readonly string[] = [
  "a",
  "b",
  "c",
  " ",
  "\n",
  "é",
  "🎉",
  "😀",
  "👨",
  "\u200d",
  "\ue000",
  "\uffff",
];

/** A seeded generator of numbers in [0, 1): mulberry32. */
export class Random {
  #state: number;

  constructor(seed: number) {
    this.#state = seed >>> 0;
  }

  /** A number in [0, 1). */
  next(): number {
    this.#state = (this.#state + 0x6d2b79f5) >>> 0;
    let t = this.#state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** An integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.next() * n);
  }

  /** An integer in [min, max]. */
  between(min: number, max: number): number {
    return min + this.int(max - min + 1);
  }

  /** One element of `items`. */
  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)] as T;
  }

  /** A string of `length` code points drawn from `alphabet`. */
  text(length: number, alphabet: readonly string[] = ALPHABET): string {
    const parts: string[] = [];
    for (let i = 0; i < length; i++) parts.push(this.pick(alphabet));
    return parts.join("");
  }

  /**
   * A random operation on `text`: runs of retains, deletes and inserts that
   * cover it exactly, built with the normalising builder.
   */
  operation(text: string, maxRun = 5): TextOperation {
    const length = [...text].length;
    const op = new TextOperation();
    let left = length;
    while (left > 0) {
      const run = this.between(1, Math.min(left, maxRun));
      switch (this.int(3)) {
        case 0:
          op.retain(run);
          left -= run;
          break;
        case 1:
          op.delete(run);
          left -= run;
          break;
        default:
          op.insert(this.text(this.between(1, maxRun)));
      }
    }
    if (this.int(2) === 0) op.insert(this.text(this.between(1, maxRun)));
    return op;
  }

  /** One single-code-point edit of a text `length` code points long. */
  edit(length: number, alphabet: readonly string[] = ALPHABET): TextOperation {
    const position = this.int(length + 1);
    const op = new TextOperation().retain(position);
    if (position < length && this.int(2) === 0) {
      return op.delete(1).retain(length - position - 1);
    }
    return op.insert(this.pick(alphabet)).retain(length - position);
  }

  /**
   * A random operation on a text `length` code points long that touches it
   * at up to `edits` places (a delete, an insert, or both) and retains the
   * rest, like a user's edit of a long pad.
   */
  sparse(length: number, edits: number, maxRun = 5): TextOperation {
    const positions: number[] = [];
    for (let i = 0; i < edits; i++) positions.push(this.int(length + 1));
    positions.sort((x, y) => x - y);
    const op = new TextOperation();
    let at = 0;
    for (const position of positions) {
      if (position < at) continue;
      op.retain(position - at);
      at = position;
      const kind = this.int(3);
      if (kind !== 0) op.insert(this.text(this.between(1, maxRun)));
      if (kind !== 1) {
        const run = Math.min(this.between(1, maxRun), length - at);
        op.delete(run);
        at += run;
      }
    }
    return op.retain(length - at);
  }
}
