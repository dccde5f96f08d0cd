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
import { MAX_TEXT_LENGTH } from "../rustpad/protocol.ts";
import { codePointLength } from "../ot/code_points.ts";
import { findOccurrences, replaceAllOperation } from "../text/edits.ts";
import {
  findReplacements,
  replacedRanges,
  type Replacement,
  replacementsOperation,
} from "../text/replacements.ts";
import { loadSearchEngine } from "../text/search.ts";
import type { PadSession } from "../rustpad/session.ts";
import { notFoundHint, withoutLineNumbers } from "../text/lines.ts";
import {
  baseRevisionSchema,
  checkBase,
  conflictsShape,
  type Plan,
  refusal,
  replacedRange,
  writeAtBaseOr,
} from "./_at_base.ts";
import {
  checkResultLength,
  confirmTokenSchema,
  countField,
  flagSchema,
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
import { deletedBy } from "./_undo.ts";
import type { ToolDefinition } from "./tool.ts";

// Not idempotent: with suggest: true, each call holds another suggestion.
const SET_ANNOTATIONS = {
  readOnlyHint: false,
  destructiveHint: true,
  idempotentHint: false,
  openWorldHint: true,
} as const;

const REPLACE_ANNOTATIONS = SET_ANNOTATIONS;

/** Whether `search` without `read_lines` prefixes occurs in `text`. */
function occursWithoutLineNumbers(text: string, search: string): boolean {
  const stripped = withoutLineNumbers(search);
  return stripped !== undefined && stripped !== "" &&
    findOccurrences(text, stripped).length > 0;
}

/** What to try when nothing matched. */
function notFound(
  text: string,
  search: string,
  options: { regex: boolean; whole_word: boolean },
): string {
  if (options.regex) {
    return "check it with search_document (regex: true), which shows what it finds";
  }
  if (options.whole_word) {
    const inside = findOccurrences(text, search).length;
    if (inside > 0) {
      return `it occurs ${inside} ${
        inside === 1 ? "time" : "times"
      } only inside longer words; drop whole_word to replace there`;
    }
  }
  return notFoundHint(search, occursWithoutLineNumbers(text, search));
}

/** How many code points `replacements` add to `text` (negative: remove). */
function lengthChange(
  text: string,
  replacements: readonly Replacement[],
): number {
  let change = 0;
  for (const { start, end, text: inserted } of replacements) {
    change += codePointLength(inserted) -
      codePointLength(text.slice(start, end));
  }
  return change;
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
    "Replace a pad's whole text (LF stays LF in CRLF pads). Parts: edit_document, replace_in_document. Asks your user first on a non-empty pad; fails if it changes while they decide (reread, retry).",
  inputSchema: () =>
    objectSchema({
      id: padIdSchema,
      text: textSchema("The pad's complete new text."),
      base_revision: baseRevisionSchema.describe(
        "Revision you read; 'conflict' if the pad changed since. Omit: replaces newer typing too.",
      ),
      confirm_token: confirmTokenSchema,
      idempotency_key: idempotencyKeySchema,
    }),
  outputSchema: () =>
    objectSchema({
      ...writeOutputShape,
      status: writeStatus("unchanged", "conflict"),
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
      checkBase(session, base_revision, context.sessions);
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
        content: () => current,
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
    "Replace matched text in a pad: an exact string (LF matches CRLF) or a regex; your LF becomes CRLF in CRLF pads. Several edits or line ranges: edit_document. Fails if nothing matches, or several do without replace_all. Asks your user first if replace_all hits several places or it deletes over half the pad.",
  inputSchema: () =>
    objectSchema({
      id: padIdSchema,
      search: z.string().min(1, {
        error:
          "Cannot call replace_in_document as search is empty: give the exact text to replace",
      }).meta({ minLength: undefined, maxLength: MAX_TEXT_LENGTH }).describe(
        "Exact text, or a regex with regex.",
      ),
      replace: textSchema("Its replacement, literal unless regex; '' deletes."),
      replace_all: flagSchema("Replace every match."),
      whole_word: flagSchema(
        "Skip matches inside words, regex too.",
      ),
      regex: flagSchema(
        "search is RE2, ^ $ per line (CRLF pads: . matches \\r, so write [^\\r\\n]* and \\r?$, \\r?\\n; (?i): any case); replace takes $1, $<name>, $&, $$.",
      ),
      base_revision: baseRevisionSchema,
      confirm_token: confirmTokenSchema,
      idempotency_key: idempotencyKeySchema,
      avoid_people: avoidPeopleSchema,
    }),
  outputSchema: () =>
    objectSchema({
      ...writeOutputShape,
      status: writeStatus("unchanged", "conflict"),
      replacements: countField.optional().describe(
        "Matches replaced, or to be replaced.",
      ),
      ...conflictsShape,
    }),
  annotations: REPLACE_ANNOTATIONS,
  async write(args, gate, context) {
    const { id, search, replace, base_revision, confirm_token } = args;
    const replace_all = args.replace_all ?? false;
    const regex = args.regex ?? false;
    const whole_word = args.whole_word ?? false;
    const options = { regex, wholeWord: whole_word };
    if (regex) await loadSearchEngine();
    const session = await context.sessions.get(id);
    const current = session.text;
    if (base_revision !== undefined) {
      checkBase(session, base_revision, context.sessions);
    }
    const searched = base_revision === undefined
      ? current
      : session.textAt(base_revision);
    const where = base_revision === undefined
      ? ""
      : ` at revision ${base_revision}`;
    const found = findReplacements(searched, search, replace, options);
    const count = found.length;
    const what = regex ? "the pattern matches" : "the search text occurs";
    if (count === 0) {
      throw new Error(
        `Cannot replace in pad "${id}" as ${
          regex
            ? "the pattern matches nothing"
            : "the search text does not occur"
        }${where}: ${
          notFound(searched, search, { regex, whole_word })
        }. Nothing was changed`,
      );
    }
    if (count > 1 && !replace_all) {
      throw new Error(
        `Cannot replace in pad "${id}" as ${what} ${count} times${where}: make search ${
          regex ? "narrower" : "longer"
        } so it matches exactly once, or pass replace_all: true`,
      );
    }
    checkResultLength(
      id,
      session.length,
      session.length + lengthChange(searched, found),
    );
    const operation = replacementsOperation(searched, found);
    // As edit_document: one match that deletes over half the pad asks too.
    const deleted = deletedBy(operation);
    const destroys = count > 1 ||
      (operation.baseLength > 0 && deleted * 2 > operation.baseLength);
    let plan: Plan | undefined;
    if (base_revision !== undefined) {
      plan = {
        base: base_revision,
        operation,
        ranges: replacedRanges(searched, found).map((range) => ({
          edit: 0,
          ...range,
        })),
        refuseConflicts: true,
      };
      const refused = refusal(context, session, plan);
      if (refused) return refused;
    }
    const outcome = await gate.confirm(
      {
        padId: id,
        binding: {
          id,
          search,
          replace,
          replace_all,
          regex: regex,
          whole_word,
          count,
          base_revision,
        },
        content: () => current,
        revision: session.revision,
        message: count > 1
          ? `Replace all ${count} matches of the ${
            regex ? "pattern" : "search text"
          } in pad "${id}" (${session.length} code points now)?`
          : `Replace one match of the ${
            regex ? "pattern" : "search text"
          } in pad "${id}" (${session.length} code points now), removing ${deleted} code points?`,
      },
      confirm_token,
      destroys,
    );
    if (outcome.status !== "confirmed") {
      return notConfirmed(id, outcome, { replacements: count });
    }
    const write = await writeAtBaseOr(context, gate, id, plan, (live) => {
      if (destroys) checkUnchanged(live, id, current);
      const now = findReplacements(live.text, search, replace, options);
      if (now.length !== count) {
        throw new Error(
          `Cannot replace in pad "${id}" as ${what} ${now.length} times now instead of ${count}: nothing was changed; call again`,
        );
      }
      return replacementsOperation(live.text, now);
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
