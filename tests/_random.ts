// Random texts and operations for property tests: the seeded generator
// (shared with the benchmarks, so it lives in src/_random.ts) and helpers
// that only tests use.

import { Random } from "../src/ot/_random.ts";

export { ALPHABET, Random } from "../src/ot/_random.ts";

/** The family emoji: 7 code points joined by zero-width joiners. */
export const FAMILY = "👨‍👨‍👦‍👦";

/** Code point length, the slow obvious way. */
export function cpLength(text: string): number {
  return [...text].length;
}

/** Run `check` on `cases` random cases, naming the seed and case on failure. */
export function property(
  seed: number,
  check: (random: Random, where: string) => void,
  cases = 500,
): void {
  const random = new Random(seed);
  for (let i = 0; i < cases; i++) check(random, `seed ${seed}, case ${i}`);
}
