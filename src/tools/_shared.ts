// What every tool module shares: the context the tools run in, the input
// schemas with the rules a model must follow, and the shapes of results.

// @ts-types="@modelcontextprotocol/sdk/server/mcp"
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
// @ts-types="@modelcontextprotocol/sdk/types"
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { codePointLength } from "../_code_points.ts";
import type { Config } from "../config.ts";
import {
  ConfirmationGuard,
  type ConfirmationRequest,
  type ElicitConfirm,
} from "../confirmation.ts";
import type { RustpadHttpClient } from "../http_client.ts";
import { MAX_PAD_ID_LENGTH, PAD_ID_PATTERN, PAD_ID_RULE } from "../pad_id.ts";
import { MAX_TEXT_LENGTH } from "../protocol.ts";
import type { SessionPool } from "../session_pool.ts";
import { SessionError } from "../session_error.ts";
import { fenceUntrusted } from "../untrusted.ts";
import { editorUrl } from "../urls.ts";

/** What a tool handler works with. */
export interface ToolContext {
  readonly server: McpServer;
  readonly config: Config;
  readonly http: RustpadHttpClient;
  readonly sessions: SessionPool;
  readonly guard: ConfirmationGuard;
}

/** The shareable editor URL of a pad on the configured server. */
export function padUrl(context: ToolContext, padId: string): string {
  return editorUrl(context.config.rustpadUrl, padId);
}

export const padIdSchema = z.string()
  .regex(PAD_ID_PATTERN, {
    error: `Cannot use pad id as it breaks the rule: ${PAD_ID_RULE}`,
  })
  .max(MAX_PAD_ID_LENGTH, {
    error: `Cannot use pad id as it is too long: ${PAD_ID_RULE}`,
  })
  .refine((id) => id !== "." && id !== "..", {
    error: `Cannot use pad id as '.' and '..' are not pads: ${PAD_ID_RULE}`,
  })
  .describe(
    `Pad id: the part of a Rustpad URL after '#' (https://rustpad.io/#notes has id 'notes'); ${PAD_ID_RULE}.`,
  );

/** A text parameter, at most 262,144 code points as Rustpad counts. */
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
  }).describe(
    `${description} At most ${MAX_TEXT_LENGTH} code points (Rustpad's 256 KiB limit).`,
  );
}

export const confirmTokenSchema = z.string().optional().describe(
  "Token from an earlier call that answered status 'confirmation_required'. Pass it, with exactly the same other arguments, only after a person has agreed.",
);

/** The outcome fields shared by the two tools that ask a person first. */
export const guardedOutputShape = {
  status: z.enum(["applied", "declined", "confirmation_required"]).describe(
    "'applied': the pad changed. 'declined': a person said no; nothing changed. 'confirmation_required': nothing changed yet; ask a person, then call again with confirm_token.",
  ),
  id: z.string().describe("The pad id."),
  url: z.string().optional().describe("The pad's shareable editor URL."),
  revision: z.number().int().optional().describe(
    "The pad's revision after the edit (operations in its history).",
  ),
  length: z.number().int().optional().describe(
    "The pad's length after the edit, in code points.",
  ),
  confirm_token: z.string().optional().describe(
    "With 'confirmation_required': pass back as confirm_token after a person agreed.",
  ),
  expires_in_seconds: z.number().int().optional().describe(
    "With 'confirmation_required': how long the token stays valid.",
  ),
  message: z.string().optional().describe(
    "With 'declined' or 'confirmation_required': what happened and what to do next.",
  ),
};

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
export function confirm(
  context: ToolContext,
  request: ConfirmationRequest,
  token: string | undefined,
): ReturnType<ConfirmationGuard["check"]> {
  return context.guard.check(request, {
    token,
    elicit: elicitation(context),
  });
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
