// The hashes written here are the standard ones: each agrees with
// node:crypto on every length around the block edges, fed whole or in
// pieces, and a clone goes on without touching what it was cloned from.

import assert from "node:assert/strict";
import { createHash, createHmac } from "node:crypto";
import {
  equalInConstantTime,
  HmacSha256,
  sha1,
  Sha256,
  sha256,
} from "../../src/digest/mod.ts";

/** Lengths around every place padding changes: 0, 55, 56, 63, 64, 119 ... */
const LENGTHS = [
  ...Array.from({ length: 200 }, (_, i) => i),
  511,
  512,
  513,
  4096,
  100_003,
];

Deno.test("`sha256()` and `sha1()` equal node:crypto's for every length up to 200 bytes and a few long ones", () => {
  for (const length of LENGTHS) {
    const bytes = crypto.getRandomValues(
      new Uint8Array(Math.min(length, 65536)),
    );
    const data = length > 65536
      ? new Uint8Array(length).map((_, i) => bytes[i % 65536]!)
      : bytes;
    assert.equal(
      sha256(data).toHex(),
      createHash("sha256").update(data).digest("hex"),
      `sha256 of ${length} bytes`,
    );
    assert.equal(
      sha1(data).toHex(),
      createHash("sha1").update(data).digest("hex"),
      `sha1 of ${length} bytes`,
    );
  }
});

Deno.test("a string is hashed as its UTF-8", () => {
  const texts = ["", "abc", "pad é ✓ 😀", "x".repeat(1000) + "😀"];
  // Past what is encoded in the kept buffer, and non-ASCII from its start.
  texts.push("é".repeat(30_000), "x".repeat(22_000), "😀" + "x".repeat(100));
  for (const text of texts) {
    assert.equal(
      sha256(text).toHex(),
      createHash("sha256").update(text).digest("hex"),
    );
    assert.equal(
      sha1(text).toHex(),
      createHash("sha1").update(text).digest("hex"),
    );
  }
});

Deno.test("`Sha256` fed in pieces of any size equals the hash of the whole", () => {
  const whole = crypto.getRandomValues(new Uint8Array(1000));
  const expected = createHash("sha256").update(whole).digest("hex");
  for (const piece of [1, 7, 63, 64, 65, 200, 999]) {
    const hash = new Sha256();
    for (let at = 0; at < whole.length; at += piece) {
      hash.update(whole.subarray(at, at + piece));
    }
    assert.equal(hash.digest().toHex(), expected, `pieces of ${piece}`);
  }
});

Deno.test("a clone of `Sha256` goes on alone, and a digested hash refuses more data, saying to clone", () => {
  const prefix = new Sha256().update("key:");
  const one = prefix.clone().update("one").digest().toHex();
  const two = prefix.clone().update("two").digest().toHex();
  assert.equal(one, createHash("sha256").update("key:one").digest("hex"));
  assert.equal(two, createHash("sha256").update("key:two").digest("hex"));
  assert.equal(
    prefix.digest().toHex(),
    createHash("sha256").update("key:").digest("hex"),
  );
  assert.throws(() => prefix.update("more"), /clone it before digesting/);
});

Deno.test("`equalInConstantTime()` is true only for the same bytes and length", () => {
  const a = new Uint8Array([1, 2, 3]);
  assert.equal(equalInConstantTime(a, new Uint8Array([1, 2, 3])), true);
  assert.equal(equalInConstantTime(a, new Uint8Array([1, 2, 4])), false);
  assert.equal(equalInConstantTime(a, new Uint8Array([1, 2])), false);
  assert.equal(equalInConstantTime(new Uint8Array(), new Uint8Array()), true);
});

Deno.test("`HmacSha256` equals node:crypto's HMAC for keys shorter and longer than a block and every data length up to 200", () => {
  for (const keyLength of [0, 1, 32, 64, 65, 200]) {
    const key = crypto.getRandomValues(new Uint8Array(keyLength));
    const hmac = new HmacSha256(key);
    for (let length = 0; length <= 200; length++) {
      const data = crypto.getRandomValues(new Uint8Array(length));
      assert.equal(
        hmac.mac(data).toHex(),
        createHmac("sha256", key).update(data).digest("hex"),
        `${keyLength}-byte key, ${length} bytes`,
      );
    }
    const text = "pad é ✓ 😀 ".repeat(50);
    assert.equal(
      hmac.mac(text).toHex(),
      createHmac("sha256", key).update(text).digest("hex"),
    );
  }
});
