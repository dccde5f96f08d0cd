// One suggestion held by the pad server, as pure functions: the record
// made from an agent's request, carried over the pad's later operations
// (outdated when they delete text it changes, or when the pad's history it
// was made on is gone), and the fair share of the bounds an identity may
// hold.

import { sha256 } from "../digest/mod.ts";
import { deletesOverlap } from "../ot/deletes.ts";
import { TextOperation } from "../ot/operation.ts";
import type { UserOperation } from "../rustpad/protocol.ts";
import {
  boundedView,
  entryOf,
  type SuggestionDecision,
  type SuggestionRecord,
  viewOf,
} from "../rustpad/suggestion_views.ts";
import type { PendingCounts } from "./agent_store.ts";

/** A record as the pad server keeps it: with the pad history it is on. */
export type Held = SuggestionRecord & {
  /** The pad's history the record's revision counts in. */
  readonly epoch: string;
};

/** The bounds on pending suggestions: 100 per pad, 1,000 in all. */
export interface HeldLimits {
  readonly perPad: number;
  readonly total: number;
}

/** The most a suggestion waits for a decision: a week. */
export const MAX_TTL_MS = 7 * 24 * 60 * 60 * 1000;

/** What the pad's history holds now, to carry records over. */
export interface PadHistory {
  readonly epoch: string;
  readonly revision: number;
  /** Operations `from`, `from + 1`, ... */
  since(from: number): readonly UserOperation[];
}

/**
 * `held` carried to `history`'s revision, or outdated with the reason.
 * A record of another history (the pad restarted) is outdated.
 */
export function carry(held: Held, history: PadHistory): Held {
  if (held.status !== "pending") return held;
  // Made on an empty pad, it fits any history; else only its own.
  const otherHistory = held.revision > 0 && held.epoch !== history.epoch;
  if (otherHistory || held.revision > history.revision) {
    return {
      ...held,
      status: "outdated",
      reason:
        `the pad restarted since it was made (revision ${held.revision}): the history it was made on is gone`,
    };
  }
  if (held.revision === history.revision) return held;
  let operation = TextOperation.fromJSON(held.operation);
  for (const [index, entry] of history.since(held.revision).entries()) {
    if (deletesOverlap(operation, entry.operation)) {
      return {
        ...held,
        status: "outdated",
        reason: `someone deleted text it changes (revision ${
          held.revision + index + 1
        })`,
      };
    }
    [operation] = operation.transform(entry.operation);
  }
  return { ...held, revision: history.revision, operation: operation.toJSON() };
}

/** `held` expired at `now` if it is pending past its time, else itself. */
export function expire(held: Held, now: number): Held {
  if (held.status !== "pending" || held.expiresAt > now) return held;
  return {
    ...held,
    status: "expired",
    reason: "no one decided it within RUSTPAD_SUGGEST_TTL",
    decidedAt: now,
  };
}

/** Whether a decided `held` has been kept long enough to forget at `now`. */
export function forgotten(held: Held, now: number): boolean {
  if (held.status === "pending") return false;
  const kept = held.expiresAt - held.createdAt;
  return (held.decidedAt ?? held.expiresAt) + kept < now;
}

/**
 * Why `identity` may not hold one more suggestion on `pad`, or
 * `undefined`: the bounds, then its fair share of each, as open pads are
 * shared: `floor(bound / identities)`, at least one, where `identities`
 * counts those holding pending suggestions, the asker, and as many as an
 * agent said share its server.
 */
export function refusal(
  pad: string,
  identity: string,
  counts: PendingCounts,
  limits: HeldLimits,
  declared: number,
): string | undefined {
  const after =
    "Nothing was changed; withdraw some with withdraw_suggestion, wait for people to decide, or write without suggest";
  if (counts.pad >= limits.perPad) {
    return `Cannot hold a suggestion for pad "${pad}" as ${limits.perPad} suggestions are pending there: current limit is ${limits.perPad} per pad, each waiting up to RUSTPAD_SUGGEST_TTL. ${after}`;
  }
  if (counts.total >= limits.total) {
    return `Cannot hold a suggestion for pad "${pad}" as ${limits.total} suggestions are pending on this pad server: current limit is ${limits.total} per server. ${after}`;
  }
  const sharing = new Set(counts.identities).add(identity).size;
  const identities = Math.max(declared, sharing);
  const padShare = Math.max(1, Math.floor(limits.perPad / identities));
  const totalShare = Math.max(1, Math.floor(limits.total / identities));
  const who = identity === ""
    ? "the unnamed identity"
    : `identity "${identity}"`;
  if (counts.padByIdentity >= padShare) {
    return `Cannot hold a suggestion for pad "${pad}" as ${who} holds its fair share there: current share is ${padShare} of the ${limits.perPad} pending per pad, shared by ${identities} identities. ${after}`;
  }
  if (counts.totalByIdentity >= totalShare) {
    return `Cannot hold a suggestion for pad "${pad}" as ${who} holds its fair share of the server: current share is ${totalShare} of the ${limits.total} pending per server, shared by ${identities} identities. ${after}`;
  }
  return undefined;
}

/**
 * `held` as kept once decided: no operation, its diff and hunks cut as
 * lists show them, so decided ones kept for the TTL cost little. A pending
 * one is itself.
 */
export function trimmed(held: Held): Held {
  if (held.status === "pending") return held;
  const { diff } = entryOf(held);
  const { hunks } = boundedView(viewOf(held, ""));
  return { ...held, operation: [], diff, hunks: [...hunks] };
}

/** The refusal to `verb` suggestion `id`: missing, or no longer pending. */
export function notPending(
  pad: string,
  id: string,
  verb: string,
  found: Held | undefined,
): SuggestionDecision {
  if (found === undefined) {
    return {
      ok: false,
      kind: "missing",
      error:
        `Cannot ${verb} suggestion "${id}" as pad "${pad}" has no such suggestion: current suggestions are listed by list_suggestions or GET /api/suggestions/${
          encodeURIComponent(pad)
        }`,
    };
  }
  return {
    ok: false,
    kind: "final",
    error: `Cannot ${verb} suggestion "${id}" as it is ${found.status}${
      found.reason === undefined ? "" : ` (${found.reason})`
    }${
      found.decidedBy === undefined ? "" : ` by ${found.decidedBy}`
    }: current status is ${found.status}. A decision is final; nothing was changed`,
    suggestion: viewOf(found, ""),
  };
}

/**
 * The name of a history, from its first operation (with its author): a
 * replayed log keeps it; a restart that starts over does not.
 */
export function historyName(first: unknown): string {
  return sha256(
    // The restored text's author is 2^64-1, a bigint.
    JSON.stringify(first ?? null, (_, v) => typeof v === "bigint" ? `${v}` : v),
  ).toBase64({ alphabet: "base64url", omitPadding: true });
}
