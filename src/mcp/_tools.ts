// The one adapter from the tool registry to the SDK: each definition
// becomes a registered tool whose answer carries the structured result and
// a text block with pad-derived parts fenced as untrusted; a thrown error
// becomes `isError` with its sentence; cancellation, progress and
// confirmation dialogs come from the request. While a call on a pad runs,
// the pad is held open (never closed to make room for another pad); a
// cancelled or dropped request lets go of it at once.

// @ts-types="@modelcontextprotocol/sdk/server/mcp"
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
// @ts-types="@modelcontextprotocol/sdk/types"
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { SessionError } from "../rustpad/session_error.ts";
import {
  ConfirmationGuard,
  type ElicitConfirm,
} from "../safety/confirmation.ts";
import { fenceUntrusted } from "../safety/untrusted.ts";
import type {
  ToolCall,
  ToolContext,
  ToolDefinition,
  ToolResult,
} from "../tools/mod.ts";

/** How long a confirmation dialog may stay open: as long as a token lives. */
const CONFIRMATION_WAIT_MS = 10 * 60 * 1000;

/**
 * Register `tools` on `server`, each running in `context`. Call before
 * connecting the server.
 */
export function registerTools(
  server: McpServer,
  tools: readonly ToolDefinition[],
  context: ToolContext,
): void {
  for (const tool of tools) {
    const registered = server.registerTool(
      tool.name,
      {
        title: tool.title,
        description: tool.description,
        inputSchema: tool.inputSchema,
        outputSchema: tool.outputSchema,
        annotations: tool.annotations,
      },
      async (args, extra): Promise<CallToolResult> => {
        const progressToken = extra._meta?.progressToken;
        const call: ToolCall = {
          signal: extra.signal,
          elicit: elicitation(server),
          progress: progressToken === undefined
            ? undefined
            : (progress, total, message) =>
              extra.sendNotification({
                method: "notifications/progress",
                params: { progressToken, progress, total, message },
              }).catch(() => {}),
        };
        const padId = (args as { id?: unknown }).id;
        const release = typeof padId === "string"
          ? context.sessions.retain(padId)
          : () => {};
        extra.signal.addEventListener("abort", release, { once: true });
        try {
          return toCallToolResult(await tool.run(args, context, call));
        } catch (error) {
          return {
            content: [{ type: "text", text: describeError(error) }],
            isError: true,
          };
        } finally {
          extra.signal.removeEventListener("abort", release);
          release();
        }
      },
    );
    // MCP reads a tool without `execution` as "taskSupport: forbidden",
    // which is how the SDK runs it: in every tool of tools/list the key
    // would only cost tokens.
    delete registered.execution;
  }
}

/** The SDK result of a tool's answer: its text parts joined, fenced where pad-derived. */
function toCallToolResult(result: ToolResult): CallToolResult {
  const text = result.text.map((part) =>
    typeof part === "string"
      ? part
      : fenceUntrusted(part.untrusted, { source: part.source })
  ).join("\n");
  return {
    content: [{ type: "text", text }],
    structuredContent: result.structuredContent,
  };
}

/**
 * The dialog for the confirmation guard, when the client declared form
 * elicitation; the tools decide whether the configuration lets them use it.
 */
function elicitation(server: McpServer): ElicitConfirm | undefined {
  const capabilities = server.server.getClientCapabilities()?.elicitation;
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
      answer = await server.server.elicitInput({
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

/** One clear sentence for a failure; a malformed frame's quote is fenced. */
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
