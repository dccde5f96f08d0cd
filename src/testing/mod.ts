/**
 * Test helpers: a Rustpad-compatible pad server in memory that matches the
 * real server frame for frame, with an in-memory stand-in for its
 * persistence and fault injection (slow frames, dropped edits, a connection
 * cut mid-history, malformed frames).
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
  type CloseNextConnectOptions,
  type DropNextEditOptions,
  PadServer,
  type PadServerOptions,
  startPadServer,
} from "./pad_server.ts";
export { PadDatabase, type PersistedPad } from "./pad_database.ts";
