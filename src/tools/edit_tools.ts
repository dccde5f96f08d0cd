/**
 * `edit_document`: a batch of exact-string and line edits, located in the
 * text the agent read and made as one operation rebased over whatever
 * people typed since.
 *
 * @module
 */

import { z } from "zod";
import { MAX_TEXT_LENGTH } from "../rustpad/protocol.ts";
import {
  type BatchEdit,
  BatchEditError,
  locateEdits,
} from "../text/batch_edits.ts";
import {
  checkBase,
  conflictResult,
  conflictsShape,
  onConflictSchema,
  type Plan,
  preview,
  refusal,
  submitPlan,
} from "./_at_base.ts";
import {
  confirmTokenSchema,
  countField,
  countSchema,
  flagSchema,
  objectSchema,
  padIdSchema,
  strictObjectSchema,
} from "./_shared.ts";
import {
  appliedResult,
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
  openWorldHint: true,
} as const;

const MAX_EDITS = 100;

/**
 * One edit, either form in one object (a union would list every field
 * twice); which form it is, and that it is whole, is checked by
 * {@linkcode toBatchEdit} with a sentence naming the edit. Strict, as the
 * arguments are: a mistyped key is refused, never dropped.
 */
const editSchema = strictObjectSchema({
  old_string: z.string().meta({ maxLength: MAX_TEXT_LENGTH }).optional()
    .describe("Exact text to replace."),
  new_string: z.string().meta({ maxLength: MAX_TEXT_LENGTH }).describe(
    "What to put there; '' deletes.",
  ),
  replace_all: flagSchema("Every match, not exactly one."),
  start_line: z.int().min(1).meta({ maximum: undefined }).optional()
    .describe("First line."),
  end_line: countSchema("Last line, inclusive.").optional(),
}).meta({
  additionalProperties: false,
  // Which fields each form needs, for clients (one form, never both);
  // toBatchEdit says it too. (new_string is in `required` already.)
  oneOf: [{ required: ["old_string"] }, {
    required: ["start_line", "end_line"],
  }],
});

/** An edit as parsed, checked into the form it is. */
function toBatchEdit(
  edit: z.output<typeof editSchema>,
  index: number,
): BatchEdit {
  const { old_string, new_string, replace_all, start_line, end_line } = edit;
  const lines = start_line !== undefined || end_line !== undefined;
  const cannot = `Cannot apply edits[${index}] as`;
  if ((old_string !== undefined) === lines) {
    throw new TypeError(
      `${cannot} it is ${
        lines ? "both" : "neither"
      } a string edit {old_string, new_string} ${
        lines ? "and" : "nor"
      } a line edit {start_line, end_line, new_string}: current keys are ${
        Object.keys(edit).join(", ")
      }. Nothing was changed`,
    );
  }
  if (old_string !== undefined) {
    if (old_string === "") {
      throw new TypeError(
        `${cannot} its old_string is empty: give the exact text to replace. Nothing was changed`,
      );
    }
    return { old_string, new_string, replace_all };
  }
  if (start_line === undefined || end_line === undefined) {
    throw new TypeError(
      `${cannot} a line edit needs both start_line and end_line: current value of ${
        start_line === undefined ? "start_line" : "end_line"
      } is missing. Nothing was changed`,
    );
  }
  if (replace_all !== undefined) {
    throw new TypeError(
      `${cannot} replace_all belongs to string edits, not line edits: drop it. Nothing was changed`,
    );
  }
  return { start_line, end_line, new_string };
}

/** `edit_document`. */
export const editDocumentTool: ToolDefinition = defineWriteTool({
  name: "edit_document",
  title: "Edit parts of a pad",
  description:
    "Apply edits to a pad all-or-nothing, for several changes or line ranges (one string: replace_in_document; at the end: append_to_document). Line edits: read_lines' numbers at base_revision (pass its revision), never shifted for earlier edits; end_line = start_line - 1 inserts before start_line. A line edit's non-empty new_string gets a final newline if none; your LF becomes CRLF in CRLF pads. Edits must not overlap; if one matches nowhere, or several places without replace_all, none apply. Asks your user first if a replace_all hits several places or it deletes over half the pad.",
  inputSchema: () =>
    objectSchema({
      id: padIdSchema,
      edits: z.array(editSchema).min(1).max(MAX_EDITS).describe(
        "Each: old_string or start_line+end_line, not both.",
      ),
      base_revision: countSchema(
        "Revision you read; edits refer to it ('conflict' if their text changed since). Omit: the pad now.",
      ).optional(),
      on_conflict: onConflictSchema,
      dry_run: flagSchema("Return the diff; send nothing."),
      confirm_token: confirmTokenSchema,
      idempotency_key: idempotencyKeySchema,
      avoid_people: avoidPeopleSchema,
    }),
  outputSchema: () =>
    objectSchema({
      ...writeOutputShape,
      status: writeStatus("unchanged", "dry_run", "conflict"),
      edits_applied: countField.optional(),
      rebased: z.boolean().optional().describe(
        "Whether others' changes since base_revision were merged in.",
      ),
      ...conflictsShape,
    }),
  annotations: ANNOTATIONS,
  async write(args, gate, context) {
    const { id, base_revision, on_conflict, confirm_token } = args;
    const edits = args.edits.map(toBatchEdit);
    const session = await context.sessions.get(id);
    const base = base_revision ?? session.revision;
    checkBase(
      session,
      base,
      base_revision === undefined ? undefined : context.sessions,
    );
    // Joined only if a string edit searches it (locateEdits).
    const baseText = session.serverBuffer(base);
    let batch;
    try {
      // At the live revision the length is known without counting.
      const length = base === session.revision
        ? session.serverLength
        : undefined;
      batch = locateEdits(baseText, edits, `at revision ${base}`, length);
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
    const refused = refusal(context, session, plan, true);
    if (refused) return refused;
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
        content: () => session.text,
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
    const submitted = await submitPlan(context, gate, id, plan);
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
    return appliedResult(
      context,
      id,
      written,
      `Applied ${edits.length} ${
        edits.length === 1 ? "edit" : "edits"
      } to pad "${id}": it now has ${written.length} code points (revision ${written.revision})${
        rebased ? `, rebased over edits made since revision ${base}` : ""
      }.`,
      diff,
      {
        edits_applied: edits.length,
        rebased,
      },
    );
  },
});
