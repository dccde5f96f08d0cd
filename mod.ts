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
  CONFIG_VARIABLES,
  ConfigError,
  configFromEnvironment,
  ESSENTIAL_TOOLS,
  loadConfig,
  READ_TOOLS,
  TOOL_NAMES,
  type ToolName,
  usage,
} from "./src/config.ts";
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
export {
  createServer,
  type CreateServerOptions,
  INSTRUCTIONS,
  RustpadMcpServer,
} from "./src/server.ts";
export { VERSION } from "./src/version.ts";

export { main };

if (import.meta.main) {
  Deno.exit(await main(Deno.args));
}
