// The hashes every write pays for: the mark of an edit (SHA-256 of the
// previous digest, the author and the operation) and its edit_id (an
// HMAC-SHA-256 of about 250 bytes, with its JSON and base64url), against
// node:crypto's for the same bytes.

import { createHash, createHmac } from "node:crypto";
import { chainDigest } from "../src/rustpad/_history_digest.ts";
import { TextOperation } from "../src/ot/operation.ts";
import { EditIds } from "../src/safety/edit_ids.ts";
import { HmacSha256, sha256 } from "../src/digest/mod.ts";

const AUTHOR = 18446744073709551615n;
const operation = TextOperation.fromJSON([12345, "a line\n"]);
const mark = `\n${AUTHOR}\n${JSON.stringify(operation)}`;
const key = new Uint8Array(32).fill(7);
const ids = new EditIds(key);
const ref = {
  identity: "agent-1",
  padId: "bench-append",
  revision: 1234,
  author: String(AUTHOR),
  lineage: "Xq3hXq3hXq3hXq3hXq3hXq",
  operation: "b7Rkb7Rkb7Rkb7Rkb7Rkb7",
};
const message = "x".repeat(250);
const hmac = new HmacSha256(key);

Deno.bench(
  "sha256 of an edit's mark",
  { group: "mark", baseline: true },
  () => {
    sha256(mark);
  },
);
Deno.bench("node:crypto sha256 of the same", { group: "mark" }, () => {
  createHash("sha256").update(mark).digest();
});
Deno.bench("chainDigest (JSON, hash, base64url)", { group: "mark" }, () => {
  chainDigest("", AUTHOR, operation);
});
Deno.bench("HMAC of 250 bytes", { group: "hmac", baseline: true }, () => {
  hmac.mac(message);
});
Deno.bench("node:crypto HMAC of the same", { group: "hmac" }, () => {
  createHmac("sha256", key).update(message).digest();
});
Deno.bench(
  "edit_id issue (JSON, HMAC, base64url)",
  { group: "hmac" },
  async () => {
    await ids.issue(ref);
  },
);
