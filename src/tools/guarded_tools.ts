/**
 * The two tools that can destroy what people wrote, and so ask a person
 * first: `set_document` (on a non-empty pad) and `replace_in_document` (with
 * `replace_all` over several occurrences).
 *
 * @module
 */

// @ts-types="@modelcontextprotocol/sdk/types"
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { codePointLength } from "../_code_points.ts";
import type { ConfirmationOutcome } from "../confirmation.ts";
import {
  findOccurrences,
  replaceAllOperation,
  replaceOperation,
} from "../edits.ts";
import type { PadSession } from "../session.ts";
import {
  checkResultLength,
  confirm,
  confirmTokenSchema,
  guardedOutputShape,
  padIdSchema,
  padUrl,
  result,
  safely,
  textSchema,
  type ToolContext,
} from "./_shared.ts";

const GUARDED_ANNOTATIONS = {
  readOnlyHint: false,
  destructiveHint: true,
  openWorldHint: false,
} as const;

/** The result for a confirmation that did not end in "go ahead". */
function notConfirmed(
  id: string,
  outcome: Exclude<ConfirmationOutcome, { status: "confirmed" }>,
  extra: Record<string, unknown> = {},
): CallToolResult {
  if (outcome.status === "declined") {
    return result(
      { status: "declined", id, message: outcome.message, ...extra },
      outcome.message,
    );
  }
  return result(
    { ...outcome, id, ...extra },
    `${outcome.message} confirm_token: ${outcome.confirm_token} (valid for ${outcome.expires_in_seconds} seconds).`,
  );
}

/** Refuse to write if the pad changed while a person was being asked. */
function checkUnchanged(
  session: PadSession,
  padId: string,
  confirmedText: string,
): void {
  if (session.text !== confirmedText) {
    throw new Error(
      `Cannot write to pad "${padId}" as it changed while waiting for confirmation: current length is ${session.length} code points. Nothing was changed; read the pad again and call again for a fresh confirmation`,
    );
  }
}

/** Register `set_document`. */
export function registerSetDocument(context: ToolContext): void {
  context.server.registerTool(
    "set_document",
    {
      title: "Replace a pad's whole text",
      description:
        "Replace the whole text of a Rustpad pad with new text, as one operation. On a non-empty pad a person is asked first (a dialog, or status 'confirmation_required' with a confirm_token to pass back after they agree); nothing changes until then. Prefer replace_in_document or append_to_document for partial changes: they keep what others type.",
      inputSchema: {
        id: padIdSchema,
        text: textSchema("The pad's complete new text."),
        confirm_token: confirmTokenSchema,
      },
      outputSchema: guardedOutputShape,
      annotations: { ...GUARDED_ANNOTATIONS, idempotentHint: true },
    },
    safely(async ({ id, text, confirm_token }) => {
      const session = await context.sessions.get(id);
      const current = session.text;
      const url = padUrl(context, id);
      if (current === text) {
        return result(
          {
            status: "applied",
            id,
            url,
            revision: session.revision,
            length: session.length,
          },
          `Pad "${id}" already has exactly this text; nothing to change (revision ${session.revision}).`,
        );
      }
      const newLength = codePointLength(text);
      checkResultLength(id, session.length, newLength);
      if (current !== "") {
        const outcome = await confirm(context, {
          tool: "set_document",
          padId: id,
          binding: { id, text },
          content: current,
          message:
            `Replace the whole text of pad "${id}" (${session.length} code points now) with ${newLength} code points of new text? What the pad says now will be gone.`,
        }, confirm_token);
        if (outcome.status !== "confirmed") return notConfirmed(id, outcome);
      }
      const written = await context.sessions.edit(id, (live) => {
        checkUnchanged(live, id, current);
        return replaceAllOperation(live.text, text);
      });
      return result(
        {
          status: "applied",
          id,
          url,
          revision: written.revision,
          length: written.length,
        },
        `Replaced the text of pad "${id}": it now has ${written.length} code points (revision ${written.revision}).`,
      );
    }),
  );
}

/** Register `replace_in_document`. */
export function registerReplaceInDocument(context: ToolContext): void {
  context.server.registerTool(
    "replace_in_document",
    {
      title: "Replace text in a pad",
      description:
        "Replace an exact string (no regex) in a Rustpad pad, editing only the matched range so what others type elsewhere is kept. Without replace_all the string must occur exactly once; otherwise make search longer or pass replace_all. replace_all over several occurrences asks a person first (a dialog, or status 'confirmation_required' with a confirm_token to pass back after they agree).",
      inputSchema: {
        id: padIdSchema,
        search: z.string().min(1, {
          error:
            "Cannot search for an empty string: give the exact text to replace",
        }).describe("The exact text to find, as it appears in the pad."),
        replace: textSchema("The text to put in its place; may be empty."),
        replace_all: z.boolean().optional().describe(
          "Replace every occurrence (asks a person first when there are several). Default false: the search must occur exactly once.",
        ),
        confirm_token: confirmTokenSchema,
      },
      outputSchema: {
        ...guardedOutputShape,
        replacements: z.number().int().optional().describe(
          "With 'applied': how many occurrences were replaced. With 'confirmation_required' or 'declined': how many would be.",
        ),
      },
      annotations: { ...GUARDED_ANNOTATIONS, idempotentHint: false },
    },
    safely(
      async ({ id, search, replace, replace_all = false, confirm_token }) => {
        const session = await context.sessions.get(id);
        const current = session.text;
        const count = findOccurrences(current, search).length;
        if (count === 0) {
          throw new Error(
            `Cannot replace in pad "${id}" as the search text occurs 0 times: read the pad with get_document and copy the exact text, whitespace included`,
          );
        }
        if (count > 1 && !replace_all) {
          throw new Error(
            `Cannot replace in pad "${id}" as the search text occurs ${count} times: make search longer so it matches exactly once, or pass replace_all: true`,
          );
        }
        const delta = codePointLength(replace) - codePointLength(search);
        checkResultLength(id, session.length, session.length + count * delta);
        if (count > 1) {
          const outcome = await confirm(context, {
            tool: "replace_in_document",
            padId: id,
            binding: { id, search, replace, replace_all, count },
            content: current,
            message:
              `Replace all ${count} occurrences of the search text in pad "${id}" (${session.length} code points now)?`,
          }, confirm_token);
          if (outcome.status !== "confirmed") {
            return notConfirmed(id, outcome, { replacements: count });
          }
        }
        const written = await context.sessions.edit(id, (live) => {
          if (count > 1) checkUnchanged(live, id, current);
          const offsets = findOccurrences(live.text, search);
          if (offsets.length !== count) {
            throw new Error(
              `Cannot replace in pad "${id}" as the search text now occurs ${offsets.length} times instead of ${count}: nothing was changed; call again`,
            );
          }
          return replaceOperation(live.text, search, replace, offsets);
        });
        return result(
          {
            status: "applied",
            id,
            url: padUrl(context, id),
            revision: written.revision,
            length: written.length,
            replacements: count,
          },
          `Replaced ${count} ${
            count === 1 ? "occurrence" : "occurrences"
          } in pad "${id}": it now has ${written.length} code points (revision ${written.revision}).`,
        );
      },
    ),
  );
}
