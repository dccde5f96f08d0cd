/**
 * What tests of an agent need: the Rustpad-compatible pad server (from
 * `src/pad_server/`) with its persistence and fault injection (slow frames,
 * dropped, stalled or late edits, late departures, a connection cut
 * mid-history, malformed frames, slow sockets), and a hostile server that
 * attacks its clients.
 *
 * ```ts
 * import { startPadServer } from "@rustpad-mcp/server/testing";
 * import assert from "node:assert/strict";
 *
 * const server = await startPadServer({ pads: { notes: { text: "hello" } } });
 * const response = await fetch(`${server.url}/api/text/notes`);
 * assert.equal(await response.text(), "hello");
 * await server.close();
 * ```
 *
 * @module
 */

export {
  PadServer,
  type PadServerOptions,
  startPadServer,
} from "../pad_server/pad_server.ts";
export type {
  CloseNextConnectOptions,
  DelayOptions,
  DropNextEditOptions,
  StallNextEditOptions,
} from "../pad_server/faults.ts";
export { FaultInjector } from "../pad_server/fault_injection.ts";
export {
  PadDatabase,
  type PadStorage,
  type PersistedPad,
} from "../pad_server/pad_database.ts";
export { SqlitePadDatabase } from "../pad_server/sqlite_pad_database.ts";
export type { WebSocketLimits } from "../pad_server/mod.ts";
export {
  type HostileMode,
  HostileServer,
  type HostileServerOptions,
  startHostileServer,
} from "./hostile_server.ts";
