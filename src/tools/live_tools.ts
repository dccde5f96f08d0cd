/**
 * The tools that make the agent a collaborator in time: `wait_for_change`
 * (hear what people do) and `undo_last_edit` (take back its own edit and
 * keep theirs).
 *
 * @module
 */

import { z } from "zod";
import { type Diff, unifiedDiff } from "../text/diff.ts";
import { LivePads } from "../backend/live_pads.ts";
import type { LoggedOperation } from "../rustpad/revision_log.ts";
import type { PadSession } from "../rustpad/session.ts";
import type { EditOutcome } from "../rustpad/session_pool.ts";
import type { UserId } from "../rustpad/protocol.ts";
import {
  defineWriteTool,
  idempotencyKeySchema,
  notConfirmed,
  writeOutputShape,
  writtenResult,
} from "./_write.ts";
import {
  confirmTokenSchema,
  countField,
  countSchema,
  objectSchema,
  padIdSchema,
  padUrl,
  result,
  untrustedResult,
} from "./_shared.ts";
import { MAX_PEOPLE_LISTED } from "./_presence.ts";
import { waitForChange } from "./_wait.ts";
import { defineTool, type ToolDefinition } from "./tool.ts";

/** `wait_for_change`. */
export const waitForChangeTool: ToolDefinition = defineTool({
  name: "wait_for_change",
  title: "Wait for people to change a pad",
  description:
    "Wait until people change a pad, then return who changed it and the diff since since_revision: with until 'change' at the first new revision, with 'quiet' once changes have stopped for quiet_ms (a person finished typing), or at timeout_seconds. Use it instead of polling get_document; a client that can subscribe to the resource rustpad://pad/{id} is notified without a call. Changes nothing but joins the pad; cancelling the request ends the wait. Fails if since_revision is ahead of the pad.",
  inputSchema: objectSchema({
    id: padIdSchema,
    since_revision: countSchema("A revision from an earlier result."),
    until: z.enum(["change", "quiet"]).default("change").describe(
      "When to return.",
    ),
    quiet_ms: countSchema("With 'quiet': the pause that counts as done.")
      .default(1500),
    timeout_seconds: z.number().min(0).max(600).default(60).describe(
      "Give up after this long.",
    ),
  }),
  outputSchema: objectSchema({
    id: z.string(),
    changed: z.boolean(),
    timed_out: z.boolean(),
    revision: countField,
    diff: z.string(),
    authors: z.array(objectSchema({
      name: z.string(),
      self: z.boolean().describe("This agent's own edit."),
    })),
    more_authors: countField.optional(),
    untrusted: z.literal(true),
  }),
  annotations: {
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: false,
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
    });
    const { session } = outcome;
    const since = args.since_revision;
    let diff = "";
    const authors: { name: string; self: boolean }[] = [];
    let moreAuthors = 0;
    if (outcome.changed) {
      const entries = operationsSince(session, since);
      diff = diffOf(session, since, entries);
      const seen = new Set<string>();
      for (const entry of entries) {
        const name = live.authorName(args.id, entry.author);
        const self = live.isOwn(args.id, entry.author);
        if (seen.has(`${self}:${name}`)) continue;
        seen.add(`${self}:${name}`);
        if (authors.length < MAX_PEOPLE_LISTED) authors.push({ name, self });
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
      untrusted: true,
    };
    const summary = outcome.changed
      ? `Pad "${args.id}" changed from revision ${since} to ${session.revision}${
        outcome.timedOut ? " (still changing at the timeout)" : ""
      }; authors${
        moreAuthors > 0
          ? ` (the first ${authors.length}, ${moreAuthors} more)`
          : ""
      } and diff:`
      : `Pad "${args.id}" did not change after revision ${since} within ${args.timeout_seconds} s.`;
    if (!outcome.changed) return result(structured, summary);
    return untrustedResult(
      structured,
      summary,
      `${JSON.stringify(authors.map((author) => author.name))}\n${diff}`,
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
  openWorldHint: false,
} as const;

/** `undo_last_edit`. */
export const undoLastEditTool: ToolDefinition = defineWriteTool({
  name: "undo_last_edit",
  title: "Undo this agent's last edit",
  description:
    "Revert this server's most recent edit to a pad (from any write tool), keeping what people typed since; call again to go further back. Use it to take back your own change rather than editing it away; it never undoes what people wrote. Fails, changing nothing, when this server process has no edit of its own left there, the pad's history no longer holds it, or people deleted all it wrote (that edit is then skipped).",
  inputSchema: objectSchema({
    id: padIdSchema,
    confirm_token: confirmTokenSchema,
    idempotency_key: idempotencyKeySchema,
  }),
  outputSchema: objectSchema({
    ...writeOutputShape,
    undone_revision: countField.optional(),
    remaining: countField.optional().describe("Own edits still undoable."),
  }),
  annotations: UNDO_ANNOTATIONS,
  async write({ id, confirm_token }, gate, context) {
    const live = LivePads.of(context.sessions);
    const before = await context.sessions.get(id);
    // Refuses (nothing left, history gone) before asking anyone.
    const preview = live.undo.rebuild(id, before);
    const undone = live.undo.latest(id)!;
    if (preview.isNoop()) {
      throw emptied(live, id, undone, before.revision);
    }
    const asked = await gate.confirm(
      {
        padId: id,
        binding: { id, undone_revision: undone },
        content: before.text,
        revision: before.revision,
        message:
          `Undo this agent's edit at revision ${undone} on pad "${id}" (${before.length} code points now)?`,
      },
      confirm_token,
      false,
    );
    if (asked.status !== "confirmed") return notConfirmed(id, asked);
    let sent: { author: UserId; revision: number } | undefined;
    let outcome: EditOutcome;
    try {
      outcome = await gate.edit(id, (session) => {
        const latest = live.undo.latest(id);
        if (latest !== undone) {
          throw new Error(
            `Cannot undo the edit at revision ${undone} on pad "${id}" as the undo list changed meanwhile: current latest edit is at revision ${latest}. Nothing was changed; call again`,
          );
        }
        const operation = session.rebase(
          live.undo.rebuild(id, session),
          session.revision,
        );
        if (operation.isNoop()) throw new EmptyUndo(session.revision);
        sent = { author: session.userId, revision: session.revision };
        return operation;
      });
    } catch (error) {
      if (!(error instanceof EmptyUndo)) throw error;
      throw emptied(live, id, undone, error.revision);
    }
    const session = await context.sessions.get(id);
    const at = outcome.recovered
      ? landedAt(session, sent!)
      : outcome.revision - 1;
    if (at !== undefined) live.undo.markUndo(id, at, sent!.author, undone);
    const remaining = live.undo.count(id);
    return writtenResult(
      {
        status: "applied",
        id,
        url: padUrl(context, id),
        revision: outcome.revision,
        length: outcome.length,
        undone_revision: undone,
        remaining,
      },
      `Reverted this server's edit at revision ${undone} on pad "${id}" (now revision ${outcome.revision}; ${remaining} more undoable).`,
      at === undefined ? { diff: "", truncated: false } : diffAt(session, at),
    );
  },
});

/** An undo found empty while building it, at `revision`. */
class EmptyUndo extends Error {
  constructor(readonly revision: number) {
    super("Nothing to undo");
  }
}

/**
 * Take an edit whose undo would change nothing off the list, and say so:
 * people deleted all it wrote.
 */
function emptied(
  live: LivePads,
  id: string,
  undone: number,
  revision: number,
): Error {
  live.undo.drop(id, undone, revision);
  return new Error(
    `Cannot undo this server's edit at revision ${undone} on pad "${id}" as all it wrote has since been deleted: current revision is ${revision}. Nothing was changed; the edit is off the undo list, so calling again undoes the one before it (${
      live.undo.count(id)
    } left)`,
  );
}

/**
 * Where a recovered undo landed: the first operation by the connection
 * that sent it, from the revision it was built on.
 */
function landedAt(
  session: PadSession,
  sent: { author: UserId; revision: number },
): number | undefined {
  const from = Math.max(sent.revision, session.oldestRevision);
  if (from > session.revision) return undefined;
  return session.operationsSince(from)
    .find((entry) => entry.author === sent.author)?.revision;
}

/** The diff the operation at `revision` made; empty if no longer kept. */
function diffAt(session: PadSession, revision: number): Diff {
  try {
    const [entry] = session.operationsSince(revision);
    if (entry) return unifiedDiff(session.textAt(revision), entry.operation);
  } catch {
    // Too old to rebuild: the result says so by an empty diff.
  }
  return { diff: "", truncated: false };
}
