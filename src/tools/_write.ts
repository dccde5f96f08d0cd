// What every write tool gets from one place: the permission gate
// (_gate.ts), the read-before-edit rule, idempotency keys (_idempotent.ts),
// the claim of what it wrote for its agent, and the result fields they
// share.

import type { z } from "zod";
import type { KeyedCall } from "../backend/state_store.ts";
import type { ConfirmationOutcome } from "../safety/confirmation.ts";
import type { Diff } from "../text/diff.ts";
import {
  claimLanded,
  NothingToChange,
  type WriteGate,
  writeGate,
} from "./_gate.ts";
import { idempotent } from "./_idempotent.ts";
import { QUOTED } from "./_write_shapes.ts";
import { SUGGEST_SHAPE, Suggested, suggests } from "./_suggest.ts";
export { idempotencyKeySchema } from "./_idempotent.ts";
export {
  type GateRequest,
  NothingToChange,
  type WriteGate,
  type WriteOutcome,
} from "./_gate.ts";
export {
  askedShape,
  QUOTED,
  quotedShape,
  writeOutputShape,
  writeStatus,
} from "./_write_shapes.ts";
import { nearbyAt, type PeopleNearby } from "./_presence.ts";
import {
  hasRead,
  markRead,
  objectSchema,
  padUrl,
  result,
  untrustedResult,
} from "./_shared.ts";
import {
  defineTool,
  type ToolCall,
  type ToolContext,
  type ToolDefinition,
  type ToolResult,
  type ToolSpec,
} from "./tool.ts";

/** The result of a write that had nothing to change; it sent nothing. */
export function unchangedResult(
  context: ToolContext,
  id: string,
  pad: { revision: number; length: number },
  why = "the call would change nothing",
): ToolResult {
  context.sessions.noteShown(id, pad.revision);
  return result(
    {
      status: "unchanged",
      id,
      url: padUrl(context, id),
      revision: pad.revision,
      length: pad.length,
      diff: "",
    },
    `Nothing to change in pad "${id}" as ${why}: nothing was sent, and the pad stays at revision ${pad.revision}.`,
  );
}

/** The arguments every write tool may take. */
export interface WriteArgs {
  id?: string | undefined;
  idempotency_key?: string | undefined;
  avoid_people?: boolean | undefined;
  suggest?: boolean | undefined;
  summary?: string | undefined;
}

/**
 * A write tool as its module states it: a {@linkcode ToolDefinition}
 * whose handler, `write`, gets a {@linkcode WriteGate} besides the context.
 */
export interface WriteToolDefinition<Input extends z.ZodRawShape>
  extends Omit<ToolSpec<Input>, "run"> {
  /**
   * Answer one call; ask through `gate.confirm` and write through
   * `gate.edit`.
   */
  write(
    args: z.output<z.ZodObject<Input>>,
    gate: WriteGate,
    context: ToolContext,
    call: ToolCall,
  ): Promise<ToolResult>;
}

/**
 * Define a write tool: the read-before-edit rule is enforced,
 * `idempotency_key` replays the first outcome, an applied write names who
 * was at the change, and the handler gets a {@linkcode WriteGate} that asks
 * a person as the permission mode and the tool's annotations say.
 *
 * @param definition The tool, with `write` for its work.
 * @returns The tool definition.
 *
 * @example
 * ```ts ignore
 * export const undoLastEdit = defineWriteTool({
 *   name: "undo_last_edit", ..., annotations: UNDO_ANNOTATIONS,
 *   async write(args, gate, context) {
 *     const outcome = await gate.confirm(request, args.confirm_token, true);
 *     ...
 *     const written = await gate.edit(args.id, (session) => operation);
 *   },
 * });
 * ```
 */
export function defineWriteTool<Input extends z.ZodRawShape>(
  definition: WriteToolDefinition<Input>,
): ToolDefinition<Input> {
  const { write, ...listed } = definition;
  type Args = z.output<z.ZodObject<Input>> & WriteArgs;
  const run = async (
    args: Args,
    context: ToolContext,
    call: ToolCall,
    keyed: KeyedCall | undefined,
  ): Promise<ToolResult> => {
    const { id } = args;
    if (
      id !== undefined && context.config.requireRead && !hasRead(context, id)
    ) {
      const session = await context.sessions.get(id);
      if (session.length > 0) {
        throw new Error(
          `Cannot write to pad "${id}" as this identity (this process, or this bearer token) has not read it and RUSTPAD_REQUIRE_READ is on: current length is ${session.length} code points. Nothing was changed; read it with get_document, read_lines, search_document or get_document_info, then call again`,
        );
      }
    }
    const suggest = suggests(context, args);
    const gate = writeGate(
      context,
      call,
      definition,
      definition.annotations,
      {
        avoidPeople: args.avoid_people === true,
        suggest,
        ...(args.summary !== undefined && { summary: args.summary }),
      },
      keyed,
    );
    // A mistyped id names an empty pad, which the write creates: say so.
    const wasEmpty = id !== undefined &&
      definition.name !== "create_document" &&
      (await context.sessions.get(id)).length === 0;
    let result;
    try {
      result = await write(args, gate, context, call);
    } catch (error) {
      if (error instanceof Suggested) {
        return withPeopleNearby(suggestedResult(context, error), error.nearby);
      }
      if (error instanceof NothingToChange && id !== undefined) {
        return unchangedResult(context, id, error);
      }
      throw landedBefore(gate, error);
    } finally {
      await claimLanded(context, gate);
    }
    const written = result.structuredContent as {
      id?: unknown;
      status?: unknown;
      revision?: unknown;
    };
    try {
      if (
        written.status === "applied" && typeof written.id === "string" &&
        typeof written.revision === "number"
      ) {
        result = withPeopleNearby(
          result,
          await nearbyAt(context, written.id, written.revision),
        );
      }
      if (written.status === "applied" && wasEmpty) {
        result = {
          structuredContent: { ...result.structuredContent, new_pad: true },
          text: [
            ...result.text,
            `Pad "${id}" was empty before this write; if it should have had text, check the id.`,
          ],
        };
      }
      if (written.status === "applied" && typeof written.id === "string") {
        // What this connection wrote, it has seen.
        markRead(context, written.id);
        result = await withEditId(context, gate, written.id, result);
      }
    } catch (error) {
      throw landedBefore(gate, error);
    }
    return result;
  };
  return defineTool({
    ...listed,
    // A tool may word its own `suggest` (create_document: nobody is in a
    // new pad yet).
    inputSchema: () => {
      const own = listed.inputSchema().shape as z.ZodRawShape;
      return objectSchema({
        ...own,
        ...SUGGEST_SHAPE,
        ...(own.suggest !== undefined && { suggest: own.suggest }),
      }) as unknown as z.ZodObject<Input>;
    },
    run: (args, context, call) =>
      idempotent(
        context,
        definition.name,
        args as Args,
        (args, keyed) => run(args, context, call, keyed),
      ),
  });
}

