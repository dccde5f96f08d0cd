// What every tool module shares: the context the tools run in, the input
// schemas with the rules a model must follow, and the shapes of results.
//
// Tool descriptions (tools/list size is pinned by a test): what it does,
// starting with a verb; which sibling to use instead, by name; what else it
// changes (joins the pad, creates an unknown id, asks a person); how it fails
// and that failing changes nothing. Shared rules (pad ids, size limit, tokens,
// untrusted text) live once, in INSTRUCTIONS or a schema. Say "more than one",
// "code points". Build schemas with objectSchema(), input counts with
// countSchema(), result counts with countField, and wrap registerTool in
// withoutTaskSupport(). Results: describe only fields whose name does not
// say what they are; shared shapes live here and in _write.ts.

// @ts-types="@modelcontextprotocol/sdk/server/mcp"
import type {
  McpServer,
  RegisteredTool,
} from "@modelcontextprotocol/sdk/server/mcp.js";
// @ts-types="@modelcontextprotocol/sdk/types"
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { codePointLength } from "../ot/code_points.ts";
import type { Backend } from "../backend/backend.ts";
import type { Config } from "../config/config.ts";
import { LivePads } from "../backend/live_pads.ts";
import {
  ConfirmationGuard,
  type ConfirmationRequest,
  type ElicitConfirm,
} from "../safety/confirmation.ts";
import type { RustpadHttpClient } from "../rustpad/http_client.ts";
import {
  MAX_PAD_ID_LENGTH,
  PAD_ID_PATTERN,
  PAD_ID_RULE,
} from "../rustpad/pad_id.ts";
import { MAX_TEXT_LENGTH } from "../rustpad/protocol.ts";
import type { SessionPool } from "../rustpad/session_pool.ts";
import { SessionError } from "../rustpad/session_error.ts";
import { fenceUntrusted } from "../safety/untrusted.ts";
import { editorUrl } from "../rustpad/urls.ts";

/** What a tool handler works with. */
export interface ToolContext {
  readonly server: McpServer;
  readonly config: Config;
  readonly http: RustpadHttpClient;
  readonly sessions: SessionPool;
  readonly guard: ConfirmationGuard;
  /** The process-wide state shared by every MCP session (holds the above). */
  readonly backend: Backend;
}

/** The pads each MCP connection (one server instance) has read. */
const readPads = new WeakMap<McpServer, Set<string>>();

/**
 * Note that this connection has read pad `padId` with a read tool, for
 * `RUSTPAD_REQUIRE_READ`. Every read tool calls it once it has the text.
 */
export function markRead(context: ToolContext, padId: string): void {
  let pads = readPads.get(context.server);
  if (pads === undefined) {
    pads = new Set();
    readPads.set(context.server, pads);
  }
  pads.add(padId);
}

/** Whether this connection has read pad `padId` (see {@linkcode markRead}). */
export function hasRead(context: ToolContext, padId: string): boolean {
  return readPads.get(context.server)?.has(padId) ?? false;
}

/**
 * A tool's input or output schema, or an object inside one. Pass this, not
 * a raw shape, to `registerTool`: it leaves out the `$schema` key zod puts
 * on every root schema and the `additionalProperties: false` it puts on
 * every output object, which repeat in every tool of tools/list and tell a
 * model nothing (`undefined` metadata drops a key from the JSON).
 *
 * @example
 * ```ts ignore
 * outputSchema: objectSchema({ id: z.string(), revision: countField }),
 * ```
 */
export function objectSchema<S extends z.ZodRawShape>(
  shape: S,
): z.ZodObject<S> {
  return z.object(shape).meta({
    $schema: undefined,
    additionalProperties: undefined,
  });
}

/**
 * A count or length: an integer from 0. Its JSON schema states only
 * `minimum: 0`, without the ±(2^53-1) bounds zod adds to every integer.
 *
 * @example
 * ```ts ignore
 * offset: countSchema("Where to start (default 0).").optional(),
 * ```
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

/**
 * Leave out the `execution: {taskSupport: "forbidden"}` the SDK adds to
 * every tool it registers: MCP reads a tool without `execution` exactly so
 * ("default when absent"), and the SDK runs it the same way, so in every
 * tool of tools/list it only costs tokens. Wrap every `registerTool` call.
 *
 * @example
 * ```ts ignore
 * withoutTaskSupport(context.server.registerTool("get_stats", config, handler));
 * ```
 */
export function withoutTaskSupport(tool: RegisteredTool): RegisteredTool {
  delete tool.execution;
  return tool;
}

