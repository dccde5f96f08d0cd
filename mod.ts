/**
 * rustpad-mcp: an MCP server that lets an AI agent read and edit pads on a
 * Rustpad server as real, concurrent-safe OT operations, plus the pieces it
 * is built from (the operation type, the HTTP client, the socket session).
 *
 * @module
 */

export { type Component, TextOperation } from "./src/operation.ts";
export { TextBuffer } from "./src/text_buffer.ts";
export { checkPadId, MAX_PAD_ID_LENGTH } from "./src/pad_id.ts";
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
