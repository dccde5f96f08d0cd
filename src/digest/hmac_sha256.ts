/**
 * HMAC-SHA-256 (RFC 2104) with one key, synchronous: the keyed states are
 * made once, and a MAC allocates nothing but itself. Every write pays for
 * one (its `edit_id`), where WebCrypto's would be asynchronous and about
 * ten times dearer per call.
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
import { sha256 } from "./sha256.ts";

/** The state a MAC is computed in: computing never yields. */
const work = new Int32Array(8);
/** The inner hash, which the outer one takes. */
const inner = new Uint8Array(32);

/**
 * MACs under one key.
 *
 * @example
 * ```ts
 * import { HmacSha256 } from "./hmac_sha256.ts";
 * import assert from "node:assert/strict";
 *
 * const mac = new HmacSha256(new TextEncoder().encode("key"))
 *   .mac("The quick brown fox jumps over the lazy dog");
 * assert.equal(
 *   mac.toHex(),
 *   "f7bc83f430538424b13298e6aa6fb143ef4d59a14946175997479dbc2d1a3cd8",
 * );
 * ```
 */
export class HmacSha256 {
  /** SHA-256 after the key XOR ipad, and after the key XOR opad. */
  readonly #inner = INITIAL.slice();
  readonly #outer = INITIAL.slice();

  /**
   * Key the MAC.
   *
   * @param key The key; one longer than a block is hashed first.
   */
  constructor(key: Uint8Array) {
    const short = key.length > BLOCK_BYTES ? sha256(key) : key;
    const innerKey = new Uint8Array(BLOCK_BYTES).fill(0x36);
    const outerKey = new Uint8Array(BLOCK_BYTES).fill(0x5c);
    for (let i = 0; i < short.length; i++) {
      innerKey[i]! ^= short[i]!;
      outerKey[i]! ^= short[i]!;
    }
    compress(this.#inner, innerKey, 0);
    compress(this.#outer, outerKey, 0);
  }

  /**
   * The MAC of `data` (a string as UTF-8).
   *
   * @returns Its 32 bytes.
   */
  mac(data: Uint8Array | string): Uint8Array<ArrayBuffer> {
    work.set(this.#inner);
    finish(work, BLOCK_BYTES, ...bytesOf(data), inner);
    work.set(this.#outer);
    const mac = new Uint8Array(32);
    finish(work, BLOCK_BYTES, inner, inner.length, mac);
    return mac;
  }
}
