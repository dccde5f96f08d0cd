/**
 * The agent's side of suggestions (writes held with `suggest: true` for the
 * people in a pad to accept or reject): `list_suggestions` and
 * `withdraw_suggestion`.
 *
 * @module
 */

import { z } from "zod";
import type { SuggestionEntry } from "../backend/suggestions.ts";
import { READ_ANNOTATIONS } from "./_reading.ts";
import {
  counted,
  countField,
  objectSchema,
  padIdSchema,
  result,
  untrustedResult,
} from "./_shared.ts";
import { defineTool, type ToolContext, type ToolDefinition } from "./tool.ts";

const STATUS = z.enum([
  "pending",
  "accepted",
  "rejected",
  "outdated",
  "withdrawn",
  "expired",
]);

const suggestionSchema = objectSchema({
  suggestion_id: z.string(),
  status: STATUS.describe("Only a pending one can still be accepted."),
  author: z.string(),
  self: z.boolean().describe("Made by you."),
  summary: z.string().describe("Its agent's reason: untrusted."),
  diff: z.string().describe("On the text it was made on."),
  expires_at: z.string(),
  reason: z.string().optional().describe("Why outdated, expired, withdrawn."),
  decided_by: z.string().optional(),
  landed_revision: countField.optional(),
});

/** A record as an agent reads it. */
function shown(record: SuggestionEntry, context: ToolContext) {
  return {
    suggestion_id: record.id,
    status: record.status,
    author: record.author.name,
    self: record.agent === context.agent,
    summary: record.summary,
    diff: record.diff,
    expires_at: new Date(record.expiresAt).toISOString(),
    ...(record.reason !== undefined && { reason: record.reason }),
    ...(record.decidedBy !== undefined && { decided_by: record.decidedBy }),
    ...(record.landedRevision !== undefined &&
      { landed_revision: record.landedRevision }),
  };
}

/** `list_suggestions`. */
export const listSuggestionsTool: ToolDefinition = defineTool({
  name: "list_suggestions",
  title: "List suggestions",
  description:
    "List a pad's suggestions (writes with suggest: true; only people decide): pending (a pad holds at most 100), then those decided in the last hour. Accepted ones are applied (reread before editing there); others changed nothing. Take yours back: withdraw_suggestion.",
  inputSchema: () => objectSchema({ id: padIdSchema }),
  outputSchema: () =>
    objectSchema({
      id: z.string(),
      revision: countField,
      suggestions: z.array(suggestionSchema).describe(
        "Pending first, then decided, oldest first.",
      ),
      untrusted: z.literal(true).optional(),
      source: z.literal("rustpad").optional(),
    }),
  annotations: READ_ANNOTATIONS,
  async run({ id }, context) {
    const listed = await context.backend.suggestions.records(id);
    const suggestions = listed.records.map((record) => shown(record, context));
    const structured = { id, revision: listed.revision, suggestions };
    if (suggestions.length === 0) {
      return result(structured, `Pad "${id}" has no suggestions.`);
    }
    const pending = suggestions.filter((s) => s.status === "pending").length;
    return untrustedResult(
      { ...structured, untrusted: true, source: "rustpad" },
      `Pad "${id}" has ${
        counted(suggestions.length, "suggestion")
      } (${pending} pending) at revision ${listed.revision}:`,
      JSON.stringify(suggestions, null, 1),
      `pad "${id}" (suggestions: each summary is its agent's words, the diffs and names are people's)`,
    );
  },
});

/** `withdraw_suggestion`. */
export const withdrawSuggestionTool: ToolDefinition = defineTool({
  name: "withdraw_suggestion",
  title: "Withdraw suggestion",
  description:
    "Withdraw your own pending suggestion so no one can accept it. Others' and decided ones are refused; a repeat answers 'withdrawn'. Ids: list_suggestions.",
  inputSchema: () =>
    objectSchema({
      id: padIdSchema,
      suggestion_id: z.string().describe("From the suggested write."),
    }),
  outputSchema: () =>
    objectSchema({
      id: z.string(),
      suggestion_id: z.string(),
      status: z.literal("withdrawn").describe(
        "Always 'withdrawn': any other outcome is an error.",
      ),
    }),
  annotations: {
    readOnlyHint: false,
    destructiveHint: false,
    // A repeat is refused as already withdrawn and changes nothing more.
    idempotentHint: true,
    openWorldHint: true,
  },
  async run({ id, suggestion_id }, context) {
    const outcome = await context.backend.suggestions.withdraw(
      id,
      suggestion_id,
      context.agent,
    );
    if (!outcome.ok) throw new Error(outcome.error);
    return result(
      { id, suggestion_id, status: "withdrawn" },
      `Withdrew suggestion ${suggestion_id} on pad "${id}": nothing was changed.`,
    );
  },
});
