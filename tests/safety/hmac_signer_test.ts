// The signer behind confirm tokens and edit ids: its MACs are
// HMAC-SHA-256 exactly, whatever the length of the secret, and its
// base64url is the unpadded URL alphabet.

import assert from "node:assert/strict";
import { createHmac } from "node:crypto";
import { HmacSigner, toBase64Url } from "../../src/safety/_confirm_token.ts";

Deno.test("`HmacSigner.sign()` is HMAC-SHA-256 of the label and text, for secrets shorter and longer than a block", async () => {
  for (const length of [32, 64, 100]) {
    const secret = crypto.getRandomValues(new Uint8Array(length));
    const signer = new HmacSigner(secret);
    for (const text of ["", "a", "pad é ✓ ".repeat(40)]) {
      const expected = createHmac("sha256", secret).update(`label:${text}`)
        .digest();
      assert.equal(await signer.sign("label:", text), toBase64Url(expected));
      assert.ok(
        await signer.verify("label:", text, toBase64Url(expected)),
        `${length}-byte secret`,
      );
    }
  }
});

Deno.test("`toBase64Url()` is base64 with - and _ and no padding", () => {
  for (let length = 0; length < 40; length++) {
    const bytes = crypto.getRandomValues(new Uint8Array(length));
    const base64 = btoa(String.fromCharCode(...bytes));
    assert.equal(
      toBase64Url(bytes),
      base64.replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, ""),
    );
  }
});
