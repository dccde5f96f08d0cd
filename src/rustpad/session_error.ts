/**
 * How a pad session fails, in a form callers can act on: what went wrong,
 * and for an edit without acknowledgement, whether it may have landed.
 *
 * @module
 */

import type { UserId } from "./protocol.ts";

/** What went wrong with a session. */
export type SessionErrorKind =
  | "unreachable"
  | "timeout"
  | "closed"
  | "malformed";

/**
 * A session failed: the server could not be reached, a wait timed out, the
 * connection closed, or the server sent a frame that breaks the protocol.
 *
 * @example
 * ```ts
 * import { SessionError } from "../mod.ts";
 * import assert from "node:assert/strict";
 *
 * const error = new SessionError("timeout", "Rustpad did not answer within 10 ms");
 * assert.equal(error.kind, "timeout");
 * ```
 */
export class SessionError extends Error {
  /** What went wrong. */
  readonly kind: SessionErrorKind;

  /**
   * Make an error of one kind.
   *
   * @param kind What went wrong.
   * @param message One sentence for a person or a model.
   * @param options The underlying cause, if any.
   */
  constructor(
    kind: SessionErrorKind,
    message: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.name = "SessionError";
    this.kind = kind;
  }
}

/**
 * An edit whose acknowledgement never came. When `sent` is false it never
 * left this process, so it did not land. When `sent` is true it may have
 * landed: it did exactly if a later look at the pad's history finds an
 * operation by `userId` at or after `revision`
 * ({@linkcode PadSession.authorOf}).
 *
 * @example
 * ```ts
 * import { EditNotAcknowledgedError } from "../mod.ts";
 * import assert from "node:assert/strict";
 *
 * const error = new EditNotAcknowledgedError("closed", "Rustpad closed the connection", {
 *   sent: true,
 *   userId: 3,
 *   revision: 7,
 * });
 * assert.equal(error.revision, 7);
 * ```
 */
export class EditNotAcknowledgedError extends SessionError {
  /** Whether the edit was sent to the server. */
  readonly sent: boolean;
  /** The session's user id, the author id the edit would carry. */
  readonly userId: UserId;
  /** History operations the session had seen when it failed. */
  readonly revision: number;

  /**
   * Make an error for an edit that was not acknowledged.
   *
   * @param kind What went wrong.
   * @param message One sentence for a person or a model.
   * @param details Whether it was sent, by whom, and from which revision.
   * @param options The underlying cause, if any.
   */
  constructor(
    kind: SessionErrorKind,
    message: string,
    details: { sent: boolean; userId: UserId; revision: number },
    options?: ErrorOptions,
  ) {
    super(kind, message, options);
    this.name = "EditNotAcknowledgedError";
    this.sent = details.sent;
    this.userId = details.userId;
    this.revision = details.revision;
  }
}

/**
 * Opening a pad was refused: the pool holds its most sessions and each is
 * in use. Nothing was sent; trying again once one is released may work.
 *
 * @example
 * ```ts
 * import { OpenPadLimitError } from "./session_error.ts";
 * import assert from "node:assert/strict";
 *
 * const error = new OpenPadLimitError("notes", 5);
 * assert.match(error.message, /RUSTPAD_MAX_OPEN_PADS=5/);
 * assert.equal(error.limit, 5);
 * ```
 */
export class OpenPadLimitError extends RangeError {
  /** The pad that was not opened. */
  readonly padId: string;
  /** The most sessions the pool keeps open. */
  readonly limit: number;
  /** The identity's fair share of `limit`, when that was what ran out. */
  readonly share: number | undefined;

  /**
   * Make the error for `padId`.
   *
   * @param padId The pad that was not opened.
   * @param limit The pool's `maxOpen`, all in use.
   * @param shared The identity's share, all in use, and how many share.
   */
  constructor(
    padId: string,
    limit: number,
    shared?: { share: number; identities: number },
  ) {
    super(
      shared === undefined
        ? `Cannot open pad "${padId}" as this server already has the most pads open that RUSTPAD_MAX_OPEN_PADS=${limit} allows, each in use by a subscription, a wait or a call in flight: current count is ${limit}. Nothing was changed; try again once one ends (unsubscribe, or let a wait finish), or raise RUSTPAD_MAX_OPEN_PADS`
        : `Cannot open pad "${padId}" as this identity already has its fair share of ${shared.share} pads open (RUSTPAD_MAX_OPEN_PADS=${limit} shared by ${shared.identities} identities), each in use by a subscription, a wait or a call in flight: current count is ${shared.share}. Nothing was changed; try again once one of yours ends (unsubscribe, or let a wait finish)`,
    );
    this.name = "OpenPadLimitError";
    this.padId = padId;
    this.limit = limit;
    this.share = shared?.share;
  }
}
