/**
 * SHA-1 (FIPS 180-4), in plain TypeScript, for the one place a protocol
 * still asks for it: a WebSocket handshake's `Sec-WebSocket-Accept` (RFC
 * 6455). Not for anything that must resist a forger. Loading `node:crypto`
 * for it cost about 6 ms of every start.
 *
 * @module
 */

const encoder = new TextEncoder();

/**
 * The SHA-1 digest of `data` (a string as UTF-8).
 *
 * @example
 * ```ts
 * import { sha1 } from "./sha1.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(
 *   sha1("abc").toHex(),
 *   "a9993e364706816aba3e25717850c26c9cd0d89d",
 * );
 * ```
 */
export function sha1(data: Uint8Array | string): Uint8Array<ArrayBuffer> {
  const bytes = typeof data === "string" ? encoder.encode(data) : data;
  // The message, its 0x80, zeros, and its length in bits: whole blocks.
  const padded = new Uint8Array(Math.ceil((bytes.length + 9) / 64) * 64);
  padded.set(bytes);
  padded[bytes.length] = 0x80;
  const view = new DataView(padded.buffer);
  view.setUint32(padded.length - 8, Math.floor(bytes.length / 0x20000000));
  view.setUint32(padded.length - 4, (bytes.length * 8) >>> 0);
  const state = [0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476, 0xc3d2e1f0];
  const w = new Uint32Array(80);
  for (let at = 0; at < padded.length; at += 64) {
    for (let i = 0; i < 16; i++) w[i] = view.getUint32(at + i * 4);
    for (let i = 16; i < 80; i++) {
      const x = w[i - 3]! ^ w[i - 8]! ^ w[i - 14]! ^ w[i - 16]!;
      w[i] = (x << 1) | (x >>> 31);
    }
    let [a, b, c, d, e] = state as [number, number, number, number, number];
    for (let i = 0; i < 80; i++) {
      const [f, k] = i < 20
        ? [(b & c) | (~b & d), 0x5a827999]
        : i < 40
        ? [b ^ c ^ d, 0x6ed9eba1]
        : i < 60
        ? [(b & c) | (b & d) | (c & d), 0x8f1bbcdc]
        : [b ^ c ^ d, 0xca62c1d6];
      const t = (((a << 5) | (a >>> 27)) + f + e + k + w[i]!) | 0;
      e = d;
      d = c;
      c = (b << 30) | (b >>> 2);
      b = a;
      a = t;
    }
    state[0] = (state[0]! + a) | 0;
    state[1] = (state[1]! + b) | 0;
    state[2] = (state[2]! + c) | 0;
    state[3] = (state[3]! + d) | 0;
    state[4] = (state[4]! + e) | 0;
  }
  const digest = new Uint8Array(20);
  const out = new DataView(digest.buffer);
  for (let i = 0; i < 5; i++) out.setUint32(i * 4, state[i]!);
  return digest;
}
