// What a pad session tells its listeners (see `pad_state.ts`).

import type { LoggedOperation } from "./revision_log.ts";
import type { SessionError } from "./session_error.ts";
import type { UserId } from "./protocol.ts";

/** Something that changed in a pad, for `PadState.subscribe`. */
export type SessionEvent =
  | { readonly type: "operation"; readonly entry: LoggedOperation }
  | { readonly type: "users" }
  | { readonly type: "cursor"; readonly id: UserId }
  | { readonly type: "language"; readonly language: string }
  | { readonly type: "closed"; readonly error: SessionError | undefined };

/** Receives {@linkcode SessionEvent}s. */
export type SessionListener = (event: SessionEvent) => void;
