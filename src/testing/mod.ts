/**
 * Test helpers: a Rustpad-compatible pad server that matches the real
 * server frame for frame and serves a web editor at every path outside
 * `/api/`; its persistence in memory or in SQLite; the real server's
 * 16-message metadata queue; and fault injection (slow frames, dropped,
 * stalled or late edits, late departures, a connection cut mid-history,
 * malformed frames, slow sockets).
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
} from "./pad_server.ts";
export type {
  CloseNextConnectOptions,
  DelayOptions,
  DropNextEditOptions,
  StallNextEditOptions,
} from "./faults.ts";
export { FaultInjector } from "./fault_injection.ts";
export {
  PadDatabase,
  type PadStorage,
  type PersistedPad,
} from "./pad_database.ts";
export { SqlitePadDatabase } from "./sqlite_pad_database.ts";
export {
  type HostileMode,
  HostileServer,
  type HostileServerOptions,
  startHostileServer,
} from "./hostile_server.ts";
