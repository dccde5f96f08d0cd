/**
 * SHA-256 (FIPS 180-4), synchronous and in plain TypeScript. Loading
 * Deno's `node:crypto` costs every start about 6 ms, and WebCrypto's digest
 * is asynchronous where the write path needs it synchronous. A one-shot
 * hash of a short string allocates nothing but its digest
 * (`_sha256_core.ts`): an edit's mark takes about 2.3 µs, where allocating
 * a state, a block and the string's bytes for each took 6.9 µs.
 *
 * @module
 */

import {
  BLOCK_BYTES,
  bytesOf,
  compress,
  finish,
  INITIAL,
} from "./_sha256_core.ts";

/** The state of the one-shot {@linkcode sha256}: hashing never yields. */
const oneShot = new Int32Array(8);

/**
 * A SHA-256 hash being fed: `update` it, `clone` it to branch, `digest`
 * it once. For one piece of data, {@linkcode sha256} costs less.
 *
 * @example
 * ```ts
 * import { Sha256 } from "./sha256.ts";
 * import assert from "node:assert/strict";
 *
 * const digest = new Sha256().update("abc").digest();
 * assert.equal(
 *   digest.toHex(),
 *   "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
 * );
 * ```
 */
export class Sha256 {
  #state = INITIAL.slice();
  /** The block being filled, `#filled` bytes of it so far. */
  #block = new Uint8Array(BLOCK_BYTES);
  #filled = 0;
  /** Bytes fed in all. */
  #length = 0;
  #done = false;

  /**
   * Feed `data`, a string as UTF-8.
   *
   * @returns This hash, to chain.
   * @throws {TypeError} After {@linkcode Sha256.digest}.
   */
  update(data: Uint8Array | string): this {
    if (this.#done) {
      throw new TypeError(
        "Cannot update the hash as it is digested: clone it before digesting to go on",
      );
    }
    const [bytes, length] = bytesOf(data);
    this.#length += length;
    let at = 0;
    if (this.#filled > 0) {
      const taken = Math.min(BLOCK_BYTES - this.#filled, length);
      this.#block.set(bytes.subarray(0, taken), this.#filled);
      this.#filled += taken;
      at = taken;
      if (this.#filled < BLOCK_BYTES) return this;
      compress(this.#state, this.#block, 0);
      this.#filled = 0;
    }
    for (; at + BLOCK_BYTES <= length; at += BLOCK_BYTES) {
      compress(this.#state, bytes, at);
    }
    this.#block.set(bytes.subarray(at, length), 0);
    this.#filled = length - at;
    return this;
  }

  /**
   * An independent copy of the hash so far.
   *
   * @returns A hash that goes on from here without touching this one.
   */
  clone(): Sha256 {
    const copy = new Sha256();
    copy.#state.set(this.#state);
    copy.#block.set(this.#block);
    copy.#filled = this.#filled;
    copy.#length = this.#length;
    copy.#done = this.#done;
    return copy;
  }

  /**
   * Finish the hash.
   *
   * @returns The 32-byte digest; the hash takes no more data after it.
   */
  digest(): Uint8Array<ArrayBuffer> {
    this.#done = true;
    const digest = new Uint8Array(32);
    finish(
      this.#state,
      this.#length - this.#filled,
      this.#block,
      this.#filled,
      digest,
    );
    return digest;
  }
}

/**
 * The SHA-256 digest of `data` (a string as UTF-8).
 *
 * @example
 * ```ts
 * import { sha256 } from "./sha256.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(sha256("").length, 32);
 * ```
 */
export function sha256(data: Uint8Array | string): Uint8Array<ArrayBuffer> {
  oneShot.set(INITIAL);
  const digest = new Uint8Array(32);
  finish(oneShot, 0, ...bytesOf(data), digest);
  return digest;
}
