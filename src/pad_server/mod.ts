/**
 * The Rustpad-compatible pad server, a product part: it matches the real
 * server frame for frame, serves a web editor at every path outside
 * `/api/`, keeps each pad's operation log in memory or in SQLite (every
 * operation stored before it is acknowledged), keeps the real server's
 * 16-message metadata queue, and takes injected faults (slow frames,
 * dropped, stalled or late edits, late departures, a connection cut
 * mid-history, malformed frames, slow sockets). `rustpad-mcp pad-server`
 * runs it as the pads' home, a process of its own that `--embedded` starts
 * and joins; agents present `agent.secret` (see {@linkcode agentSecret}) to
 * be shown to people as agents.
 *
 * ```ts
 * import { startPadServer } from "./mod.ts";
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
  type CloseReport,
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
export {
  AGENT_SECRET_FILE,
  agentSecret,
  presentsAgentSecret,
} from "./agent_secret.ts";
export {
  type AgentStore,
  type AuthorRecord,
  MAX_AUTHORS_PER_PAD,
  MemoryAgentStore,
  type PendingCounts,
  type StoredSuggestion,
} from "./agent_store.ts";
export { SqliteAgentStore } from "./sqlite_agent_store.ts";
export {
  SqlitePadDatabase,
  type SqlitePadDatabaseOptions,
  type SyncMode,
} from "./sqlite_pad_database.ts";
export {
  isPadStore,
  type LoggedOperation,
  MemoryPadStore,
  type OperationAuthor,
  type PadStore,
  type PadWrite,
  replayLog,
  restartLog,
  type StoredPad,
  type StoreFailure,
} from "./pad_store.ts";
export type { WebSocketLimits } from "../http/mod.ts";
export type {
  SuggestionDecision,
  SuggestionDesk,
  SuggestionHunk,
  SuggestionList,
  SuggestionStatus,
  SuggestionView,
} from "./suggestion_desk.ts";
