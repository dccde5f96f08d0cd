/**
 * The hashes the server computes on its hot paths, synchronously and without
 * `node:crypto` (whose load costs every start about 6 ms; per call these are as fast): SHA-256 for edit
 * marks, lineages and HMACs, SHA-1 for the WebSocket handshake, and a
 * constant-time comparison for MACs.
 *
 * @module
 */

export { Sha256, sha256 } from "./sha256.ts";
export { HmacSha256 } from "./hmac_sha256.ts";
export { sha1 } from "./sha1.ts";
export { equalInConstantTime } from "./constant_time.ts";
