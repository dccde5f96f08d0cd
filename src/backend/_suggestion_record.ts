// One held suggestion as stored (JSON), and what is computed from it: its
// operation carried over later operations of the pad (outdated when they
// delete text it changes), and its change as hunks in UTF-16 units, as the
// page's editor counts.

import type { Component } from "../ot/component.ts";
import { advanceCodePoints } from "../ot/code_points.ts";
import { deletesOverlap } from "../ot/deletes.ts";
import { TextOperation } from "../ot/operation.ts";
import type { PadSession } from "../rustpad/session.ts";
import type {
  SuggestionHunk,
  SuggestionStatus,
} from "../rustpad/suggestion_views.ts";

export type {
  SuggestionHunk,
  SuggestionStatus,
} from "../rustpad/suggestion_views.ts";

/** A suggestion as stored. Times are milliseconds since the epoch. */
export interface SuggestionRecord {
  /** Its id, opaque. */
  readonly id: string;
  /** The pad. */
  readonly pad: string;
  /** The identity whose pool writes it when accepted. */
  readonly identity: string;
  /** The agent (MCP session) that made it. */
  readonly agent: string;
  /** The agent's pad name and colour. */
  readonly author: { readonly name: string; readonly hue: number };
  /** What the agent said it does: untrusted. */
  readonly summary: string;
  /** The pad revision {@linkcode SuggestionRecord.operation} applies to. */
  readonly revision: number;
  /** The held operation, as JSON. */
  readonly operation: Component[];
  /** For a language change: the language; its operation changes no text. */
  readonly language?: string;
  /** The unified diff on the text it was made on. */
  readonly diff: string;
  /** Where it stands. */
  readonly status: SuggestionStatus;
  /** Why it is outdated, expired or withdrawn. */
  readonly reason?: string;
  /** Who accepted or rejected it. */
  readonly decidedBy?: string;
  /** When it was decided. */
  readonly decidedAt?: number;
  /** The revision an accepted one landed as. */
  readonly landedRevision?: number;
  /** A decided one's change as it was when decided. */
  readonly hunks?: SuggestionHunk[];
  /** When it was made. */
  readonly createdAt: number;
  /** When a pending one expires. */
  readonly expiresAt: number;
}

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

/** The change `operation` makes to `text`, as hunks in UTF-16 units. */
export function hunksOf(
  text: string,
  operation: readonly Component[],
): SuggestionHunk[] {
  const hunks: SuggestionHunk[] = [];
  let at = 0;
  let open: { from: number; to: number; inserted: string } | undefined;
  const close = () => {
    if (open === undefined) return;
    hunks.push({ ...open, deleted: text.slice(open.from, open.to) });
    open = undefined;
  };
  for (const component of operation) {
    if (typeof component === "string") {
      open ??= { from: at, to: at, inserted: "" };
      open.inserted += component;
    } else if (component > 0) {
      close();
      at = advanceCodePoints(text, at, component);
    } else {
      open ??= { from: at, to: at, inserted: "" };
      at = advanceCodePoints(text, at, -component);
      open.to = at;
    }
  }
  close();
  return hunks;
}
