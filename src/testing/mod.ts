/**
 * Test helpers: a Rustpad-compatible pad server in memory that matches the
 * real server frame for frame, with an in-memory stand-in for its
 * persistence, the real server's 16-message metadata queue, and fault
 * injection (slow frames, dropped, stalled or late edits, late departures,
 * a connection cut mid-history, malformed frames, slow sockets).
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
export { PadDatabase, type PersistedPad } from "./pad_database.ts";
export {
  type HostileMode,
  HostileServer,
  type HostileServerOptions,
  startHostileServer,
} from "./hostile_server.ts";