/** The shareable editor URL of a pad on the configured server. */
export function padUrl(context: ToolContext, padId: string): string {
  return editorUrl(context.config.rustpadUrl, padId);
}

/**
 * The whole pad id rule as one pattern (PAD_ID_PATTERN's characters, 1 to
 * MAX_PAD_ID_LENGTH of them, not `.` or `..`), so the schema states it once
 * and no description has to.
 */
export const PAD_ID_SCHEMA_PATTERN: RegExp = new RegExp(
  `^(?!\\.\\.?$)${PAD_ID_PATTERN.source.slice(1, -2)}{1,${MAX_PAD_ID_LENGTH}}$`,
);

export const padIdSchema = z.string()
  .regex(PAD_ID_SCHEMA_PATTERN, {
    error: `Cannot use pad id as it breaks the rule: ${PAD_ID_RULE}`,
  })
  .describe("Pad id: the part of its URL after '#'.");

/**
 * A text parameter, at most 262,144 code points as Rustpad counts. The
 * schema states the limit as `maxLength`, which JSON Schema counts in code
 * points too; the instructions say it once in words.
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

export const confirmTokenSchema = z.string().optional().describe(
  "Token of a 'confirmation_required' answer, once a person agreed.",
);

/** A successful result: the structured answer plus a text block that stands alone. */
export function result(
  structuredContent: Record<string, unknown>,
  text: string,
): CallToolResult {
  return { content: [{ type: "text", text }], structuredContent };
}

/** A result that carries pad-derived text, fenced in the text block. */
export function untrustedResult(
  structuredContent: Record<string, unknown>,
  summary: string,
  untrusted: string,
  source: string,
): CallToolResult {
  return result(
    structuredContent,
    `${summary}\n${fenceUntrusted(untrusted, { source })}`,
  );
}

/** A failed call: `isError` and one clear sentence. */
export function errorResult(message: string): CallToolResult {
  return { content: [{ type: "text", text: message }], isError: true };
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

/** How long a confirmation dialog may stay open: as long as a token lives. */
const CONFIRMATION_WAIT_MS = 10 * 60 * 1000;

/**
 * The elicitation function for the confirmation guard, when the client
 * declared form elicitation and the configuration allows dialogs.
 */
export function elicitation(context: ToolContext): ElicitConfirm | undefined {
  if (!context.config.elicitation) return undefined;
  const capabilities = context.server.server.getClientCapabilities()
    ?.elicitation;
  // An empty elicitation capability means form mode (2025-06-18 clients).
  if (
    capabilities === undefined ||
    (capabilities.form === undefined && capabilities.url !== undefined)
  ) {
    return undefined;
  }
  return async (message) => {
    let answer;
    try {
      answer = await context.server.server.elicitInput({
        mode: "form",
        message,
        requestedSchema: ConfirmationGuard.requestedSchema,
      }, { timeout: CONFIRMATION_WAIT_MS });
    } catch (error) {
      throw new Error(
        `Cannot confirm with a person as the confirmation dialog failed: ${
          (error as Error).message
        }. Nothing was changed`,
        { cause: error },
      );
    }
    return {
      action: answer.action,
      ...(answer.content !== undefined && { content: answer.content }),
    };
  };
}

/** Ask a person (or issue a token) before destroying pad content. */
export async function confirm(
  context: ToolContext,
  request: ConfirmationRequest,
  token: string | undefined,
): ReturnType<ConfirmationGuard["check"]> {
  const outcome = await context.guard.check(request, {
    token,
    elicit: elicitation(context),
  });
  // Operators want to know when a person was asked, and what came of it.
  LivePads.of(context.sessions).log.send(
    "notice",
    `Confirmation of ${request.tool} on pad "${request.padId}": ${outcome.status}`,
    { pad: request.padId, tool: request.tool, status: outcome.status },
  );
  return outcome;
}

/**
 * Wrap a tool handler so every failure becomes an `isError` result with one
 * clear sentence, and anything quoted from upstream is fenced as untrusted.
 */
export function safely<A extends unknown[]>(
  handler: (...args: A) => Promise<CallToolResult>,
): (...args: A) => Promise<CallToolResult> {
  return async (...args) => {
    try {
      return await handler(...args);
    } catch (error) {
      return errorResult(describeError(error));
    }
  };
}

function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  if (error instanceof SessionError && error.kind === "malformed") {
    // The parse error quotes the frame: upstream text, so fenced.
    let cause = error.cause;
    while (cause instanceof SessionError) cause = cause.cause;
    if (cause instanceof Error) {
      return `${error.message}\n${
        fenceUntrusted(cause.message, { source: "the frame Rustpad sent" })
      }`;
    }
  }
  return error.message;
}
