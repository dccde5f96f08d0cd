/**
 * What people and agents see of the suggestions agents hold: the JSON of
 * the compatible pad server's `/api/suggestions/` (ours: the real Rustpad
 * has none), shared by the pad server that serves it and the backend that
 * holds the suggestions.
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
