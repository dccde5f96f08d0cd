// How suggestions are shown, to people (the pad server's page, over its
// HTTP API) and to agents: views in UTF-16 hunks, ISO times, and the
// refusals of a decision that cannot be made.

import type { TextOperation } from "../ot/operation.ts";
import type { PadSession } from "../rustpad/session.ts";
import type { AddOutcome, SuggestionLimits } from "./suggestion_store.ts";
import type { SuggestionRecord } from "./_suggestion_record.ts";
import { viewOf } from "../rustpad/suggestion_views.ts";
import type {
  SuggestionDecision,
  SuggestionView,
} from "../rustpad/suggestion_views.ts";

export type {
  SuggestionDecision,
  SuggestionList,
  SuggestionView,
} from "../rustpad/suggestion_views.ts";
export { viewOf } from "../rustpad/suggestion_views.ts";

/** A decision not made, and why. */
export function refusal(
  kind: "missing" | "final",
  error: string,
  suggestion?: SuggestionView,
): SuggestionDecision {
  return {
    ok: false,
    kind,
    error,
    ...(suggestion !== undefined && { suggestion }),
  };
}

/** The refusal of a decision on a decided suggestion. */
export function finalRefusal(
  record: SuggestionRecord,
  verb: string,
): SuggestionDecision {
  return refusal(
    "final",
    `Cannot ${verb} suggestion "${record.id}" as it is ${record.status}${
      record.reason === undefined ? "" : ` (${record.reason})`
    }${
      record.decidedBy === undefined ? "" : ` by ${record.decidedBy}`
    }: current status is ${record.status}. A decision is final; nothing was changed`,
    viewOf(record, ""),
  );
}

/** What a write tool gives to hold its operation. */
export interface HoldRequest {
  /** The agent's identity. */
  readonly identity: string;
  /** The agent. */
  readonly agent: string;
  /** What it does. */
  readonly summary: string;
  /** The session the operation was built on, at its server text. */
  readonly session: PadSession;
  /** The operation, on the session's server text. */
  readonly operation: TextOperation;
  /** Its unified diff. */
  readonly diff: string;
  /** For a language change: the language (the operation changes nothing). */
  readonly language?: string;
}

/**
 * What a suggestion of `request` says, whoever keeps it: this process, or
 * the pad server's agent API.
 */
export function heldFields(request: HoldRequest): Omit<
  SuggestionRecord,
  "id" | "pad" | "status" | "createdAt" | "expiresAt"
> {
  const { session } = request;
  const info = session.users.get(session.userId);
  return {
    identity: request.identity,
    agent: request.agent,
    // The agent's name and colour as its connection announced them.
    author: { name: info?.name ?? "agent", hue: info?.hue ?? 0 },
    summary: request.summary,
    revision: session.revision,
    operation: request.operation.toJSON(),
    diff: request.diff,
    ...(request.language !== undefined && { language: request.language }),
  };
}

/** The pending record of `request`, made at `now`, expiring `ttlMs` later. */
export function heldRecord(
  request: HoldRequest,
  now: number,
  ttlMs: number,
): SuggestionRecord {
  return {
    id: `s${crypto.randomUUID().replaceAll("-", "").slice(0, 11)}`,
    pad: request.session.padId,
    ...heldFields(request),
    status: "pending",
    createdAt: now,
    expiresAt: now + ttlMs,
  };
}

/** The error of a suggestion over a bound, naming what to do. */
export function fullError(
  pad: string,
  added: Exclude<AddOutcome, "added">,
  limits: SuggestionLimits,
  identity: string,
): Error {
  const after =
    "Nothing was changed; withdraw some with withdraw_suggestion, wait for people to decide, or write without suggest";
  if (typeof added === "object") {
    const who = identity === ""
      ? "the unnamed identity"
      : `identity "${identity}"`;
    const [bound, per] = added.share === "pad"
      ? [limits.perPad, `pad, on pad "${pad}"`]
      : [limits.total, "server"];
    return new Error(
      `Cannot hold a suggestion for pad "${pad}" as ${who} holds its fair share: current share is ${added.of} of the ${bound} pending per ${per}, shared by ${added.identities} identities. ${after}`,
    );
  }
  const [limit, where] = added === "full"
    ? [limits.total, "this server"]
    : [limits.perPad, `pad "${pad}"`];
  return new Error(
    `Cannot hold a suggestion for pad "${pad}" as ${limit} suggestions are pending on ${where}: current limit is ${limit} per ${
      added === "full" ? "server" : "pad"
    }, each waiting up to RUSTPAD_SUGGEST_TTL. ${after}`,
  );
}

/** Listeners by pad, each told what happened on its pad. */
export class PadListeners<T> {
  readonly #listeners = new Map<string, Set<(value: T) => void>>();

  /** Listen on `pad`; returns the unsubscribe. */
  add(pad: string, listener: (value: T) => void): () => void {
    let listeners = this.#listeners.get(pad);
    if (listeners === undefined) {
      this.#listeners.set(pad, listeners = new Set());
    }
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
      if (listeners.size === 0) this.#listeners.delete(pad);
    };
  }

  /** Whether anyone listens on `pad`. */
  has(pad: string): boolean {
    return this.#listeners.has(pad);
  }

  /** Tell everyone listening on `pad`. */
  tell(pad: string, value: T): void {
    for (const listener of [...this.#listeners.get(pad) ?? []]) {
      try {
        listener(value);
      } catch {
        // A listener's failure is its own.
      }
    }
  }
}

/** The refusal of a decision on a suggestion the pad does not have. */
export function missing(
  pad: string,
  id: string,
  verb: string,
): SuggestionDecision {
  return refusal(
    "missing",
    `Cannot ${verb} suggestion "${id}" as pad "${pad}" has no such suggestion: current suggestions are listed by list_suggestions or GET /api/suggestions/${
      encodeURIComponent(pad)
    }`,
  );
}
