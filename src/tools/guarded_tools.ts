/**
 * The two tools that can destroy what people wrote, and so ask a person
 * first: `set_document` (on a non-empty pad) and `replace_in_document` (with
 * `replace_all` over several occurrences). Given a `base_revision`, both are
 * made against the text the agent read and refused if someone changed the
 * text they replace since.
 *
 * @module
 */

import { z } from "zod";
import { codePointLength } from "../ot/code_points.ts";
import {
  findOccurrences,
  replaceAllOperation,
  replaceOperation,
} from "../text/edits.ts";
import type { PadSession } from "../rustpad/session.ts";
import { notFoundHint, withoutLineNumbers } from "../text/lines.ts";
import {
  baseRevisionSchema,
  checkBase,
  conflictsShape,
  occurrenceRanges,
  type Plan,
  refusal,
  replacedRange,
  writeAtBaseOr,
} from "./_at_base.ts";
import {
  checkResultLength,
  confirmTokenSchema,
  countField,
  objectSchema,
  padIdSchema,
  textSchema,
} from "./_shared.ts";
import {
  appliedResult,
  defineWriteTool,
  idempotencyKeySchema,
  notConfirmed,
  unchangedResult,
  writeOutputShape,
  writeStatus,
} from "./_write.ts";
import { avoidPeopleSchema } from "./_presence.ts";
import type { ToolDefinition } from "./tool.ts";

const SET_ANNOTATIONS = {
  readOnlyHint: false,
  destructiveHint: true,
  idempotentHint: true,
  openWorldHint: false,
} as const;

const REPLACE_ANNOTATIONS = { ...SET_ANNOTATIONS, idempotentHint: false };

