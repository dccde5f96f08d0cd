// What a confirmation is about and how it can end: the request a
// destructive tool makes, the person's answer, the outcome, why a token was
// refused, and the words for each. The guard in confirmation.ts decides;
// mod.ts exports the public types from there.

import type { TokenClaims } from "./_confirm_token.ts";

/** Options for `ConfirmationGuard`. */
export interface ConfirmationGuardOptions {
  /**
   * How long a token stays valid, in milliseconds: a positive integer.
   *
   * @default {600000}
   */
  ttlMs?: number;
  /**
   * The clock, in milliseconds since the epoch; inject one in tests.
   *
   * @default {Date.now}
   */
  now?: () => number;
  /**
   * The HMAC key, at least 32 bytes; copied. Tokens from a guard with
   * another secret are refused as forged.
   *
   * @default {32 random bytes per guard}
   */
  secret?: Uint8Array;
  /**
   * Where redeemed tokens are remembered: replicas that share one (a Redis)
   * refuse a token any of them redeemed, even at the same moment.
   *
   * @default {a record in this guard's memory}
   */
  usedTokens?: UsedTokens;
}

/**
 * The record of redeemed tokens, by nonce. `use` must be atomic (set if
 * absent): of two calls with one nonce, however concurrent, one gets `true`.
 */
export interface UsedTokens {
  /** Whether `nonce` was redeemed already (a hint; `use` decides). */
  has(nonce: string): Promise<boolean> | boolean;
  /**
   * Mark `nonce` used until `expiresAt` (ms since the epoch).
   *
   * @returns `true` if it was not used before, `false` if it was.
   * @throws {Error} If the record cannot be reached; the token stays unused.
   */
  use(nonce: string, expiresAt: number): Promise<boolean> | boolean;
}

/** What a destructive call asks a person to confirm. */
export interface ConfirmationRequest {
  /**
   * The caller's identity (a named bearer token; `""` or left out: the
   * unnamed one): a token issued to one identity is refused for another.
   */
  identity?: string;
  /** The tool that would write, such as `set_document`. */
  tool: string;
  /** The pad it would write to. */
  padId: string;
  /**
   * The exact arguments the token binds, JSON values only (plain objects,
   * arrays, strings, finite numbers, booleans, `null`; `undefined` object
   * properties are left out), without `confirm_token`. Key order does not
   * matter.
   */
  binding: unknown;
  /** The current pad text the write would destroy; bound by SHA-256. */
  content: string;
  /**
   * The pad's revision that `content` is the text of. Any later edit moves
   * it for good, which makes a redeemed token dead on every replica.
   */
  revision: number;
  /**
   * One or two sentences for the person: the pad, its current length and,
   * for replacements, the count. Never pad text.
   */
  message: string;
}

/** The answer of a form elicitation, as the client returns it. */
export interface ElicitAnswer {
  /** What the person did with the form. */
  action: "accept" | "decline" | "cancel";
  /** The form's fields, on `accept`. */
  content?: Record<string, unknown> | undefined;
}

/**
 * Ask the person through a form elicitation with
 * `ConfirmationGuard.requestedSchema` and `message`.
 */
export type ElicitConfirm = (message: string) => Promise<ElicitAnswer>;

/** The result of `ConfirmationGuard.check`. */
export type ConfirmationOutcome =
  | {
    /** Proceed with the write. */
    status: "confirmed";
  }
  | {
    /** Do not write: the person declined, cancelled or answered no. */
    status: "declined";
    /** Which of those happened, and that nothing changed. */
    message: string;
  }
  | {
    /** Do not write: a person must agree and the call be repeated. */
    status: "confirmation_required";
    /** The token to pass back as `confirm_token`. */
    confirm_token: string;
    /** How long the token stays valid. */
    expires_in_seconds: number;
    /** What to do: ask the person, then call again with the token. */
    message: string;
  };

/** Why a token was refused. */
export type ConfirmationReason =
  | "malformed"
  | "forged"
  | "altered"
  | "expired"
  | "reused"
  | "mismatched";

/**
 * A `confirm_token` that cannot be redeemed. The message says why and what
 * to do next, for a model to act on.
 *
 * @example Telling reasons apart
 * ```ts
 * import { ConfirmationError, ConfirmationGuard } from "../mod.ts";
 * import assert from "node:assert/strict";
 *
 * const guard = new ConfirmationGuard();
 * const request = {
 *   tool: "set_document",
 *   padId: "notes",
 *   binding: { text: "new" },
 *   content: "old",
 *   revision: 1,
 *   message: 'Replace all 3 characters of pad "notes"?',
 * };
 * await assert.rejects(
 *   guard.check(request, { token: "abc" }),
 *   (error) => error instanceof ConfirmationError && error.reason === "malformed",
 * );
 * ```
 */
export class ConfirmationError extends Error {
  /** Why the token was refused. */
  readonly reason: ConfirmationReason;

  /**
   * Make an error for one reason.
   *
   * @param reason Why the token was refused.
   * @param message What went wrong and what to do next.
   */
  constructor(reason: ConfirmationReason, message: string) {
    super(message);
    this.name = "ConfirmationError";
    this.reason = reason;
  }
}

/** How `ConfirmationGuard.check` finds the person's answer. */
export interface ConfirmationContext {
  /** The `confirm_token` the caller passed, if any; it wins over `elicit`. */
  token?: string | undefined;
  /** Asks through a form elicitation, when the client supports it. */
  elicit?: ElicitConfirm | undefined;
}

