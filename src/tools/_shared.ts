// What every tool module shares: the input schemas with the rules a model
// must follow, the shapes of results, and the read set and confirmation
// helpers every tool calls the same way.
//
// Tool descriptions (a test pins what a model reads): what it does,
// starting with a verb; which sibling to use instead, by name; what else it
// changes (joins the pad, creates an unknown id, asks a person); how it fails
// and that failing changes nothing. Shared rules (pad ids, size limit, tokens,
// untrusted text) live once, in INSTRUCTIONS or a schema. Say "more than one",
// "code points". Build schemas with objectSchema(), input counts with
// countSchema(), result counts with countField. Results: describe only fields
// whose name does not say what they are; shared shapes live here and in
// _write.ts.

import { z } from "zod";
import { LivePads } from "../backend/live_pads.ts";
import { codePointLength } from "../ot/code_points.ts";
import { padIdProblem } from "../rustpad/pad_id.ts";
import { MAX_TEXT_LENGTH } from "../rustpad/protocol.ts";
import { editorUrl } from "../rustpad/urls.ts";
import { withDescriptions } from "./_fields.ts";
import type {
  ConfirmationGuard,
  ConfirmationRequest,
} from "../safety/confirmation.ts";
import type { TextPart, ToolCall, ToolContext, ToolResult } from "./tool.ts";

/**
 * Note that this agent has read pad `padId` with a read tool, for
 * `RUSTPAD_REQUIRE_READ`, and its revision now as one the agent was given
 * (see `SessionPool.staleRevision`). Every read tool calls it once it has
 * the text.
 */
export function markRead(context: ToolContext, padId: string): void {
  context.readPads.add(padId);
  // The revision read is of the pad's history now, restarted or not.
  context.sessions.noteShown(padId);
}

/** Whether this agent has read pad `padId` (see {@linkcode markRead}). */
export function hasRead(context: ToolContext, padId: string): boolean {
  return context.readPads.has(padId);
}

/**
 * A tool's input or output schema, or an object inside one. It leaves out
 * the `$schema` key zod puts on every root schema and the
 * `additionalProperties: false` it puts on every output object, which
 * repeat in every tool of tools/list and tell a model nothing (`undefined`
 * metadata drops a key from the JSON).
 */
export function objectSchema<S extends z.ZodRawShape>(
  shape: S,
): z.ZodObject<S> {
  return z.object(withDescriptions(shape)).meta({
    $schema: undefined,
    additionalProperties: undefined,
  });
}

/**
 * An object inside a tool's arguments that refuses keys it does not know
 * (the arguments themselves are made strict by `parseArguments`), and says
 * so: `additionalProperties: false`.
 */
export function strictObjectSchema<S extends z.ZodRawShape>(
  shape: S,
): z.ZodObject<S, z.core.$strict> {
  return z.strictObject(withDescriptions(shape)).meta({
    $schema: undefined,
    additionalProperties: false,
  });
}

/**
 * A count or length: an integer from 0. Its JSON schema states only
 * `minimum: 0`, without the ±(2^53-1) bounds zod adds to every integer.
 */
export function countSchema(description: string): z.ZodInt {
  return z.int().min(0).meta({ maximum: undefined }).describe(description);
}

/**
 * A count in a result: `{"type": "integer"}` and nothing else, since what
 * the server returns needs no bounds to guide a model. Describe it only
 * where its name does not say what it is.
 */
export const countField: z.ZodInt = z.int().meta({
  minimum: undefined,
  maximum: undefined,
});

/** The shareable editor URL of a pad on the configured server. */
export function padUrl(context: ToolContext, padId: string): string {
  return editorUrl(context.config.rustpadUrl, padId);
}

/**
 * A pad id. The rule (at most 256 letters, digits, '.', '_' and '-', not
 * '.' or '..' alone) is checked by {@linkcode padIdProblem}, whose error
 * states it, quotes the value and names the id in a pasted URL. Listing it
 * as `maxLength` and `pattern` on every tool cost 765 of the 14,000
 * characters a model reads, for a rule an id from a URL keeps; only
 * create_document, where the model makes the id up, lists them.
 */
