/**
 * What one process shares among its MCP sessions: the pad connections,
 * live state per pad (people, watchers, undo), the operator log and the
 * confirmation guard. Imports every layer below the tools.
 *
 * @module
 */

export {
  Backend,
  type BackendOptions,
  createBackend,
  MAX_READ_PADS,
} from "./backend.ts";
export { BackendDesk } from "./backend_desk.ts";
export { RecentPads } from "./recent_pads.ts";
export {
  UPSTREAM_PROBE_MS,
  UpstreamHealth,
  type UpstreamStatus,
} from "./upstream_health.ts";
export {
  type AuthorLedger,
  AuthorsInMemory,
  type IdempotencyLedger,
  type KeyedCall,
  type KeyedRunOptions,
  MAX_AUTHOR_RECORDS,
  MemoryState,
  type SentEdit,
  type StateHealth,
  type StateStore,
  StateUnreachableError,
} from "./state_store.ts";
export {
  type ChangeListener,
  type DecisionListener,
  type HoldRequest,
  SUGGESTION_LIMITS,
  SuggestionBook,
  type SuggestionBookOptions,
  type SuggestionDecision,
  type SuggestionEntry,
  type SuggestionHunk,
  type SuggestionList,
  type SuggestionRecord,
  type Suggestions,
  type SuggestionStatus,
  type SuggestionView,
} from "./suggestions.ts";
export {
  type AddOutcome,
  type ShareReached,
  type SuggestionLimits,
  type SuggestionOwner,
  SuggestionsInMemory,
  type SuggestionStore,
} from "./suggestion_store.ts";
export { openStateStore, type StateStoreOptions } from "./open_state.ts";
export {
  type LiveEvent,
  LivePads,
  type LivePadsOptions,
  type PadWatcher,
  type PersonPresence,
} from "./live_pads.ts";
export {
  DEFAULT_LOG_LEVEL,
  LOGGER_NAME,
  type LogLevel,
  type LogMessage,
  type LogSink,
  OperatorLog,
} from "./logging.ts";
