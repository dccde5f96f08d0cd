/**
 * Where the pad server's page finds the suggestions agents hold for a pad
 * and sends people's decisions: a {@linkcode SuggestionDesk} the MCP
 * server's backend gives the pad server when both run in one process
 * (`--embedded`). The pad server serves it over HTTP, for its page, tests
 * and other tools:
 *
 * - `GET /api/suggestions/{id}`: 200 with a {@linkcode SuggestionList}
 *   (an empty list when no desk is attached), each entry bounded: the text
 *   of its hunks is cut to 2,000 UTF-16 units in all, `cut` giving the
 *   whole lengths.
 * - `GET /api/suggestions/{id}/{suggestion_id}`: 200 with that
 *   {@linkcode SuggestionView} whole; 404 `{"error"}` when there is none.
 * - `GET /api/suggestion-events/{id}`: a server-sent event stream, one
 *   `list` event with the bounded list at once and again whenever it
 *   changes, so the page need not poll.
 * - `POST /api/suggestions/{id}/{suggestion_id}` with
 *   `{"verdict": "accept" | "reject", "user_id"?: integer}`: 200 with the
 *   decided {@linkcode SuggestionView}, decided by the name the pad socket
 *   of `user_id` announced (without one: "someone in the pad"); 403 when
 *   that user is not in the pad; 409 `{"error", "suggestion"}` when it is
 *   outdated, expired, withdrawn or already decided; 404 `{"error"}` when
 *   the pad has no such suggestion; 400 for a body that is not one of these
 *   (a free-text `by` included).
 *
 * The real Rustpad has no such API: it is ours, and docs/protocol.md says so.
 *
 * @module
 */

import type {
  SuggestionDecision,
  SuggestionList,
  SuggestionView,
} from "../rustpad/suggestion_views.ts";

export type {
  SuggestionDecision,
  SuggestionHunk,
  SuggestionList,
  SuggestionStatus,
  SuggestionView,
} from "../rustpad/suggestion_views.ts";

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
  /** One suggestion whole, or `undefined`; without it, the listed one. */
  whole?(
    padId: string,
    suggestionId: string,
  ): Promise<SuggestionView | undefined>;
  /**
   * Be told when the pad's suggestions may have changed; without it the
   * event stream looks every second.
   *
   * @returns Unsubscribes.
   */
  watch?(padId: string, listener: () => void): () => void;
}
