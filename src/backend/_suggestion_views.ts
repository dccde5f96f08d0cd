// How suggestions are shown, to people (the pad server's page, over its
// HTTP API) and to agents: views in UTF-16 hunks, ISO times, and the
// refusals of a decision that cannot be made.

import type { PadSession } from "../rustpad/session.ts";
import type { AddOutcome, SuggestionLimits } from "./suggestion_store.ts";
import {
  hunksOf,
  type SuggestionHunk,
  type SuggestionRecord,
} from "./_suggestion_record.ts";

/** A suggestion as people and agents see it. */
export interface SuggestionView {
  /** Its id, opaque. */
  readonly id: string;
  /** Where it stands. */
  readonly status: SuggestionRecord["status"];
  /** The agent that made it. */
  readonly author: { name: string; hue: number; agent: boolean };
  /** What it does, by the agent: untrusted. */
  readonly summary: string;
  /** ISO 8601 time it was made. */
  readonly createdAt: string;
  /** ISO 8601 time a pending one expires. */
  readonly expiresAt: string;
  /** Its change, on the text at the list's revision (pending ones). */
  readonly hunks: readonly SuggestionHunk[];
  /** For a language change: the language it sets (and no hunks). */
  readonly language?: string;
  /** Why it is outdated, expired or withdrawn. */
  readonly reason?: string;
  /** Who accepted or rejected it. */
  readonly decidedBy?: string;
  /** ISO 8601 time of the decision. */
  readonly decidedAt?: string;
  /** The revision an accepted one landed as. */
  readonly landedRevision?: number;
}

/** A pad's suggestions at one revision, pending first. */
export interface SuggestionList {
  /** The pad revision pending hunks refer to. */
  readonly revision: number;
  /** Pending first, then decided ones. */
  readonly suggestions: readonly SuggestionView[];
  /** User ids of this server's connections to the pad. */
  readonly agentIds: readonly number[];
}

/** A decision's outcome. */
export type SuggestionDecision =
  | { readonly ok: true; readonly suggestion: SuggestionView }
  | {
    /** Not decided. */
    readonly ok: false;
    /** `missing`: no such suggestion; `final`: decided already. */
    readonly kind: "missing" | "final";
    /** What was wrong and what to do. */
    readonly error: string;
    /** As it stands. */
    readonly suggestion?: SuggestionView;
  };

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

/** How `record` is shown; a pending one's hunks on `text`. */
export function viewOf(record: SuggestionRecord, text: string): SuggestionView {
  const iso = (ms: number) => new Date(ms).toISOString();
  return {
    id: record.id,
    status: record.status,
    author: { ...record.author, agent: true },
    summary: record.summary,
    createdAt: iso(record.createdAt),
    expiresAt: iso(record.expiresAt),
    hunks: record.status === "pending"
      ? hunksOf(text, record.operation)
      : record.hunks ?? [],
    ...(record.language !== undefined && { language: record.language }),
    ...(record.reason !== undefined && { reason: record.reason }),
    ...(record.decidedBy !== undefined && { decidedBy: record.decidedBy }),
    ...(record.decidedAt !== undefined && { decidedAt: iso(record.decidedAt) }),
    ...(record.landedRevision !== undefined &&
      { landedRevision: record.landedRevision }),
  };
}

/** The agent's name and colour as its connection announced them. */
export function authorOf(session: PadSession): { name: string; hue: number } {
  const info = session.users.get(session.userId);
  return { name: info?.name ?? "agent", hue: info?.hue ?? 0 };
}

/** The error of a suggestion over a bound, naming what to do. */
export function fullError(
  pad: string,
  added: Exclude<AddOutcome, "added">,
  limits: SuggestionLimits,
): Error {
  const [limit, where] = added === "full"
    ? [limits.total, "this server"]
    : [limits.perPad, `pad "${pad}"`];
  return new Error(
    `Cannot hold a suggestion for pad "${pad}" as ${limit} suggestions are pending on ${where}: current limit is ${limit} per ${
      added === "full" ? "server" : "pad"
    }, each waiting up to RUSTPAD_SUGGEST_TTL. Nothing was changed; withdraw some with withdraw_suggestion, wait for people to decide, or write without suggest`,
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
