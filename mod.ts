/**
 * rustpad-mcp: an MCP server that lets an AI agent read and edit pads on a
 * Rustpad server as real, concurrent-safe OT operations, plus the pieces it
 * is built from (the operation type, the HTTP client, the socket session).
 *
 * @module
 */

import { main } from "./src/cli.ts";

export { type Component, TextOperation } from "./src/operation.ts";
export { TextBuffer } from "./src/text_buffer.ts";
export {
  type LoggedOperation,
  REVISION_LOG_CAPACITY,
  RevisionLog,
} from "./src/revision_log.ts";
export {
  MAX_USERS,
  PadState,
  type SessionEvent,
  type SessionListener,
} from "./src/pad_state.ts";
export {
  checkPadId,
  MAX_PAD_ID_LENGTH,
  PAD_ID_PATTERN,
  PAD_ID_RULE,
} from "./src/pad_id.ts";
export { apiUrl, editorUrl, parseBaseUrl, socketUrl } from "./src/urls.ts";
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
} from "./src/protocol.ts";
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
} from "./src/client_state.ts";
export {
  type Acknowledgement,
  PadSession,
  type PadSessionOptions,
} from "./src/session.ts";
export {
  EditNotAcknowledgedError,
  SessionError,
  type SessionErrorKind,
} from "./src/session_error.ts";
export {
  appendOperation,
  findOccurrences,
  replaceAllOperation,
  replaceOperation,
} from "./src/edits.ts";
export {
  type AdoptListener,
  type EditOutcome,
  SessionPool,
  type SessionPoolOptions,
} from "./src/session_pool.ts";
export {
  type HttpClientOptions,
  RustpadHttpClient,
  RustpadHttpError,
  type RustpadHttpErrorKind,
  type RustpadStats,
} from "./src/http_client.ts";
export {
  type Config,
  configFromEnvironment,
  loadConfig,
} from "./src/config.ts";
export { ConfigError } from "./src/config_error.ts";
export { CONFIG_VARIABLES, type ConfigVariable, usage } from "./src/usage.ts";
export {
  ESSENTIAL_TOOLS,
  READ_TOOLS,
  TOOL_NAMES,
  type ToolName,
} from "./src/tool_names.ts";
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
} from "./src/confirmation.ts";
export { type FenceOptions, fenceUntrusted } from "./src/untrusted.ts";
export { pageText, type TextPage } from "./src/paging.ts";
export {
  countLines,
  LineIndex,
  type LineWindow,
  MAX_LINE_LENGTH,
  readLines,
  showLine,
} from "./src/lines.ts";
export {
  compilePattern,
  type SearchMatch,
  type SearchOptions,
  type SearchResult,
  searchText,
} from "./src/search.ts";
export { SEARCH_TIME_LIMIT_MS, searchBounded } from "./src/bounded_search.ts";
export {
  type BatchEdit,
  BatchEditError,
  type LineEdit,
  type LocatedBatch,
  type LocatedChange,
  locateEdits,
  type StringEdit,
} from "./src/batch_edits.ts";
export { type Diff, type DiffOptions, unifiedDiff } from "./src/diff.ts";
export {
  type AuthoredOperation,
  type Conflict,
  type EditRange,
  findConflicts,
} from "./src/conflicts.ts";
export {
  fingerprint,
  IdempotencyKeyReusedError,
  IdempotencyStore,
  type IdempotencyStoreOptions,
  type IdempotentOutcome,
} from "./src/idempotency.ts";
export { Backend, type BackendOptions, createBackend } from "./src/backend.ts";
export {
  type HttpServer,
  type HttpServerOptions,
  serveHttp,
} from "./src/http_server.ts";
export {
  createServer,
  type CreateServerOptions,
  INSTRUCTIONS,
  type McpTransport,
  RustpadMcpServer,
} from "./src/server.ts";
export { VERSION } from "./src/version.ts";
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
} from "./src/presence.ts";
export {
  type LiveEvent,
  LivePads,
  type PadWatcher,
  type PersonPresence,
} from "./src/live_pads.ts";
export {
  DEFAULT_LOG_LEVEL,
  LOGGER_NAME,
  type LogLevel,
  type LogMessage,
  type LogSink,
  OperatorLog,
} from "./src/logging.ts";
export { UNDO_DEPTH, UndoHistory, type UndoSession } from "./src/undo.ts";

export { main };

if (import.meta.main) {
  Deno.exit(await main(Deno.args));
}
