// The one adapter from the tool registry to the SDK. Each definition is
// registered for tools/list; calls are answered here, not by the SDK's own
// handler, so that arguments are parsed with the tool's own sentences
// (parseArguments) instead of the validator's. An answer carries the
// structured result and a text block with pad-derived parts fenced as
// untrusted; a thrown error becomes `isError` with its sentence;
// cancellation, progress and confirmation dialogs come from the request.
// While a call on a pad runs, the pad is held open (never closed to make
// room for another pad); a cancelled or dropped request lets go of it at
// once.

// @ts-types="@modelcontextprotocol/server"
import type {
  CallToolResult,
  ListToolsResult,
  McpServer,
  RegisteredTool,
  ServerContext,
} from "@modelcontextprotocol/server";
import { type ConfirmRoute, dialogRoute } from "./_eras.ts";
import { hostSays, viewRefusal } from "./_app_view.ts";
import { AnswerBudget } from "./_answer_budget.ts";
import { padIdProblem } from "../rustpad/pad_id.ts";
import { fenceAround, fenceUntrusted } from "../safety/untrusted.ts";
import { noteBlockEnds, SHARED_TEXT_MIN } from "./_shared_texts.ts";
import {
  describeFailure,
  parseArguments,
  type ToolCall,
  type ToolContext,
  type ToolDefinition,
  type ToolResult,
} from "../tools/mod.ts";

/**
 * Register `tools` on `server`, each running in `context`. Call before
 * connecting the server.
 *
 * @param generated The generated tools/list of this configuration
 * (`_tools_list.ts`), if there is one: then the tools are not registered
 * with the SDK, which would build every tool's schemas at each start, and
 * the caller serves the listing; a tool's schemas are built at its first
 * call.
 * @returns What the SDK lists, by tool name (none with `generated`).
 */
export function registerTools(
  server: McpServer,
  tools: readonly ToolDefinition[],
  context: ToolContext,
  confirm: ConfirmRoute = dialogRoute(server),
  generated?: ListToolsResult,
): Map<string, RegisteredTool> {
  const byName = new Map(tools.map((tool) => [tool.name, tool]));
  const listed = new Map<string, RegisteredTool>();
  // What the SDK's first registerTool declares.
  if (generated !== undefined) {
    server.server.registerCapabilities({ tools: { listChanged: true } });
  }
  for (const tool of generated === undefined ? tools : []) {
    const registered = server.registerTool(
      tool.name,
      {
        title: tool.title,
        description: tool.description,
        // Unknown arguments are refused (parseArguments): say so.
        inputSchema: tool.inputSchema.meta({
          ...tool.inputSchema.meta(),
          additionalProperties: false,
        }),
        outputSchema: tool.outputSchema,
        annotations: tool.annotations,
      },
      () => {
        throw new Error(
          "Cannot reach the SDK's tool handler: calls are answered by registerTools",
        );
      },
    );
    // MCP reads a tool without `execution` as "taskSupport: forbidden",
    // which is how the SDK runs it: in every tool of tools/list the key
    // would only cost tokens.
    delete registered.execution;
    listed.set(tool.name, registered);
  }
  // Replaces the handler the SDK installed with the first registerTool, if
  // it did.
  server.server.setRequestHandler(
    "tools/call",
    async (request, ctx: ServerContext): Promise<CallToolResult> => {
      const { name, arguments: raw } = request.params;
      const tool = byName.get(name);
      if (tool === undefined) {
        return errorResult(
          `Cannot call tool ${
            JSON.stringify(name)
          } as this server has no such tool: current tools are ${
            [...byName.keys()].join(", ")
          }`,
        );
      }
      const host = hostSays(server, ctx, request.params._meta);
      const refusal = viewRefusal(name, host);
      if (refusal !== undefined) return errorResult(refusal);
      const progressToken = ctx.mcpReq._meta?.progressToken;
      const { signal } = ctx.mcpReq;
      const { elicit, token, asks } = confirm.begin(ctx);
      const call: ToolCall = {
        signal,
        elicit,
        asks,
        confirmToken: token,
        host,
        progress: progressToken === undefined
          ? undefined
          : (progress, total, message) =>
            ctx.mcpReq.notify({
              method: "notifications/progress",
              params: { progressToken, progress, total, message },
            }).catch(() => {}),
      };
      const padId = (raw as { id?: unknown } | undefined)?.id;
      const release = typeof padId === "string"
        ? context.sessions.retain(padId)
        : () => {};
      // Before the call, so that its log messages (opening the pad) reach
      // this session.
      if (typeof padId === "string" && padIdProblem(padId) === undefined) {
        context.openedPads.add(padId);
      }
      signal.addEventListener("abort", release, { once: true });
      try {
        const args = parseArguments(
          tool,
          token === undefined || !("confirm_token" in tool.inputSchema.shape)
            ? raw
            : { ...raw, confirm_token: token },
        );
        const answer = await tool.run(args, context, call);
        const written = answer.structuredContent.id;
        if (
          typeof written === "string" && padIdProblem(written) === undefined
        ) {
          context.openedPads.add(written);
        }
        const result = confirm.finish(answer, ctx) ??
          toCallToolResult(
            answer,
            ctx.http === undefined ? ctx.mcpReq.id : undefined,
          );
        const refused = AnswerBudget.of(ctx.http?.req)?.take(
          result,
          `${name}`,
        );
        return refused === undefined ? result : errorResult(refused);
      } catch (error) {
        return errorResult(describeFailure(error, context.config));
      } finally {
        signal.removeEventListener("abort", release);
        release();
      }
    },
  );
  return listed;
}

function errorResult(text: string): CallToolResult {
  return { content: [{ type: "text", text }], isError: true };
}

/**
 * The SDK result of a tool's answer: its text parts joined by newlines,
 * fenced where pad-derived. A long pad-derived part that the structured
 * answer also holds is not copied into the block: the block is left as its
 * parts put together, and, when `noteAs` (a request id on stdio) is given,
 * its ends are noted for the stdio line (_shared_texts.ts).
 */
function toCallToolResult(
  result: ToolResult,
  noteAs?: string | number,
): CallToolResult {
  const { text: parts, structuredContent } = result;
  const fence = (part: ToolResult["text"][number]) =>
    typeof part === "string"
      ? part
      : fenceUntrusted(part.untrusted, { source: part.source });
  const shared = parts.findIndex((part) =>
    typeof part !== "string" && part.untrusted.length >= SHARED_TEXT_MIN &&
    Object.values(structuredContent).includes(part.untrusted)
  );
  let text: string;
  if (shared === -1) {
    text = parts.map(fence).join("\n");
  } else {
    const part = parts[shared] as { untrusted: string; source: string };
    const { opening, closing } = fenceAround(part.untrusted, {
      source: part.source,
    });
    const before = parts.slice(0, shared).map((item) => `${fence(item)}\n`)
      .join("") + opening;
    const after = closing +
      parts.slice(shared + 1).map((item) => `\n${fence(item)}`).join("");
    text = before + part.untrusted + after;
    if (noteAs !== undefined) {
      noteBlockEnds(noteAs, part.untrusted, { before, after });
    }
  }
  return { content: [{ type: "text", text }], structuredContent };
}