/** The result for a confirmation that did not end in "go ahead". */
export function notConfirmed(
  id: string,
  outcome: Exclude<ConfirmationOutcome, { status: "confirmed" }>,
  extra: Record<string, unknown> = {},
): ToolResult {
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

/**
 * A write's result: the structured answer with `diff` (which marks where
 * it was cut), and a text block with the summary and the diff fenced as
 * untrusted (it quotes pad text).
 */
export function writtenResult(
  structured: Record<string, unknown> & { id: string },
  summary: string,
  diff: Diff,
): ToolResult {
  const content = {
    ...structured,
    diff: diff.diff,
    ...(diff.truncated && { diff_truncated: true }),
    ...(diff.diff !== "" && QUOTED),
  };
  if (diff.diff === "") return result(content, summary);
  return untrustedResult(content, summary, diff.diff, `pad "${structured.id}"`);
}

/**
 * An applied write's result: the pad's url, revision and length after it,
 * what else the tool reports (`extra`), and the diff.
 */
export function appliedResult(
  context: ToolContext,
  id: string,
  pad: { revision: number; length: number },
  summary: string,
  diff: Diff,
  extra: Record<string, unknown> = {},
): ToolResult {
  return writtenResult(
    {
      status: "applied",
      id,
      url: padUrl(context, id),
      revision: pad.revision,
      length: pad.length,
      ...extra,
    },
    summary,
    diff,
  );
}

/**
 * `error` as it must be told when `gate` had already landed an edit: never
 * "nothing was changed" (a model would write it again), but where it is.
 */
function landedBefore(gate: WriteGate, error: unknown): unknown {
  const last = gate.landed.at(-1);
  if (last === undefined || !(error instanceof Error)) return error;
  return new Error(
    `${error.message}. This came after the edit had landed on pad "${last.padId}" at revision ${last.outcome.revision}: it is in the pad, so do not write it again; read the pad before going on`,
    { cause: error },
  );
}

/**
 * The result of a write held as a suggestion: its id, the revision it was
 * made on, and the diff it would make there.
 */
function suggestedResult(context: ToolContext, held: Suggested): ToolResult {
  const { record } = held;
  const message =
    `Held as suggestion ${record.id} for the people in pad "${record.pad}": nothing changes unless someone accepts it (it expires in ${context.config.suggestTtlS} s). wait_for_change reports their decision; list_suggestions shows it.`;
  return writtenResult(
    {
      status: "suggested",
      id: record.pad,
      url: padUrl(context, record.pad),
      suggestion_id: record.id,
      revision: record.revision,
      length: held.length,
      message,
    },
    message,
    { diff: record.diff, truncated: false },
  );
}

/**
 * Add the `edit_id` of the last edit `gate` landed on `padId` to an applied
 * write's result: signed, naming the identity, the pad, the revision, the
 * connection that sent it and the digests that tell it apart after a restart.
 */
async function withEditId(
  context: ToolContext,
  gate: WriteGate,
  padId: string,
  result: ToolResult,
): Promise<ToolResult> {
  const last = gate.landed.findLast((landed) =>
    landed.padId === padId && landed.outcome.mark !== undefined
  );
  if (last === undefined) return result;
  const editId = await context.backend.editIds.issue({
    identity: context.identity,
    padId,
    revision: last.outcome.at! + 1,
    author: String(last.outcome.author),
    ...last.outcome.mark!,
  });
  return {
    structuredContent: { ...result.structuredContent, edit_id: editId },
    text: [...result.text, `edit_id: ${editId}`],
  };
}

/** Add who was at the change to an applied write's result, if anyone. */
function withPeopleNearby(
  result: ToolResult,
  nearby: PeopleNearby,
): ToolResult {
  if (nearby.people_nearby === undefined) return result;
  return {
    structuredContent: {
      ...result.structuredContent,
      people_nearby: nearby.people_nearby,
      ...QUOTED,
    },
    text: [...result.text, ...nearby.note],
  };
}
