/**
 * rustpad-mcp: an MCP server that lets an AI agent read and edit pads on a
 * Rustpad server beside the people typing in them. Three ways to use it:
 *
 * - **Run it**: `deno run -A jsr:@rustpad-mcp/server [--embedded]`, or
 *   {@linkcode main} from a program (the command line, exit code and all).
 * - **Compile it**: `deno task compile` in a clone makes one binary of this
 *   module; it runs {@linkcode main}.
 * - **Import it**: {@linkcode createServer} for the MCP server on any
 *   transport, {@linkcode serveStdio} and {@linkcode serveHttp} for ours,
 *   {@linkcode createBackend} for the state agents share, with
 *   {@linkcode BackendDesk} to let a pad server's page (from
 *   `@rustpad-mcp/server/pad-server`) decide their suggestions; and
 *   {@linkcode PadSession}, {@linkcode RustpadHttpClient} and
 *   {@linkcode TextOperation} to edit a pad yourself.
 *
 * The pad server is `@rustpad-mcp/server/pad-server`, test doubles are
 * `@rustpad-mcp/server/testing`. See docs/library.md.
 *
 * @module
 */

import { main } from "./src/cli/mod.ts";

export {
  type Config,
  configFromEnvironment,
  loadConfig,
  VERSION,
} from "./src/config/mod.ts";
export { Backend, BackendDesk, createBackend } from "./src/backend/mod.ts";
export {
  createServer,
  type HttpServer,
  type HttpServerOptions,
  RustpadMcpServer,
  serveHttp,
  serveStdio,
} from "./src/mcp/mod.ts";
export { PadSession, RustpadHttpClient } from "./src/rustpad/mod.ts";
export { TextOperation } from "./src/ot/mod.ts";
export { main };
// Types the ones above mention (JSR documents every type a public one
// names); they add no values to the package.
export type {
  Acknowledgement,
  AddOutcome,
  AdoptListener,
  AuthorLedger,
  BackendOptions,
  ChangeListener,
  Component,
  ConfirmationContext,
  ConfirmationGuard,
  ConfirmationOutcome,
  ConfirmationRequest,
  CreateServerOptions,
  CursorData,
  DecisionListener,
  DeferredInverses,
  EditIds,
  EditMark,
  EditOutcome,
  EditRef,
  ElicitAnswer,
  ElicitConfirm,
  HoldRequest,
  IdempotencyLedger,
  IdempotentOutcome,
  KeyedCall,
  KeyedRunOptions,
  LoggedOperation,
  McpTransport,
  NextOperation,
  PadRestart,
  PadSlots,
  PadUser,
  RecentPads,
  RustpadStats,
  SentEdit,
  SessionError,
  SessionErrorKind,
  SessionEvent,
  SessionListener,
  SessionPool,
  ShareReached,
  SlotHolder,
  StateHealth,
  StateStore,
  SuggestionBook,
  SuggestionDecision,
  SuggestionEntry,
  SuggestionHunk,
  SuggestionLimits,
  SuggestionList,
  SuggestionOwner,
  SuggestionRecord,
  Suggestions,
  SuggestionStatus,
  SuggestionStore,
  SuggestionView,
  TextBuffer,
  TextLines,
  TextLocator,
  TextPlace,
  TextWindow,
  ToolName,
  UpstreamHealth,
  UpstreamStatus,
  UsedTokens,
  UserId,
  UserInfo,
} from "./src/mod.ts";

if (import.meta.main) {
  Deno.exit(await main(Deno.args));
}
