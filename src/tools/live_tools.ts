/**
 * The tools that make the agent a collaborator in time: `wait_for_change`
 * (hear what people do) and `undo_last_edit` (take back its own edit and
 * keep theirs).
 *
 * @module
 */

import { z } from "zod";
import { unifiedDiff } from "../text/diff.ts";
import { LivePads } from "../backend/live_pads.ts";
import type { LoggedOperation } from "../rustpad/revision_log.ts";
import type { PadSession } from "../rustpad/session.ts";
import {
  appliedResult,
  defineWriteTool,
  idempotencyKeySchema,
  notConfirmed,
  writeOutputShape,
} from "./_write.ts";
import {
  confirmTokenSchema,
  countField,
  countSchema,
  objectSchema,
  padIdSchema,
  result,
  untrustedResult,
} from "./_shared.ts";
import { MAX_PEOPLE_LISTED } from "./_presence.ts";
import { Suggested } from "./_suggest.ts";
import { waitForChange } from "./_wait.ts";
import { decisionWake, takeDecisions } from "./_decisions.ts";
import {
  deletedBy,
  lastOwnEdit,
  namedEdit,
  refuseSuggestedTwice,
  undoQuestion,
} from "./_undo.ts";
import { defineTool, type ToolDefinition } from "./tool.ts";

/**
 * How long `wait_for_change` waits by default: under the 60-second request
 * timeout of the SDK and most hosts, so a plain call answers before its
 * client gives up on it.
 */
const DEFAULT_WAIT_SECONDS = 50;

/** `wait_for_change`. */
export const waitForChangeTool: ToolDefinition = defineTool({
  name: "wait_for_change",
  title: "Wait for a pad to change",
  description:
    "Long-poll until a pad changes after since_revision (your edits count) or one of your suggestions is decided; returns the diff since then, authors and decisions (each reported once; last hour's: list_suggestions). Else timed_out at timeout_seconds (many clients cut at 60 s). Line authors: get_changes.",
  inputSchema: () =>
    objectSchema({
      id: padIdSchema,
      since_revision: countSchema("A revision from an earlier result."),
      until: z.enum(["change", "quiet"]).default("change").describe(
        "'change': next revision (at once if past); 'quiet': a change, then a quiet_ms pause.",
      ),
      quiet_ms: countSchema("With 'quiet': the pause.")
        .default(1500),
      timeout_seconds: z.number().min(0).max(600).default(
        DEFAULT_WAIT_SECONDS,
      ).describe("Seconds before giving up."),
    }),
  outputSchema: () =>
    objectSchema({
      id: z.string(),
      changed: z.boolean(),
      timed_out: z.boolean().describe(
        "With changed: 'quiet' timed out while people still typed (the diff is there). Alone: nothing happened. Both false: a decision on a suggestion ended the wait.",
      ),
      revision: countField.describe(
        "The pad's revision; pass as since_revision to wait again.",
      ),
      diff: z.string().describe(
        "Unified diff, cut at 200 lines, long lines shortened (both marked: never write them back); the text: get_document.",
      ),
      authors: z.array(objectSchema({
        name: z.string(),
        self: z.boolean().describe("Your own edit."),
      })),
      more_authors: countField.optional(),
      decisions: z.array(objectSchema({
        suggestion_id: z.string(),
        status: z.string().describe(
          "'accepted' (applied), 'rejected', 'outdated' or 'expired'.",
        ),
        decided_by: z.string().optional(),
        landed_revision: countField.optional(),
        reason: z.string().optional().describe("Why outdated or expired."),
      })).optional().describe(
        "Your suggestions decided since a wait last reported them.",
      ),
      untrusted: z.literal(true),
      source: z.literal("rustpad"),
    }),
  annotations: {
    readOnlyHint: true,
    destructiveHint: false,
    // Each decision on a suggestion is reported once: a repeat differs.
    idempotentHint: false,
    openWorldHint: true,
  },
  async run(args, context, call) {
    const live = LivePads.of(context.sessions);
    const outcome = await waitForChange(live, {
      padId: args.id,
      sinceRevision: args.since_revision,
      until: args.until,
      quietMs: args.quiet_ms,
      timeoutMs: args.timeout_seconds * 1000,
      signal: call.signal,
      holds: context.holds,
      progress: call.progress,
      also: decisionWake(context, args.id),
    });
    const decisions = await takeDecisions(context, args.id);
    const { session } = outcome;
    const since = args.since_revision;
    let diff = "";
    const authors: { name: string; self: boolean }[] = [];
    let moreAuthors = 0;
    if (outcome.changed) {
      const entries = operationsSince(session, since);
      diff = diffOf(session, since, entries);
      await live.learnAuthors(args.id, entries.map((entry) => entry.author));
      const seen = new Set<string>();
      for (const entry of entries) {
        const author = live.describeAuthor(
          args.id,
          entry.author,
          entry.revision,
          context.agent,
        );
        if (seen.has(`${author.self}:${author.name}`)) continue;
        seen.add(`${author.self}:${author.name}`);
        if (authors.length < MAX_PEOPLE_LISTED) authors.push(author);
        else moreAuthors++;
      }
    }
    const structured = {
      id: args.id,
      changed: outcome.changed,
      timed_out: outcome.timedOut,
      revision: session.revision,
      diff,
      authors,
      ...(moreAuthors > 0 && { more_authors: moreAuthors }),
      ...(decisions.length > 0 && { decisions }),
      untrusted: true,
      source: "rustpad",
    };
    const summary = outcome.changed
      ? `Pad "${args.id}" changed from revision ${since} to ${session.revision}${
        outcome.timedOut ? " (still changing at the timeout)" : ""
      }; authors${
        moreAuthors > 0
          ? ` (the first ${authors.length}, ${moreAuthors} more)`
          : ""
      } and diff:`
      : decisions.length > 0
      ? `Pad "${args.id}" is still at revision ${session.revision}; people decided on your suggestions:`
      : `Pad "${args.id}" did not change after revision ${since} within ${args.timeout_seconds} s.`;
    const decided = decisions.length === 0
      ? ""
      : `\nDecisions on your suggestions: ${JSON.stringify(decisions)}`;
    if (!outcome.changed && decided === "") return result(structured, summary);
    return untrustedResult(
      structured,
      summary,
      // Only decisions: no authors' list and no diff to show.
      outcome.changed
        ? `${
          JSON.stringify(authors.map((author) => author.name))
        }\n${diff}${decided}`
        : decided.trimStart(),
      `pad "${args.id}" (people's names and text)`,
    );
  },
});

