/**
 * What people and agents see of the suggestions agents hold: the JSON of
 * the compatible pad server's `/api/suggestions/` (ours: the real Rustpad
 * has none), shared by the pad server that serves it and the backend that
 * holds the suggestions.
 *
 * @module
 */

import { advanceCodePoints } from "../ot/code_points.ts";
import type { Component } from "../ot/component.ts";

/** Where a suggestion stands. Only `pending` can be decided. */
export type SuggestionStatus =
  | "pending"
  | "accepted"
  | "rejected"
  | "outdated"
  | "withdrawn"
  | "expired";

/**
 * One change of a suggestion on the pad's text at the list's `revision`,
 * in UTF-16 units as the page's editor counts: `deleted` is the text at
 * `from` to `to` that the suggestion removes, `inserted` what it puts at
 * `from` (after the deletion).
 */
export interface SuggestionHunk {
  /** Where the change starts, in UTF-16 units. */
  readonly from: number;
  /** Where the deleted text ends (`from` when it deletes nothing). */
  readonly to: number;
  /** The text removed, verbatim. */
  readonly deleted: string;
  /** The text put in its place, verbatim. */
  readonly inserted: string;
}

/** A suggestion as people see it. */
export interface SuggestionView {
  /** The suggestion's id, opaque. */
  readonly id: string;
  /** Where it stands. */
  readonly status: SuggestionStatus;
  /** The collaborator who suggested it (the agent's pad name and colour). */
  readonly author: {
    readonly name: string;
    readonly hue: number;
    /** Whether the author is an agent (always, today). */
    readonly agent: boolean;
  };
  /** One line saying what it does, written by the agent: untrusted. */
  readonly summary: string;
  /** ISO 8601 time it was made. */
  readonly createdAt: string;
  /** ISO 8601 time a pending suggestion expires. */
  readonly expiresAt: string;
  /**
   * The change on the text at the list's `revision` (pending ones only;
   * decided ones keep what they were when decided).
   */
  readonly hunks: readonly SuggestionHunk[];
  /** For a language change: the language it sets (and no hunks). */
  readonly language?: string;
  /** Why it is outdated, expired or withdrawn. */
  readonly reason?: string;
  /** Who accepted or rejected it. */
  readonly decidedBy?: string;
  /** ISO 8601 time of the decision. */
  readonly decidedAt?: string;
  /** The pad revision an accepted suggestion landed as. */
  readonly landedRevision?: number;
  /**
   * When the hunks' text is cut for a list: the whole inserted and deleted
   * lengths in UTF-16 units; `GET /api/suggestions/{pad}/{id}` gives the
   * whole suggestion.
   */
  readonly cut?: { readonly inserted: number; readonly deleted: number };
}

/** A pad's suggestions, pending first, at one revision of the pad. */
export interface SuggestionList {
  /** The pad revision the pending suggestions' hunks refer to. */
  readonly revision: number;
  /** Pending and recently decided suggestions. */
  readonly suggestions: readonly SuggestionView[];
  /** User ids on the pad's sockets that are agents, for a badge. */
  readonly agentIds: readonly number[];
}

/** A decision's outcome. */
export type SuggestionDecision =
  | { readonly ok: true; readonly suggestion: SuggestionView }
  | {
    readonly ok: false;
    /** `missing`: 404; `final`: 409 (outdated, decided, expired, withdrawn). */
    readonly kind: "missing" | "final";
    /** The sentence to show: what was wrong and what to do. */
    readonly error: string;
    readonly suggestion?: SuggestionView;
  };