/** Whether `search` without `read_lines` prefixes occurs in `text`. */
function occursWithoutLineNumbers(text: string, search: string): boolean {
  const stripped = withoutLineNumbers(search);
  return stripped !== undefined && stripped !== "" &&
    findOccurrences(text, stripped).length > 0;
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

/** `set_document`. */
export const setDocumentTool: ToolDefinition = defineWriteTool({
  name: "set_document",
  title: "Replace a pad's whole text",
  description:
    "Replace a pad's whole text as one operation and return the diff. Only for a full rewrite: edit_document, replace_in_document and append_to_document change less. Asks a person first on a non-empty pad; fails if the pad changes meanwhile. The same text sends nothing ('unchanged').",
  inputSchema: objectSchema({
    id: padIdSchema,
    text: textSchema("The pad's complete new text."),
    base_revision: baseRevisionSchema,
    confirm_token: confirmTokenSchema,
    idempotency_key: idempotencyKeySchema,
  }),
  outputSchema: objectSchema({
    ...writeOutputShape,
    status: writeStatus("conflict"),
    ...conflictsShape,
  }),
  annotations: SET_ANNOTATIONS,
  async write({ id, text, base_revision, confirm_token }, gate, context) {
    const session = await context.sessions.get(id);
    const current = session.text;
    if (current === text) {
      return unchangedResult(
        context,
        id,
        session,
        "it already has exactly this text",
      );
    }
    const newLength = codePointLength(text);
    checkResultLength(id, session.length, newLength);
    let plan: Plan | undefined;
    if (base_revision !== undefined) {
      checkBase(session, base_revision);
      const operation = replaceAllOperation(
        session.textAt(base_revision),
        text,
      );
      plan = {
        base: base_revision,
        operation,
        ranges: [replacedRange(operation)],
        refuseConflicts: true,
      };
      const refused = refusal(context, session, plan);
      if (refused) return refused;
    }
    const outcome = await gate.confirm(
      {
        padId: id,
        binding: { id, text, base_revision },
        content: current,
        revision: session.revision,
        message:
          `Replace the whole text of pad "${id}" (${session.length} code points now) with ${newLength} code points of new text? What the pad says now will be gone.`,
      },
      confirm_token,
      current !== "",
    );
    if (outcome.status !== "confirmed") return notConfirmed(id, outcome);
    const write = await writeAtBaseOr(context, gate, id, plan, (live) => {
      checkUnchanged(live, id, current);
      return replaceAllOperation(live.text, text);
    });
    if (write.kind === "refused") return write.result;
    const { written, diff } = write;
    return appliedResult(
      context,
      id,
      written,
      `Replaced the text of pad "${id}": it now has ${written.length} code points (revision ${written.revision}).`,
      diff,
    );
  },
});

/** `replace_in_document`. */
export const replaceInDocumentTool: ToolDefinition = defineWriteTool({
  name: "replace_in_document",
  title: "Replace text in a pad",
  description:
    "Replace an exact string in a pad (literal, case-sensitive, whitespace included); for several changes or line ranges use edit_document. Fails if search does not occur, or occurs more than once without replace_all. Asks a person first when replace_all hits more than one place.",
  inputSchema: objectSchema({
    id: padIdSchema,
    search: z.string().min(1, {
      error:
        "Cannot call replace_in_document as search is empty: give the exact text to replace",
    }).meta({ minLength: undefined }).describe("Exact text to find."),
    replace: textSchema("Its replacement; may be empty."),
    replace_all: z.boolean().optional().describe(
      "Replace every match (needed for more than one).",
    ),
    base_revision: baseRevisionSchema,
    confirm_token: confirmTokenSchema,
    idempotency_key: idempotencyKeySchema,
    avoid_people: avoidPeopleSchema,
  }),
  outputSchema: objectSchema({
    ...writeOutputShape,
    status: writeStatus("conflict"),
    replacements: countField.optional().describe(
      "Matches replaced, or to be replaced.",
    ),
    ...conflictsShape,
  }),
  annotations: REPLACE_ANNOTATIONS,
  async write(args, gate, context) {
    const { id, search, replace, base_revision, confirm_token } = args;
    const replace_all = args.replace_all ?? false;
    const session = await context.sessions.get(id);
    const current = session.text;
    if (base_revision !== undefined) checkBase(session, base_revision);
    const searched = base_revision === undefined
      ? current
      : session.textAt(base_revision);
    const where = base_revision === undefined
      ? ""
      : ` at revision ${base_revision}`;
    const offsets = findOccurrences(searched, search);
    const count = offsets.length;
    if (count === 0) {
      throw new Error(
        `Cannot replace in pad "${id}" as the search text does not occur${where}: ${
          notFoundHint(search, occursWithoutLineNumbers(searched, search))
        }. Nothing was changed`,
      );
    }
    if (count > 1 && !replace_all) {
      throw new Error(
        `Cannot replace in pad "${id}" as the search text occurs ${count} times${where}: make search longer so it matches exactly once, or pass replace_all: true`,
      );
    }
    const delta = codePointLength(replace) - codePointLength(search);
    checkResultLength(id, session.length, session.length + count * delta);
    let plan: Plan | undefined;
    if (base_revision !== undefined) {
      const ranges = occurrenceRanges(searched, search, replace, offsets);
      plan = {
        base: base_revision,
        operation: replaceOperation(searched, search, replace, offsets),
        ranges,
        refuseConflicts: true,
      };
      const refused = refusal(context, session, plan);
      if (refused) return refused;
    }
    const outcome = await gate.confirm(
      {
        padId: id,
        binding: { id, search, replace, replace_all, count, base_revision },
        content: current,
        revision: session.revision,
        message: count > 1
          ? `Replace all ${count} occurrences of the search text in pad "${id}" (${session.length} code points now)?`
          : `Replace one occurrence of the search text in pad "${id}" (${session.length} code points now)?`,
      },
      confirm_token,
      count > 1,
    );
    if (outcome.status !== "confirmed") {
      return notConfirmed(id, outcome, { replacements: count });
    }
    const write = await writeAtBaseOr(context, gate, id, plan, (live) => {
      if (count > 1) checkUnchanged(live, id, current);
      const found = findOccurrences(live.text, search);
      if (found.length !== count) {
        throw new Error(
          `Cannot replace in pad "${id}" as the search text now occurs ${found.length} times instead of ${count}: nothing was changed; call again`,
        );
      }
      return replaceOperation(live.text, search, replace, found);
    });
    if (write.kind === "refused") return write.result;
    const { written, diff } = write;
    return appliedResult(
      context,
      id,
      written,
      `Replaced ${count} ${
        count === 1 ? "occurrence" : "occurrences"
      } in pad "${id}": it now has ${written.length} code points (revision ${written.revision}).`,
      diff,
      {
        replacements: count,
      },
    );
  },
});