export const padIdSchema: z.ZodString = z.string().check((context) => {
  const problem = padIdProblem(context.value);
  if (problem !== undefined) {
    context.issues.push({
      code: "custom",
      input: context.value,
      message: problem,
    });
  }
}).describe("Pad id.");

/**
 * A text parameter, at most 262,144 code points as Rustpad counts. The
 * instructions state the limit once, for every text field; the error names
 * it.
 */
export function textSchema(description: string): z.ZodString {
  return z.string().check((context) => {
    const length = codePointLength(context.value);
    if (length > MAX_TEXT_LENGTH) {
      context.issues.push({
        code: "custom",
        input: context.value,
        message:
          `Cannot accept text as it is ${length} code points, over Rustpad's limit of ${MAX_TEXT_LENGTH}`,
      });
    }
  }).meta({ maxLength: MAX_TEXT_LENGTH }).describe(description);
}

/**
 * A field that is null when absent: listed as `anyOf` of single types,
 * which every validator reads alike (zod would list `type: [T, "null"]`).
 */
export function nullableString(
  description: string,
): z.ZodUnion<readonly [z.ZodString, z.ZodNull]> {
  // The member's (empty) metadata keeps zod from merging the two types.
  return z.union([z.string().meta({ title: undefined }), z.null()])
    .describe(description);
}

/** A count in a result that is null when there is none (see nullableString). */
export const nullableCount: z.ZodUnion<readonly [z.ZodInt, z.ZodNull]> = z
  .union([
    z.int().meta({ minimum: undefined, maximum: undefined }),
    z.null(),
  ]);

/** An optional boolean argument, false unless given. */
export function flagSchema(
  description: string,
): z.ZodOptional<z.ZodBoolean> {
  return z.boolean().optional().describe(description);
}

/** Listed only on tools that can ask a person (see the MCP adapter). */
export const confirmTokenSchema = z.string().optional().describe(
  "From 'confirmation_required'.",
);

/** A successful result: the structured answer plus a text block that stands alone. */
export function result(
  structuredContent: Record<string, unknown>,
  ...text: TextPart[]
): ToolResult {
  return { structuredContent, text };
}

/**
 * `count` with commas between thousands, "262,144". Not `toLocaleString`:
 * its first call loads the locale data, about 19 ms of every start.
 */
export function thousands(count: number): string {
  return String(count).replace(/\B(?=(\d{3})+$)/g, ",");
}

/** `count` with `noun`, plural unless one: "1 suggestion", "2 suggestions". */
export function counted(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? "" : "s"}`;
}

/** A result that carries pad-derived text, fenced in the text block. */
export function untrustedResult(
  structuredContent: Record<string, unknown>,
  summary: string,
  untrusted: string,
  source: string,
): ToolResult {
  return result(structuredContent, summary, { untrusted, source });
}

/** Check that a write leaves the pad within Rustpad's limit. */
export function checkResultLength(
  padId: string,
  currentLength: number,
  resultLength: number,
): void {
  if (resultLength > MAX_TEXT_LENGTH) {
    throw new RangeError(
      `Cannot write to pad "${padId}" as the result would be ${resultLength} code points, over Rustpad's limit of ${MAX_TEXT_LENGTH}: current length is ${currentLength}`,
    );
  }
}

/** Ask a person (or issue a token) before destroying pad content. */
export async function confirm(
  context: ToolContext,
  call: ToolCall,
  request: ConfirmationRequest,
  token: string | undefined,
): ReturnType<ConfirmationGuard["check"]> {
  const outcome = await context.guard.check({
    ...request,
    identity: context.identity,
  }, {
    token,
    elicit: context.config.elicitation ? call.elicit : undefined,
  });
  // Operators want to know when a person was asked, and what came of it.
  LivePads.of(context.sessions).log.send(
    "notice",
    `Confirmation of ${request.tool} on pad "${request.padId}": ${outcome.status}`,
    { pad: request.padId, tool: request.tool, status: outcome.status },
  );
  return outcome;
}
