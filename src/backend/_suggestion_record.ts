// One held suggestion as stored (JSON), and what is computed from it: its
// operation carried over later operations of the pad (outdated when they
// delete text it changes), and its change as hunks in UTF-16 units, as the
// page's editor counts.

import { deletesOverlap } from "../ot/deletes.ts";
import { TextOperation } from "../ot/operation.ts";
import type { PadSession } from "../rustpad/session.ts";
import type { SuggestionRecord } from "../rustpad/suggestion_views.ts";

export { hunksOf } from "../rustpad/suggestion_views.ts";
export type {
  SuggestionEntry,
  SuggestionHunk,
  SuggestionRecord,
  SuggestionStatus,
} from "../rustpad/suggestion_views.ts";

/**
 * The pending `record` carried over every operation of `session`'s history
 * since its revision, or made `outdated` (with the reason) when one of
 * them deleted text it changes or the history no longer reaches back.
 */
export function advance(
  record: SuggestionRecord,
  session: PadSession,
): SuggestionRecord {
  if (record.status !== "pending" || record.revision >= session.revision) {
    return record;
  }
  if (record.revision < session.oldestRevision) {
    return {
      ...record,
      status: "outdated",
      reason:
        `the pad's history moved past the revision it was made on (${record.revision})`,
    };
  }
  let operation = TextOperation.fromJSON(record.operation);
  for (const entry of session.operationsSince(record.revision)) {
    if (deletesOverlap(operation, entry.operation)) {
      return {
        ...record,
        status: "outdated",
        reason: `someone deleted text it changes (revision ${
          entry.revision + 1
        })`,
      };
    }
    [operation] = operation.transform(entry.operation);
  }
  return {
    ...record,
    revision: session.revision,
    operation: operation.toJSON(),
  };
}