/**
 * A suggestion as stored, by the agent side's store or the pad server's.
 * Times are milliseconds since the epoch.
 */
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
 * A record as lists give it to agents: without its operation, its diff cut
 * to {@linkcode MAX_ENTRY_DIFF} UTF-16 units (`diffLength` is the whole
 * diff's, when cut).
 */
export type SuggestionEntry = Omit<SuggestionRecord, "operation" | "hunks"> & {
  /** The whole diff's length in UTF-16 units, when `diff` is cut. */
  readonly diffLength?: number;
};

/** The most UTF-16 units of a diff a list entry carries. */
export const MAX_ENTRY_DIFF = 4000;

/** The most UTF-16 units of inserted and deleted text a listed view carries. */
export const MAX_VIEW_TEXT = 2000;

/**
 * The entry of `record` for a list: no operation, its diff cut.
 *
 * @example
 * ```ts
 * import { entryOf } from "./suggestion_views.ts";
 * import assert from "node:assert/strict";
 *
 * const entry = entryOf({
 *   id: "s1", pad: "notes", identity: "", agent: "a",
 *   author: { name: "agent", hue: 0 }, summary: "Add", revision: 0,
 *   operation: ["x".repeat(9000)], diff: "+".repeat(9000),
 *   status: "pending", createdAt: 0, expiresAt: 1,
 * });
 * assert.equal(entry.diff.length < 9000, true);
 * assert.equal(entry.diffLength, 9000);
 * assert.equal("operation" in entry, false);
 * ```
 */
export function entryOf(record: SuggestionRecord): SuggestionEntry {
  const { operation: _operation, hunks: _hunks, ...rest } = record;
  if (record.diff.length <= MAX_ENTRY_DIFF) return rest;
  return {
    ...rest,
    diff: cutDiff(record.diff),
    diffLength: record.diff.length,
  };
}

/**
 * `diff` cut to {@linkcode MAX_ENTRY_DIFF} UTF-16 units, a last line
 * saying how many more it had; a shorter one as it is.
 *
 * @example
 * ```ts
 * import { cutDiff } from "./suggestion_views.ts";
 * import assert from "node:assert/strict";
 *
 * assert.match(cutDiff("+".repeat(5000)), /\(diff cut: 1000 more UTF-16 units\)$/);
 * ```
 */
export function cutDiff(diff: string): string {
  if (diff.length <= MAX_ENTRY_DIFF) return diff;
  return `${cutUnits(diff, MAX_ENTRY_DIFF)}\n… (diff cut: ${
    diff.length - MAX_ENTRY_DIFF
  } more UTF-16 units)`;
}

/**
 * `view` with each hunk's text cut to {@linkcode MAX_VIEW_TEXT} UTF-16
 * units in all, `cut` saying so; positions stay whole.
 *
 * @example
 * ```ts
 * import { boundedView } from "./suggestion_views.ts";
 * import assert from "node:assert/strict";
 *
 * const view = boundedView({
 *   id: "s1", status: "pending", author: { name: "a", hue: 0, agent: true },
 *   summary: "Add", createdAt: "", expiresAt: "",
 *   hunks: [{ from: 0, to: 0, deleted: "", inserted: "x".repeat(5000) }],
 * });
 * assert.equal(view.hunks[0]!.inserted.length, 2000);
 * assert.deepEqual(view.cut, { inserted: 5000, deleted: 0 });
 * ```
 */
export function boundedView(view: SuggestionView): SuggestionView {
  let inserted = 0;
  let deleted = 0;
  for (const hunk of view.hunks) {
    inserted += hunk.inserted.length;
    deleted += hunk.deleted.length;
  }
  if (inserted + deleted <= MAX_VIEW_TEXT) return view;
  let room = MAX_VIEW_TEXT;
  const hunks = view.hunks.map((hunk) => {
    const kept = {
      ...hunk,
      deleted: cutUnits(hunk.deleted, room),
      inserted: "",
    };
    room -= kept.deleted.length;
    kept.inserted = cutUnits(hunk.inserted, room);
    room -= kept.inserted.length;
    return kept;
  });
  return { ...view, hunks, cut: { inserted, deleted } };
}

/** The first at most `units` UTF-16 units of `text`, no half surrogate. */
function cutUnits(text: string, units: number): string {
  if (text.length <= units) return text;
  let end = Math.max(0, units);
  const last = text.charCodeAt(end - 1);
  if (end > 0 && last >= 0xd800 && last <= 0xdbff) end--;
  return text.slice(0, end);
}

/**
 * The change `operation` makes to `text`, as hunks in UTF-16 units.
 *
 * @example
 * ```ts
 * import { hunksOf } from "./suggestion_views.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(hunksOf("teh", [-3, "the"]), [
 *   { from: 0, to: 3, inserted: "the", deleted: "teh" },
 * ]);
 * ```
 */
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

/**
 * How `record` is shown to people; a pending one's hunks on `text`.
 *
 * @example
 * ```ts
 * import { viewOf } from "./suggestion_views.ts";
 * import assert from "node:assert/strict";
 *
 * const view = viewOf({
 *   id: "s1", pad: "notes", identity: "", agent: "a",
 *   author: { name: "agent", hue: 0 }, summary: "Fix", revision: 1,
 *   operation: [-3, "the"], diff: "", status: "pending",
 *   createdAt: 0, expiresAt: 1000,
 * }, "teh");
 * assert.equal(view.hunks[0]!.inserted, "the");
 * ```
 */
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
