// What every write tool gets from one place: the permission gate (who asks a
// person, from the tool's destructiveHint and RUSTPAD_CONFIRM), the
// read-before-edit rule, idempotency keys (_idempotent.ts), and the result
// fields they share.

import { z } from "zod";
import type {
  ConfirmationOutcome,
  ConfirmationRequest,
} from "../safety/confirmation.ts";
import type { Diff } from "../text/diff.ts";
import type { TextOperation } from "../ot/operation.ts";
import type { PadSession } from "../rustpad/session.ts";
import type { EditOutcome } from "../rustpad/session_pool.ts";
import { idempotent } from "./_idempotent.ts";
import { refuseLoneSurrogates } from "./_lone_surrogates.ts";
export { idempotencyKeySchema } from "./_idempotent.ts";
import { checkAvoidPeople, nearbyAt, nearbySchema } from "./_presence.ts";
import {
  confirm,
  countField,
  hasRead,
  markRead,
  result,
  untrustedResult,
} from "./_shared.ts";
import type {
  ToolCall,
  ToolContext,
  ToolDefinition,
  ToolResult,
} from "./tool.ts";

/** A write tool's way to ask a person and to write. */
export interface WriteGate {
  /**
   * Ask a person first if the permission mode says so: under `always`,
   * always; under `never`, never; under `destructive`, when the tool is
   * annotated destructive and `destroys` (the tool's own rule) holds.
   *
   * @param request What to ask, without the tool name.
   * @param token The caller's `confirm_token`, if any.
   * @param destroys Whether this call destroys what people wrote.
   * @returns The outcome; write only on `confirmed`.
   */
  confirm(
    request: Omit<ConfirmationRequest, "tool">,
    token: string | undefined,
    destroys: boolean,
  ): Promise<ConfirmationOutcome>;
  /** Whether {@linkcode WriteGate.confirm} would ask a person. */
  asks(destroys: boolean): boolean;
  /**
   * Submit an edit through the session pool. Refuses, sending nothing, if
   * the mode requires this tool to consult {@linkcode WriteGate.confirm}
   * and it has not (a new tool cannot write past the permission mode), or
   * if the edit inserts half of a surrogate pair, which Rustpad hangs up on.
   */
  edit(
    padId: string,
    build: (session: PadSession) => TextOperation,
  ): Promise<EditOutcome>;
}

/** The annotations that decide asking; the tool's own constant. */
export interface WriteAnnotations {
  readonly destructiveHint: boolean;
}

function gate(
  context: ToolContext,
  call: ToolCall,
  tool: string,
  annotations: WriteAnnotations,
  avoidPeople: boolean,
): WriteGate {
  const mode = context.config.confirm;
  const mustConsult = mode === "always" ||
    (mode === "destructive" && annotations.destructiveHint);
  let consulted = false;
  const asks = (destroys: boolean): boolean =>
    mode === "always" ||
    (mode === "destructive" && annotations.destructiveHint && destroys);
  return {
    asks,
    async confirm(request, token, destroys) {
      consulted = true;
      if (!asks(destroys)) return { status: "confirmed" };
      return await confirm(context, call, { ...request, tool }, token);
    },
    async edit(padId, build) {
      if (mustConsult && !consulted) {
        throw new Error(
          `Cannot write with ${tool} as it did not consult the confirmation gate that RUSTPAD_CONFIRM=${mode} requires: nothing was changed; this is a bug in the server`,
        );
      }
      return await context.sessions.edit(padId, (session) => {
        const operation = build(session);
        refuseLoneSurrogates(padId, session.text, operation);
        if (avoidPeople) checkAvoidPeople(context, padId, session, operation);
        return operation;
      });
    },
  };
}

/** The arguments every write tool may take. */
export interface WriteArgs {
  id?: string | undefined;
  idempotency_key?: string | undefined;
  avoid_people?: boolean | undefined;
}

/**
 * A write tool as its module states it: a {@linkcode ToolDefinition}
 * whose handler, `write`, gets a {@linkcode WriteGate} besides the context.
 */
export interface WriteToolDefinition<Input extends z.ZodRawShape>
  extends Omit<ToolDefinition<Input>, "run"> {
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
  ): Promise<ToolResult> => {
    const { id } = args;
    if (
      id !== undefined && context.config.requireRead && !hasRead(context, id)
    ) {
      const session = await context.sessions.get(id);
      if (session.length > 0) {
        throw new Error(
          `Cannot write to pad "${id}" as this connection has not read it and RUSTPAD_REQUIRE_READ is on: current length is ${session.length} code points. Nothing was changed; read it with get_document, read_lines, search_document or get_document_info, then call again`,
        );
      }
    }
    let result = await write(
      args,
      gate(
        context,
        call,
        definition.name,
        definition.annotations,
        args.avoid_people === true,
      ),
      context,
      call,
    );
    const written = result.structuredContent as {
      id?: unknown;
      status?: unknown;
      revision?: unknown;
    };
    if (
      written.status === "applied" && typeof written.id === "string" &&
      typeof written.revision === "number"
    ) {
      result = withPeopleNearby(
        result,
        await nearbyAt(context, written.id, written.revision),
      );
    }
    if (written.status === "applied" && typeof written.id === "string") {
      // What this connection wrote, it has seen.
      markRead(context, written.id);
    }
    return result;
  };
  return {
    ...listed,
    run: (args, context, call) =>
      idempotent(
        context,
        definition.name,
        args as Args,
        (args) => run(args, context, call),
      ),
  };
}

const STATUSES = z.enum([
  "applied",
  "dry_run",
  "conflict",
  "declined",
  "confirmation_required",
]);

/**
 * A write result's `status`: "applied", "declined", "confirmation_required"
 * and the `extra` ones this tool can answer with.
 */
export function writeStatus(
  ...extra: ("dry_run" | "conflict")[]
): z.ZodEnum {
  return STATUSES.extract([
    "applied",
    ...extra,
    "declined",
    "confirmation_required",
  ]).describe("Only 'applied' changed the pad.");
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
 * The result fields every tool that writes text shares. Only what a name
 * leaves open is described; the rules behind status, tokens and keys are in
 * INSTRUCTIONS.
 */
export const writeOutputShape = {
  status: writeStatus(),
  id: z.string(),
  url: z.string().optional(),
  revision: countField.optional(),
  length: countField.optional().describe("In code points."),
  diff: z.string().optional(),
  diff_truncated: z.boolean().optional().describe(
    "True when the diff was cut (past 200 lines).",
  ),
  people_nearby: nearbySchema,
  ...askedShape,
};

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
  };
  if (diff.diff === "") return result(content, summary);
  return untrustedResult(content, summary, diff.diff, `pad "${structured.id}"`);
}

/** Add who was at the change to an applied write's result, if anyone. */
function withPeopleNearby(
  result: ToolResult,
  nearby: Awaited<ReturnType<typeof nearbyAt>>,
): ToolResult {
  if (nearby.people_nearby === undefined) return result;
  return {
    structuredContent: {
      ...result.structuredContent,
      people_nearby: nearby.people_nearby,
    },
    text: [...result.text, ...nearby.note],
  };
}
