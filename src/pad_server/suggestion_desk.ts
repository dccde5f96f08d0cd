/**
 * Where the pad server's page finds the suggestions agents hold for a pad
 * and sends people's decisions: a {@linkcode SuggestionDesk} the MCP
 * server's backend gives the pad server when both run in one process
 * (`--embedded`). The pad server serves it over HTTP, for its page, tests
 * and other tools:
 *
 * - `GET /api/suggestions/{id}`: 200 with a {@linkcode SuggestionList}
 *   (an empty list when no desk is attached).
 * - `POST /api/suggestions/{id}/{suggestion_id}` with
 *   `{"verdict": "accept" | "reject", "by"?: string}`: 200 with the decided
 *   {@linkcode SuggestionView}; 409 `{"error", "suggestion"}` when it is
 *   outdated, expired, withdrawn or already decided; 404 `{"error"}` when
 *   the pad has no such suggestion; 400 for a body that is not one of these.
 *
 * The real Rustpad has no such API: it is ours, and docs/protocol.md says so.
 *
 * @module
 */

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
  /** Why it is outdated, expired or withdrawn. */
  readonly reason?: string;
  /** Who accepted or rejected it. */
  readonly decidedBy?: string;
  /** ISO 8601 time of the decision. */
  readonly decidedAt?: string;
  /** The pad revision an accepted suggestion landed as. */
  readonly landedRevision?: number;
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
 * What the pad server asks of whoever holds suggestions.
 *
 * @example A desk with nothing to suggest
 * ```ts
 * import type { SuggestionDesk } from "./suggestion_desk.ts";
 * import assert from "node:assert/strict";
 *
 * const desk: SuggestionDesk = {
 *   list: (_padId) => Promise.resolve({ revision: 0, suggestions: [], agentIds: [] }),
 *   decide: (_padId, _id, _verdict, _by) =>
 *     Promise.resolve({ ok: false, kind: "missing", error: "No such suggestion" }),
 * };
 * assert.equal((await desk.list("notes")).suggestions.length, 0);
 * ```
 */
export interface SuggestionDesk {
  /** The pad's suggestions now. */
  list(padId: string): Promise<SuggestionList>;
  /**
   * Accept or reject one pending suggestion, as the person named `by`
   * (undefined: "someone in the pad"). A decision is final.
   */
  decide(
    padId: string,
    suggestionId: string,
    verdict: "accept" | "reject",
    by: string | undefined,
  ): Promise<SuggestionDecision>;
}
