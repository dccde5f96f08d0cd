/**
 * The Rustpad client: the wire protocol, the HTTP API, one live socket
 * session per pad with its document state and revision log, the pool that
 * shares sessions and settles lost acknowledgements, where people are, and
 * undo records. Imports only the OT core.
 *
 * @module
 */

export {
  type LoggedOperation,
  type NextOperation,
  REVISION_LOG_CAPACITY,
  REVISION_LOG_MAX_TEXT,
  RevisionLog,
} from "./revision_log.ts";
export {
  PadState,
  type SessionEvent,
  type SessionListener,
} from "./pad_state.ts";
export {
  MAX_CURSORS,
  MAX_NAME_LENGTH,
  MAX_USERS,
  type PadUser,
} from "./_pad_people.ts";
export {
  checkPadId,
  MAX_PAD_ID_LENGTH,
  PAD_ID_PATTERN,
  PAD_ID_RULE,
  padIdProblem,
} from "./pad_id.ts";
export { apiUrl, editorUrl, parseBaseUrl, socketUrl } from "./urls.ts";
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
} from "./protocol.ts";
export {
  type Acknowledgement,
  PadSession,
  type PadSessionOptions,
} from "./session.ts";
export {
  EditNotAcknowledgedError,
  OpenPadLimitError,
  SessionError,
  type SessionErrorKind,
} from "./session_error.ts";
export { PadSlots, type SlotHolder } from "./pad_slots.ts";
export {
  type AdoptListener,
  DEFAULT_MAX_OPEN_PADS,
  type EditMark,
  type EditOutcome,
  type PadRestart,
  SessionPool,
  type SessionPoolOptions,
} from "./session_pool.ts";
export {
  type HttpClientOptions,
  RustpadHttpClient,
  RustpadHttpError,
  type RustpadHttpErrorKind,
  type RustpadStats,
} from "./http_client.ts";
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
} from "./presence.ts";
export { UNDO_DEPTH, UndoHistory, type UndoSession } from "./undo.ts";
export { undoOfEdit } from "./undo_edit.ts";
