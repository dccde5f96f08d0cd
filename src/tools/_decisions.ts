// What wait_for_change tells an agent of its suggestions: each decision
// (accepted, rejected, outdated, expired) once, and a wake-up when one is
// made, here or (with Redis) on another replica, found by a light poll.

import type { SuggestionEntry } from "../backend/suggestions.ts";
import type { ToolContext } from "./tool.ts";

/** A decision as wait_for_change reports it. */
export interface ReportedDecision {
  suggestion_id: string;
  status: SuggestionEntry["status"];
  decided_by?: string;
  landed_revision?: number;
  reason?: string;
}

/** How often a wait on a replica looks for decisions made elsewhere. */
const POLL_MS = 1000;
/** At most this many reported ids are remembered per agent. */
const MAX_REMEMBERED = 10_000;

/** The ids already reported, per agent (its context's opened pads). */
const reported = new WeakMap<object, Set<string>>();

function reportedTo(context: ToolContext): Set<string> {
  let ids = reported.get(context.openedPads);
  if (ids === undefined) reported.set(context.openedPads, ids = new Set());
  return ids;
}

/** The agent's decided suggestions on `padId` not reported yet. */
async function unreported(
  context: ToolContext,
  padId: string,
): Promise<SuggestionEntry[]> {
  const ids = reportedTo(context);
  const { records } = await context.backend.suggestions.records(padId);
  return records.filter((record) =>
    record.agent === context.agent && record.status !== "pending" &&
    !ids.has(record.id)
  );
}

/**
 * The agent's decisions on `padId` not reported yet, marked reported.
 *
 * @returns Them, oldest decision first.
 */
export async function takeDecisions(
  context: ToolContext,
  padId: string,
): Promise<ReportedDecision[]> {
  const ids = reportedTo(context);
  const found = await unreported(context, padId);
  found.sort((a, b) => (a.decidedAt ?? 0) - (b.decidedAt ?? 0));
  for (const record of found) {
    ids.add(record.id);
    if (ids.size > MAX_REMEMBERED) ids.delete(ids.values().next().value!);
  }
  return found.map((record) => ({
    suggestion_id: record.id,
    status: record.status,
    ...(record.decidedBy !== undefined && { decided_by: record.decidedBy }),
    ...(record.landedRevision !== undefined &&
      { landed_revision: record.landedRevision }),
    ...(record.reason !== undefined && { reason: record.reason }),
  }));
}

/**
 * For a wait: wake it when one of the agent's suggestions on `padId` is
 * decided (at once if one is waiting to be reported).
 *
 * @returns The subscriber `waitForChange` takes as `also`.
 */
export function decisionWake(
  context: ToolContext,
  padId: string,
): (wake: () => void) => () => void {
  return (wake) => {
    const book = context.backend.suggestions;
    const look = () =>
      unreported(context, padId).then(
        (found) => found.length > 0 && wake(),
        () => {/* Unreachable store: the next look, or the timeout. */},
      );
    // The first look once the book is watching: a decision made before
    // its first read is found by the look, one after it is told.
    const stop = book.onDecision(padId, (record) => {
      if (record.agent === context.agent) wake();
    }, () => void look());
    const poll = context.backend.state.kind === "redis"
      ? setInterval(look, POLL_MS)
      : undefined;
    return () => {
      stop();
      clearInterval(poll);
    };
  };
}