/** The form `ConfirmationGuard.requestedSchema` describes. */
export interface ConfirmationSchema {
  /** Always an object. */
  readonly type: "object";
  /** The single field. */
  readonly properties: {
    /** The person's answer. */
    readonly confirm: {
      /** A checkbox. */
      readonly type: "boolean";
      /** Its label. */
      readonly title: string;
      /** Its help text. */
      readonly description: string;
    };
  };
  /** `confirm` must be answered. */
  readonly required: ["confirm"];
}

/** The form to elicit; `ConfirmationGuard.requestedSchema` is this. */
export const CONFIRMATION_SCHEMA: ConfirmationSchema = {
  type: "object",
  properties: {
    confirm: {
      type: "boolean",
      title: "Confirm",
      description:
        "Check to let the AI agent make this change; leave unchecked to keep the pad as it is.",
    },
  },
  required: ["confirm"],
};

/** A duration in the largest whole unit, for messages. */
export function describeDuration(ms: number): string {
  const seconds = Math.floor(ms / 1000);
  if (seconds >= 60 && seconds % 60 === 0) {
    const minutes = seconds / 60;
    return `${minutes} minute${minutes === 1 ? "" : "s"}`;
  }
  if (seconds >= 1) return `${seconds} second${seconds === 1 ? "" : "s"}`;
  return `${ms} ms`;
}

/** The outcome of a dialog that did not end in "yes". */
export function declined(
  request: ConfirmationRequest,
  action: ElicitAnswer["action"],
): ConfirmationOutcome {
  const what = `${request.tool} on pad ${JSON.stringify(request.padId)}`;
  let message: string;
  if (action === "accept") {
    message =
      `The person answered no to ${what}; nothing was changed. Do not try again unless they ask for it.`;
  } else if (action === "decline") {
    message =
      `The person declined ${what}; nothing was changed. Do not try again unless they ask for it.`;
  } else {
    message =
      `The person dismissed the confirmation for ${what} without answering; nothing was changed. Ask them before trying again.`;
  }
  return { status: "declined", message };
}

/** The error for a token that cannot be trusted at all. */
export function unreadableToken(
  status: "malformed" | "unreadable" | "forged" | "altered",
  tool: string,
): ConfirmationError {
  const fresh = `call ${tool} again without confirm_token for a fresh one`;
  switch (status) {
    case "malformed":
      return new ConfirmationError(
        "malformed",
        `Cannot accept confirm_token as it is malformed: pass back exactly the confirm_token string of a confirmation_required result, or ${fresh}`,
      );
    case "unreadable":
      return new ConfirmationError(
        "malformed",
        `Cannot accept confirm_token as its contents cannot be read: ${fresh}`,
      );
    case "altered":
      return new ConfirmationError(
        "altered",
        `Cannot accept confirm_token as it was changed after this server issued it: pass it back exactly as given, or ${fresh}`,
      );
    case "forged":
      return new ConfirmationError(
        "forged",
        `Cannot accept confirm_token as this server did not issue it: it is forged, damaged beyond recognition, or from before the server restarted; ${fresh}`,
      );
  }
}

/**
 * The error for a genuine, unexpired, unused token issued to another
 * identity, or for another tool, pad, arguments, content or revision; `undefined` if it matches.
 */
export function mismatched(
  payload: TokenClaims,
  request: ConfirmationRequest,
  bindingDigest: string,
  contentDigest: string,
): ConfirmationError | undefined {
  const { tool } = request;
  const fresh = `call ${tool} again without confirm_token for a fresh one`;
  if (payload.i !== (request.identity ?? "")) {
    return new ConfirmationError(
      "mismatched",
      `Cannot accept confirm_token as it was issued to another identity: a token confirms only the calls of the bearer token it was issued to; ${fresh}`,
    );
  }
  if (payload.t !== tool) {
    return new ConfirmationError(
      "mismatched",
      `Cannot accept confirm_token as it was issued for another tool: it confirms ${
        JSON.stringify(payload.t)
      }, not ${JSON.stringify(tool)}; ${fresh}`,
    );
  }
  if (payload.p !== request.padId) {
    return new ConfirmationError(
      "mismatched",
      `Cannot accept confirm_token as it was issued for another pad: it confirms pad ${
        JSON.stringify(payload.p)
      }, not pad ${JSON.stringify(request.padId)}; ${fresh}`,
    );
  }
  if (payload.a !== bindingDigest) {
    return new ConfirmationError(
      "mismatched",
      `Cannot accept confirm_token as the arguments differ from the ones it was issued for: call ${tool} again with exactly the same arguments plus confirm_token, or without confirm_token for a fresh confirmation`,
    );
  }
  if (payload.c !== contentDigest) {
    return new ConfirmationError(
      "mismatched",
      `Cannot accept confirm_token as the pad changed since the confirmation was issued: pad ${
        JSON.stringify(request.padId)
      } no longer holds the text the person agreed to change; ${fresh}, and ask the person again`,
    );
  }
  if (payload.r !== request.revision) {
    return new ConfirmationError(
      "mismatched",
      `Cannot accept confirm_token as the pad changed since the confirmation was issued: pad ${
        JSON.stringify(request.padId)
      } is at revision ${request.revision}, not ${payload.r} (someone edited it, or this token was already used); ${fresh}, and ask the person again`,
    );
  }
  return undefined;
}
