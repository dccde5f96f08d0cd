/**
 * rustpad-mcp: an MCP server that lets an AI agent read and edit pads on a
 * Rustpad server as real, concurrent-safe OT operations, plus the pieces it
 * is built from (the operation type, the HTTP client, the socket session).
 *
 * @module
 */

import { main } from "./src/cli/cli.ts";

export type { Component } from "./src/ot/component.ts";
export { TextOperation } from "./src/ot/operation.ts";
export { TextBuffer } from "./src/ot/text_buffer.ts";
export {
  type LoggedOperation,
  REVISION_LOG_CAPACITY,
  RevisionLog,
} from "./src/rustpad/revision_log.ts";
export {
  MAX_USERS,
  PadState,
  type SessionEvent,
  type SessionListener,
} from "./src/rustpad/pad_state.ts";
export {
  checkPadId,
  MAX_PAD_ID_LENGTH,
  PAD_ID_PATTERN,
  PAD_ID_RULE,
} from "./src/rustpad/pad_id.ts";
export {
  apiUrl,
  editorUrl,
  parseBaseUrl,
  socketUrl,
} from "./src/rustpad/urls.ts";
export {
  type ClientMessage,
  type CursorData,
  encodeMessage,
  MAX_TEXT_LENGTH,
  parseClientMessage,
  parseServerMessage,
  PERSISTED_USER_ID,
  type ServerMessage,
  type UserId,
  type UserInfo,
  type UserOperation,
} from "./src/rustpad/protocol.ts";
export {
  applyClient,
  applyServer,
  type AwaitingConfirm,
  type AwaitingWithBuffer,
  type ClientState,
  type EditToSend,
  serverAck,
  type Synchronized,
  synchronized,
  type Transition,
} from "./src/ot/client_state.ts";
export {
  type Acknowledgement,
  PadSession,
  type PadSessionOptions,
} from "./src/rustpad/session.ts";
export {
  EditNotAcknowledgedError,
  SessionError,
  type SessionErrorKind,
} from "./src/rustpad/session_error.ts";
export {
  appendOperation,
  findOccurrences,
  replaceAllOperation,
  replaceOperation,
} from "./src/text/edits.ts";
export {
  type AdoptListener,
  type EditOutcome,
  SessionPool,
  type SessionPoolOptions,
} from "./src/rustpad/session_pool.ts";
export {
  type HttpClientOptions,
  RustpadHttpClient,
  RustpadHttpError,
  type RustpadHttpErrorKind,
  type RustpadStats,
} from "./src/rustpad/http_client.ts";
export {
  type Config,
  configFromEnvironment,
  loadConfig,
} from "./src/config/config.ts";
export { ConfigError } from "./src/config/config_error.ts";
export {
  CONFIG_VARIABLES,
  type ConfigVariable,
  usage,
} from "./src/config/usage.ts";
export {
  ESSENTIAL_TOOLS,
  READ_TOOLS,
  TOOL_NAMES,
  type ToolName,
} from "./src/config/tool_names.ts";
export {
  type ConfirmationContext,
  ConfirmationError,
  ConfirmationGuard,
  type ConfirmationGuardOptions,
  type ConfirmationOutcome,
  type ConfirmationReason,
  type ConfirmationRequest,
  type ConfirmationSchema,
  type ElicitAnswer,
  type ElicitConfirm,
} from "./src/safety/confirmation.ts";
export { type FenceOptions, fenceUntrusted } from "./src/safety/untrusted.ts";
export { pageText, type TextPage } from "./src/text/paging.ts";
export {
  countLines,
  LineIndex,
  type LineWindow,
  MAX_LINE_LENGTH,
  readLines,
  showLine,
} from "./src/text/lines.ts";
export {
  compilePattern,
  type SearchMatch,
  type SearchOptions,
  type SearchResult,
  searchText,
} from "./src/text/search.ts";
export {
  SEARCH_TIME_LIMIT_MS,
  searchBounded,
} from "./src/text/bounded_search.ts";
export {
  type BatchEdit,
  BatchEditError,
  type LineEdit,
  type LocatedBatch,
  type LocatedChange,
  locateEdits,
  type StringEdit,
} from "./src/text/batch_edits.ts";
export { type Diff, type DiffOptions, unifiedDiff } from "./src/text/diff.ts";
export {
  type AuthoredOperation,
  type Conflict,
  type EditRange,
  findConflicts,
} from "./src/safety/conflicts.ts";
export {
  fingerprint,
  IdempotencyKeyReusedError,
  IdempotencyStore,
  type IdempotencyStoreOptions,
  type IdempotentOutcome,
} from "./src/safety/idempotency.ts";
export {
  Backend,
  type BackendOptions,
  createBackend,
} from "./src/backend/backend.ts";
export {
  type HttpServer,
  type HttpServerOptions,
  serveHttp,
} from "./src/mcp/http_server.ts";
export {
  createServer,
  type CreateServerOptions,
  INSTRUCTIONS,
  type McpTransport,
  RustpadMcpServer,
} from "./src/mcp/server.ts";
export { VERSION } from "./src/config/version.ts";
export {
  caretAfter,
  changedRanges,
  type CodePointRange,
  describePeople,
  peopleInRanges,
  type PeopleInRangesOptions,
  type PersonCursors,
  type PersonInRange,
  positionsOf,
  rangesTouched,
  type TextPosition,
} from "./src/rustpad/presence.ts";
export {
  type LiveEvent,
  LivePads,
  type PadWatcher,
  type PersonPresence,
} from "./src/backend/live_pads.ts";
export {
  DEFAULT_LOG_LEVEL,
  LOGGER_NAME,
  type LogLevel,
  type LogMessage,
  type LogSink,
  OperatorLog,
} from "./src/backend/logging.ts";
export {
  UNDO_DEPTH,
  UndoHistory,
  type UndoSession,
} from "./src/rustpad/undo.ts";

export { main };

if (import.meta.main) {
  Deno.exit(await main(Deno.args));
}
