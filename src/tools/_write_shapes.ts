// The result fields every write tool shares: its statuses, what asking a
// person answers with, the untrusted marker of quoted pad text, and the
// fields of a write that changes text.

import { z } from "zod";
import { nearbySchema } from "./_presence.ts";
import { countField } from "./_shared.ts";

const STATUSES = z.enum([
  "applied",
  "suggested",
  "unchanged",
  "dry_run",
  "conflict",
  "declined",
  "confirmation_required",
]);

/**
 * A write result's `status`: "applied", "suggested", "declined",
 * "confirmation_required" and the `extra` ones this tool can answer with
 * ("unchanged" for all but create_document, which always writes).
 */
export function writeStatus(
  ...extra: ("unchanged" | "dry_run" | "conflict")[]
): z.ZodEnum {
  return STATUSES.extract([
    "applied",
    "suggested",
    ...extra,
    "declined",
    "confirmation_required",
  ]).describe(statusNote(true));
}

/**
 * What `status` means: with `asks`, for a write that may ask a person
 * (and so answer "declined").
 */
export function statusNote(asks: boolean): string {
  return `Only 'applied' changed the pad; 'suggested' holds the write until a person decides; ${
    asks ? "'declined': your user said no; " : ""
  }any other status changed nothing.`;
}

/**
 * The result fields of a write that asked a person instead of writing
 * (README, "Confirmation"), and of a replayed `idempotency_key`.
 */
export const askedShape = {
  confirm_token: z.string().optional(),
  expires_in_seconds: countField.optional(),
  message: z.string().optional(),
  replayed: z.boolean().optional(),
};

/**
 * The marker on a write result that quotes pad text (a diff, conflicts,
 * people's names): the same as on reads.
 */
export const quotedShape = {
  untrusted: z.literal(true).optional(),
  source: z.literal("rustpad").optional(),
};

/** The marker's values, for a result that quotes pad text. */
export const QUOTED = { untrusted: true, source: "rustpad" } as const;

/**
 * The result fields every tool that writes text shares. Only what a name
 * leaves open is described; the rules behind status, tokens and keys are in
 * INSTRUCTIONS.
 */
export const writeOutputShape = {
  status: writeStatus("unchanged"),
  id: z.string(),
  url: z.string().optional(),
  revision: countField.optional(),
  length: countField.optional().describe("In code points."),
  diff: z.string().optional(),
  suggestion_id: z.string().optional(),
  diff_truncated: z.boolean().optional().describe(
    "True when the diff was cut (past 200 lines).",
  ),
  people_nearby: nearbySchema,
  edit_id: z.string().optional().describe(
    "Pass to undo_last_edit to undo exactly this edit.",
  ),
  new_pad: z.boolean().optional().describe(
    "True when the pad was empty before this write: a mistyped id starts a new pad.",
  ),
  ...askedShape,
  ...quotedShape,
};
