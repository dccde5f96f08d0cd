// Accepting a suggestion: its operation, carried over everything since,
// sent as one edit by its identity's collaborator, and claimed for the
// agent that made it (its undo, its authorship), as its own write would be.

import { TextOperation } from "../ot/operation.ts";
import type { SessionPool } from "../rustpad/session_pool.ts";
import { LivePads } from "./live_pads.ts";
import { advance, type SuggestionRecord } from "./_suggestion_record.ts";

/**
 * Send the accepted record's operation (or set its language, which makes
 * no revision: the pad's revision then); the revision it landed as, or why
 * not.
 */
export async function applySuggestion(
  pool: SessionPool,
  record: SuggestionRecord,
): Promise<number | string> {
  let outdated: string | undefined;
  try {
    if (record.language !== undefined) {
      const session = await pool.get(record.pad);
      await session.setLanguage(record.language);
      return session.revision;
    }
    const written = await pool.edit(record.pad, (live) => {
      const now = advance({ ...record, status: "pending" }, live);
      if (now.status !== "pending") {
        outdated = now.reason;
        throw new Error(now.reason);
      }
      return live.rebase(TextOperation.fromJSON(now.operation), now.revision);
    });
    await claimAccepted(pool, { ...record, landedRevision: written.revision });
    return written.revision;
  } catch (error) {
    return outdated ??
      `the edit could not be sent (${(error as Error).message})`;
  }
}

/**
 * Claim an accepted suggestion for the agent that made it, where it landed
 * (`landedRevision`): its authorship, and its undo once `pool`'s session
 * has the operation. Claiming again changes nothing.
 */
export async function claimAccepted(
  pool: SessionPool,
  record: Pick<SuggestionRecord, "id" | "pad" | "agent" | "landedRevision">,
): Promise<void> {
  if (record.landedRevision === undefined) return;
  const at = record.landedRevision - 1;
  const live = LivePads.of(pool);
  live.claim(record.pad, at, record.agent);
  const session = await pool.get(record.pad);
  // Accepted elsewhere: its operation may still be on its way here.
  if (session.revision <= at) await session.roundTrip();
  const [entry] = at >= session.oldestRevision && at < session.revision
    ? session.operationsSince(at)
    : [];
  if (entry !== undefined) {
    live.undo.claim(record.agent, record.pad, entry, record.id);
  }
}
