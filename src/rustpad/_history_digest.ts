// The digests that tell one history of a pad from another (see
// `_lineage.ts`): each operation with its author, chained from the first.

import { sha256 } from "../digest/mod.ts";
import type { TextOperation } from "../ot/operation.ts";
import type { UserId } from "./protocol.ts";
import { insertedUnits } from "../ot/component.ts";

/**
 * How many of a history's first operations name it. A restart that brings
 * back the same first operations (a pad restored twice from the same text)
 * is still told apart by the operation at the revision in question.
 */
export const LINEAGE_DEPTH = 16;

/** The digest of one history operation chained onto `previous`. */
export function chainDigest(
  previous: string,
  author: UserId,
  operation: TextOperation,
): string {
  return sha256(`${previous}\n${author}\n${JSON.stringify(operation)}`)
    .toBase64({ alphabet: "base64url", omitPadding: true })
    .slice(0, 22);
}

/**
 * Most UTF-16 units of inserted text a lineage holds undigested: room for
 * a restored pad's whole text twice (Rustpad's 262,144 code points are at
 * most 524,288 units). Past it, what is held is digested at once, so a
 * history of the longest operations costs this much, not 16 of them.
 */
const MAX_PENDING_UNITS = 1024 * 1024;

/**
 * The chained digests of a history's first {@linkcode LINEAGE_DEPTH}
 * operations, made on the first {@linkcode Lineage.at}: a pad restored from
 * its text begins with one insert of all of it, whose digest took about
 * 12 ms of a first read that never asks for it. Until then the operations
 * are held (immutable, and at most {@linkcode MAX_PENDING_UNITS} of text).
 */
export class Lineage {
  readonly #digests: string[] = [];
  /** Noted, not digested yet, in order after `#digests`. */
  #pending: [UserId, TextOperation][] = [];
  #pendingUnits = 0;

  /** Note the operation at `revision` (only the first ones count). */
  note(revision: number, author: UserId, operation: TextOperation): void {
    if (revision >= LINEAGE_DEPTH) return;
    this.#pending.push([author, operation]);
    this.#pendingUnits += insertedUnits(operation.components);
    if (this.#pendingUnits > MAX_PENDING_UNITS) this.#digest();
  }

  /** The digest of the first `min(revision, LINEAGE_DEPTH)` (`""` at 0). */
  at(revision: number): string | undefined {
    if (revision <= 0) return "";
    this.#digest();
    return this.#digests[Math.min(revision, LINEAGE_DEPTH) - 1];
  }

  /** Digest what is held. */
  #digest(): void {
    // Indexed, without destructuring: thousands of entries on a first
    // open, run before the JIT has compiled this, where an iterator for
    // each pair cost about 8 ms for 10,000.
    for (let i = 0; i < this.#pending.length; i++) {
      const entry = this.#pending[i]!;
      this.#digests.push(
        chainDigest(this.#digests.at(-1) ?? "", entry[0], entry[1]),
      );
    }
    this.#pending = [];
    this.#pendingUnits = 0;
  }
}