/** The operations since `since`, or none if they are no longer kept. */
function operationsSince(
  session: PadSession,
  since: number,
): readonly LoggedOperation[] {
  try {
    return session.operationsSince(since);
  } catch {
    return [];
  }
}

/** The diff `entries` made from revision `since`; empty if not kept. */
function diffOf(
  session: PadSession,
  since: number,
  entries: readonly LoggedOperation[],
): string {
  const [first, ...rest] = entries;
  if (!first) return "";
  const change = rest.reduce(
    (composed, entry) => composed.compose(entry.operation),
    first.operation,
  );
  return unifiedDiff(session.textAt(since), change).diff;
}

const UNDO_ANNOTATIONS = {
  readOnlyHint: false,
  destructiveHint: true,
  idempotentHint: false,
  openWorldHint: true,
} as const;

/** `undo_last_edit`. */
export const undoLastEditTool: ToolDefinition = defineWriteTool({
  name: "undo_last_edit",
  title: "Undo your last edit",
  description:
    "Undo your latest text write to a pad (or the one edit_id names; an undo's edit_id redoes); call again to go further back. Not for others' edits (edit_document) or pending suggestions (withdraw_suggestion); accepted ones count as yours. Fails if you have no edit left there, or others changed its text since. Asks your user first if it deletes over half the pad.",
  inputSchema: () =>
    objectSchema({
      id: padIdSchema,
      edit_id: z.string().optional().describe(
        "From a write's result: undo that edit instead.",
      ),
      confirm_token: confirmTokenSchema,
      idempotency_key: idempotencyKeySchema,
    }),
  outputSchema: () =>
    objectSchema({
      ...writeOutputShape,
      undone_revision: countField.optional().describe(
        "The revision the undone edit's write reported.",
      ),
      remaining: countField.optional().describe(
        "Your edits (this identity's) still undoable on this pad.",
      ),
    }),
  annotations: UNDO_ANNOTATIONS,
  async write({ id, edit_id, confirm_token }, gate, context) {
    const live = LivePads.of(context.sessions);
    const before = await context.sessions.get(id);
    const target = edit_id === undefined
      ? lastOwnEdit(context, live, id, before)
      : await namedEdit(context, live, id, edit_id);
    const { undone, owner } = target;
    if (gate.suggests && owner !== undefined) {
      await refuseSuggestedTwice(context, live, id, owner, undone);
    }
    const preview = target.build(before);
    if (preview.isNoop()) throw target.emptied(before.revision);
    const asked = await gate.confirm(
      {
        padId: id,
        binding: { id, undone_revision: undone + 1 },
        content: () => before.text,
        revision: before.revision,
        message: undoQuestion(id, undone, preview),
      },
      confirm_token,
      before.length > 0 && deletedBy(preview) * 2 > before.length,
    );
    if (asked.status !== "confirmed") return notConfirmed(id, asked);
    let written;
    try {
      written = await gate.edit(id, (session) => {
        const operation = target.build(session);
        if (operation.isNoop()) throw new EmptyUndo(session.revision);
        return operation;
      }, "undo");
    } catch (error) {
      // Held for the people in the pad: accepted, it is this undo.
      if (error instanceof Suggested && owner !== undefined) {
        live.undo.holdUndo(error.record.id, owner, undone);
      }
      if (!(error instanceof EmptyUndo)) throw error;
      throw target.emptied(error.revision);
    }
    if (written.at !== undefined && owner !== undefined) {
      live.undo.markUndo(owner, id, written.at, written.author, undone);
    }
    const remaining = live.undo.count(context.agent, id);
    return appliedResult(
      context,
      id,
      written,
      `Undid your edit of revision ${
        undone + 1
      } on pad "${id}" (now revision ${written.revision}; ${remaining} more of yours undoable).`,
      written.diff,
      {
        undone_revision: undone + 1,
        remaining,
      },
    );
  },
});

/** An undo found empty while building it, at `revision`. */
class EmptyUndo extends Error {
  constructor(readonly revision: number) {
    super("Nothing to undo");
  }
}
