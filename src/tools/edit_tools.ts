/**
 * `edit_document`: a batch of exact-string and line edits, located in the
 * text the agent read and made as one operation rebased over whatever
 * people typed since.
 *
 * @module
 */

import { z } from "zod";
import { BatchEditError, locateEdits } from "../text/batch_edits.ts";
import {
  baseRevisionSchema,
  checkBase,
  conflictResult,
  conflictsShape,
  onConflictSchema,
  type Plan,
  planConflicts,
  preview,
  submitPlan,
} from "./_at_base.ts";
import {
  confirmTokenSchema,
  countField,
  countSchema,
  objectSchema,
  padIdSchema,
  padUrl,
} from "./_shared.ts";
import {
  defineWriteTool,
  idempotencyKeySchema,
  notConfirmed,
  writeOutputShape,
  writeStatus,
  writtenResult,
} from "./_write.ts";
import { avoidPeopleSchema } from "./_presence.ts";
import type { ToolDefinition } from "./tool.ts";

const ANNOTATIONS = {
  readOnlyHint: false,
  destructiveHint: true,
  idempotentHint: false,
  openWorldHint: false,
} as const;

const MAX_EDITS = 100;

const EDIT_SHAPE_ERROR =
  "Cannot read edit as it is neither {old_string, new_string, replace_all?} nor {start_line, end_line, new_text}: give exactly one of the two forms";

const stringEdit = z.object({
  old_string: z.string().min(1).describe(
    "Exact text to replace.",
  ),
  new_string: z.string().describe("Its replacement."),
  replace_all: z.boolean().optional().describe(
    "Replace every occurrence (default: it must occur once).",
  ),
});

const lineEdit = z.object({
  start_line: z.int().min(1).meta({ maximum: undefined }).describe(
    "First line, from 1.",
  ),
  end_line: countSchema(
    "Last line, inclusive; start_line - 1 inserts.",
  ),
  new_text: z.string().describe(
    "Lines to put there; '' deletes.",
  ),
});

/** `edit_document`. */
export const editDocumentTool: ToolDefinition = defineWriteTool({
  name: "edit_document",
  title: "Edit parts of a pad",
  description:
    "Make up to 100 edits to a pad as one all-or-nothing operation: exact-string replacements (literal, case-sensitive) and line-range replacements or insertions (line numbers from read_lines), located in the text at base_revision (default: now) and rebased over what people typed since. The tool for changing parts of a pad; replace_in_document swaps one string, set_document rewrites everything, append_to_document adds at the end. Fails, changing nothing, naming the edit that matches nowhere, matches more than once without replace_all, has lines out of range or overlaps another. Asks a person first when a replace_all hits more than one place or the batch removes over half the text. dry_run returns the diff without writing.",
  inputSchema: objectSchema({
    id: padIdSchema,
    edits: z.array(
      z.union([stringEdit, lineEdit], { error: EDIT_SHAPE_ERROR }),
    ).min(1).max(MAX_EDITS)
      .describe("Edits that do not overlap."),
    base_revision: baseRevisionSchema,
    on_conflict: onConflictSchema,
    dry_run: z.boolean().optional().describe(
      "Return the diff; send nothing.",
    ),
    confirm_token: confirmTokenSchema,
    idempotency_key: idempotencyKeySchema,
    avoid_people: avoidPeopleSchema,
  }),
  outputSchema: objectSchema({
    ...writeOutputShape,
    status: writeStatus("dry_run", "conflict"),
    edits_applied: countField.optional(),
    rebased: z.boolean().optional().describe(
      "Whether others' changes since base_revision were merged in.",
    ),
    ...conflictsShape,
  }),
  annotations: ANNOTATIONS,
  async write(args, gate, context) {
    const { id, edits, base_revision, on_conflict, confirm_token } = args;
    const session = await context.sessions.get(id);
    const base = base_revision ?? session.revision;
    checkBase(session, base);
    const baseText = session.textAt(base);
    let batch;
    try {
      batch = locateEdits(baseText, edits, `at revision ${base}`);
    } catch (error) {
      if (!(error instanceof BatchEditError)) throw error;
      throw new Error(`${error.message}. Nothing was changed`, {
        cause: error,
      });
    }
    const plan: Plan = {
      base,
      operation: batch.operation,
      ranges: batch.changes.map((change) => ({
        edit: change.edit,
        start: change.codePointStart,
        end: change.codePointEnd,
      })),
      refuseConflicts: base_revision !== undefined &&
        on_conflict !== "merge",
    };
    const conflicts = planConflicts(session, plan);
    if (conflicts.length > 0) {
      return conflictResult(id, session.revision, conflicts, true);
    }
    const baseLength = batch.operation.baseLength;
    const destroys = batch.replacesMany ||
      (baseLength > 0 && batch.deleted * 2 > baseLength);
    if (args.dry_run === true) {
      const { operation, diff } = preview(session, plan);
      const message = `Dry run: nothing was sent.${
        gate.asks(destroys) ? " A real call would ask a person first." : ""
      }`;
      return writtenResult(
        {
          status: "dry_run",
          id,
          revision: session.revision,
          length: operation.targetLength,
          edits_applied: 0,
          rebased: session.revision !== base,
          message,
        },
        `${message} The diff ${edits.length} ${
          edits.length === 1 ? "edit" : "edits"
        } would make to pad "${id}":`,
        diff,
      );
    }
    const asked = gate.asks(destroys);
    const outcome = await gate.confirm(
      {
        padId: id,
        binding: {
          id,
          edits,
          base_revision: base,
          on_conflict: on_conflict ?? null,
        },
        content: session.text,
        revision: session.revision,
        message: `Apply ${edits.length} ${
          edits.length === 1 ? "edit" : "edits"
        } to pad "${id}" (${session.length} code points now), removing ${batch.deleted} code points${
          batch.replacesMany ? " across several occurrences" : ""
        }?`,
      },
      confirm_token,
      destroys,
    );
    if (outcome.status !== "confirmed") return notConfirmed(id, outcome);
    // What a person typed while being asked must not be overwritten.
    if (asked && on_conflict !== "merge") plan.refuseConflicts = true;
    const submitted = await submitPlan(gate, id, plan);
    if (submitted.kind === "conflict") {
      const latest = await context.sessions.get(id);
      return conflictResult(
        id,
        latest.revision,
        submitted.conflicts,
        true,
      );
    }
    const { written, diff, rebased } = submitted;
    return writtenResult(
      {
        status: "applied",
        id,
        url: padUrl(context, id),
        revision: written.revision,
        length: written.length,
        edits_applied: edits.length,
        rebased,
      },
      `Applied ${edits.length} ${
        edits.length === 1 ? "edit" : "edits"
      } to pad "${id}": it now has ${written.length} code points (revision ${written.revision})${
        rebased ? `, rebased over edits made since revision ${base}` : ""
      }.`,
      diff,
    );
  },
});
