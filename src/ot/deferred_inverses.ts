/**
 * The inverses of operations applied together, made only when one is first
 * asked for. Folding a pad's history in without them takes about half the
 * time (the busy pad's 10,000 operations in a fresh process: 27 to 31 ms
 * against 56 to 61), and most sessions never look at an old operation's
 * inverse: only rebuilding an older text, rebasing onto one and undoing
 * one's own earlier edits do. What each inverse inserts (the units its
 * operation deleted) is known at once, for whoever bounds what it keeps.
 *
 * @module
 */

import { insertedUnits } from "./component.ts";
import type { TextOperation } from "./operation.ts";

/**
 * The inverses of a list of operations, each made on first use, all at
 * once.
 *
 * @example
 * ```ts
 * import { TextBuffer, TextOperation } from "../mod.ts";
 * import assert from "node:assert/strict";
 *
 * const buffer = new TextBuffer("hello");
 * const inverses = buffer.applyAllDeferringInverses([
 *   TextOperation.fromJSON([-1, "J", 4]),
 * ]);
 * assert.equal(buffer.toString(), "Jello");
 * assert.deepEqual(inverses.deletedUnits, [1]);
 * assert.deepEqual(inverses.at(0).toJSON(), ["h", -1, 4]);
 * ```
 */
export class DeferredInverses {
  /** The UTF-16 units each operation deletes: what its inverse inserts. */
  readonly deletedUnits: readonly number[];
  #inverses: readonly TextOperation[] | undefined;
  #make: (() => TextOperation[]) | undefined;

  private constructor(
    deletedUnits: readonly number[],
    inverses: readonly TextOperation[] | undefined,
    make: (() => TextOperation[]) | undefined,
  ) {
    this.deletedUnits = deletedUnits;
    this.#inverses = inverses;
    this.#make = make;
  }

  /**
   * Inverses already made.
   *
   * @param inverses The inverses, in the operations' order.
   * @returns Them, as deferred ones.
   *
   * @example
   * ```ts
   * import { DeferredInverses, TextOperation } from "../mod.ts";
   * import assert from "node:assert/strict";
   *
   * const inverses = DeferredInverses.of([TextOperation.fromJSON(["ab", 2])]);
   * assert.equal(inverses.resolved, true);
   * assert.deepEqual(inverses.deletedUnits, [2]);
   * ```
   */
  static of(inverses: readonly TextOperation[]): DeferredInverses {
    return new DeferredInverses(
      inverses.map((inverse) => insertedUnits(inverse.components)),
      inverses,
      undefined,
    );
  }

  /**
   * Inverses `make` makes when one is first asked for; `make` (and what it
   * holds, such as the text before the operations) is let go of then.
   *
   * @param make Makes every inverse, in the operations' order.
   * @param deletedUnits The UTF-16 units each operation deletes.
   * @returns The deferred inverses.
   *
   * @example
   * ```ts
   * import { DeferredInverses, TextOperation } from "../mod.ts";
   * import assert from "node:assert/strict";
   *
   * const inverses = DeferredInverses.later(
   *   () => [TextOperation.fromJSON(["a", 1])],
   *   [1],
   * );
   * assert.equal(inverses.resolved, false);
   * assert.deepEqual(inverses.at(0).toJSON(), ["a", 1]);
   * assert.equal(inverses.resolved, true);
   * ```
   */
  static later(
    make: () => TextOperation[],
    deletedUnits: readonly number[],
  ): DeferredInverses {
    return new DeferredInverses(deletedUnits, undefined, make);
  }

  /** Whether the inverses are made. */
  get resolved(): boolean {
    return this.#inverses !== undefined;
  }

  /**
   * The inverse of the operation at `index`, making every inverse first if
   * they are not made yet.
   *
   * @param index The operation's place in the list.
   * @returns Its inverse.
   * @throws {RangeError} If there is no operation at `index`.
   */
  at(index: number): TextOperation {
    this.resolve();
    const inverse = this.#inverses![index];
    if (inverse === undefined) {
      throw new RangeError(
        `Cannot read inverse ${index} as there is no such operation: current count is ${this.deletedUnits.length}`,
      );
    }
    return inverse;
  }

  /** Make every inverse now, if they are not made yet. */
  resolve(): void {
    if (this.#inverses !== undefined) return;
    this.#inverses = this.#make!();
    this.#make = undefined;
  }
}
