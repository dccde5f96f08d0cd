// The SHA-256 compression function (FIPS 180-4) and the last blocks, on
// states of eight 32-bit words, shared by sha256.ts and hmac_sha256.ts.
// Short strings are encoded into one buffer kept for it, and the padding
// is written into another: a hash of an edit's mark allocates nothing but
// its digest.

// deno-fmt-ignore
const K = Int32Array.from([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1,
  0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3,
  0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
  0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
  0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147,
  0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
  0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
  0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
  0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208,
  0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);

/** The state before any data. */
// deno-fmt-ignore
export const INITIAL: Readonly<Int32Array> = Int32Array.from([
  0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c,
  0x1f83d9ab, 0x5be0cd19,
]);

/** Bytes in a block. */
export const BLOCK_BYTES = 64;

/** Strings up to this many UTF-8 bytes are encoded into `staging`. */
const STAGING_BYTES = 64 * 1024;

/** The message schedule, shared: compressing never yields. */
const schedule = new Int32Array(64);
/** Where a short string's UTF-8 is written: hashing never yields. */
const staging = new Uint8Array(STAGING_BYTES);
/** The last one or two blocks: the data's tail, 0x80, zeros, the length. */
const tail = new Uint8Array(2 * BLOCK_BYTES);
const encoder = new TextEncoder();

/** Fold the 64 bytes of `bytes` from `at` into `state`. */
export function compress(
  state: Int32Array,
  bytes: Uint8Array,
  at: number,
): void {
  const w = schedule;
  for (let i = 0; i < 16; i++) {
    const j = at + i * 4;
    w[i] = (bytes[j]! << 24) | (bytes[j + 1]! << 16) | (bytes[j + 2]! << 8) |
      bytes[j + 3]!;
  }
  for (let i = 16; i < 64; i++) {
    const a = w[i - 15]!;
    const b = w[i - 2]!;
    const s0 = ((a >>> 7) | (a << 25)) ^ ((a >>> 18) | (a << 14)) ^ (a >>> 3);
    const s1 = ((b >>> 17) | (b << 15)) ^ ((b >>> 19) | (b << 13)) ^
      (b >>> 10);
    w[i] = (w[i - 16]! + s0 + w[i - 7]! + s1) | 0;
  }
  let a = state[0]!, b = state[1]!, c = state[2]!, d = state[3]!;
  let e = state[4]!, f = state[5]!, g = state[6]!, h = state[7]!;
  for (let i = 0; i < 64; i++) {
    const s1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^
      ((e >>> 25) | (e << 7));
    const choice = (e & f) ^ (~e & g);
    const t1 = (h + s1 + choice + K[i]! + w[i]!) | 0;
    const s0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^
      ((a >>> 22) | (a << 10));
    const majority = (a & b) ^ (a & c) ^ (b & c);
    const t2 = (s0 + majority) | 0;
    h = g;
    g = f;
    f = e;
    e = (d + t1) | 0;
    d = c;
    c = b;
    b = a;
    a = (t1 + t2) | 0;
  }
  state[0] = (state[0]! + a) | 0;
  state[1] = (state[1]! + b) | 0;
  state[2] = (state[2]! + c) | 0;
  state[3] = (state[3]! + d) | 0;
  state[4] = (state[4]! + e) | 0;
  state[5] = (state[5]! + f) | 0;
  state[6] = (state[6]! + g) | 0;
  state[7] = (state[7]! + h) | 0;
}

/**
 * `data` as bytes and how many of them count: a short string in the
 * staging buffer (valid until the next call), a long one freshly encoded.
 */
export function bytesOf(data: Uint8Array | string): [Uint8Array, number] {
  if (typeof data !== "string") return [data, data.length];
  // At most 3 UTF-8 bytes for each UTF-16 unit.
  if (3 * data.length > STAGING_BYTES) {
    const bytes = encoder.encode(data);
    return [bytes, bytes.length];
  }
  for (let i = 0; i < data.length; i++) {
    const unit = data.charCodeAt(i);
    if (unit >= 0x80) {
      const rest = encoder.encodeInto(data.slice(i), staging.subarray(i));
      return [staging, i + rest.written];
    }
    staging[i] = unit;
  }
  return [staging, data.length];
}

/**
 * Hash the first `length` bytes of `bytes` onto `state`, which has taken
 * `before` bytes already (a multiple of 64), pad, and write the digest's
 * 32 bytes into `out`.
 */
export function finish(
  state: Int32Array,
  before: number,
  bytes: Uint8Array,
  length: number,
  out: Uint8Array,
): void {
  const whole = length - (length % BLOCK_BYTES);
  for (let at = 0; at < whole; at += BLOCK_BYTES) compress(state, bytes, at);
  const rest = length - whole;
  for (let i = 0; i < rest; i++) tail[i] = bytes[whole + i]!;
  tail[rest] = 0x80;
  const end = rest < BLOCK_BYTES - 8 ? BLOCK_BYTES : 2 * BLOCK_BYTES;
  tail.fill(0, rest + 1, end - 8);
  // The length in bits, big-endian, in the last 8 bytes.
  const total = before + length;
  putWord(tail, end - 8, Math.floor(total / 0x20000000));
  putWord(tail, end - 4, total * 8);
  compress(state, tail, 0);
  if (end > BLOCK_BYTES) compress(state, tail, BLOCK_BYTES);
  for (let i = 0; i < 8; i++) putWord(out, i * 4, state[i]!);
}

/** Write `word` big-endian at `at`. */
export function putWord(bytes: Uint8Array, at: number, word: number): void {
  bytes[at] = word >>> 24;
  bytes[at + 1] = word >>> 16;
  bytes[at + 2] = word >>> 8;
  bytes[at + 3] = word;
}
