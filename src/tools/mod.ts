/**
 * The tool registry: every tool this server offers, as plain
 * {@linkcode ToolDefinition} values in the order clients list them. Nothing
 * here imports MCP; the MCP layer registers the configured ones. Not part
 * of the package's root API, whose users reach the tools through
 * `createServer`: the definitions' types are zod's.
 *
 * @module
 */

import type { Config } from "../config/config.ts";
import type { z } from "zod";
import { TOOL_NAMES, type ToolName } from "../config/tool_names.ts";
import { objectSchema } from "./_shared.ts";
import { SUGGEST_SHAPE } from "./_suggest.ts";
import { getChangesTool } from "./changes_tools.ts";
import { editDocumentTool } from "./edit_tools.ts";
import { replaceInDocumentTool, setDocumentTool } from "./guarded_tools.ts";
import { readLinesTool, searchDocumentTool } from "./line_tools.ts";
import { undoLastEditTool, waitForChangeTool } from "./live_tools.ts";
import {
  getDocumentInfoTool,
  getDocumentTool,
  getStatsTool,
} from "./read_tools.ts";
import {
  listSuggestionsTool,
  withdrawSuggestionTool,
} from "./suggestion_tools.ts";
import { defineTool, type ToolDefinition } from "./tool.ts";
import { statusNote } from "./_write_shapes.ts";
import {
  appendToDocumentTool,
  createDocumentTool,
  setLanguageTool,
} from "./write_tools.ts";

export {
  createToolContext,
  defineTool,
  type HostSays,
  MAX_OPENED_PADS,
  OpenedPads,
  type TextPart,
  type ToolAnnotations,
  type ToolCall,
  type ToolContext,
  type ToolContextOptions,
  type ToolDefinition,
  type ToolResult,
  toolResult,
  type ToolSpec,
} from "./tool.ts";
export {
  defineWriteTool,
  type GateRequest,
  type WriteGate,
  type WriteToolDefinition,
} from "./_write.ts";
export { objectSchema } from "./_shared.ts";
export { parseArguments } from "./arguments.ts";
export { describeFailure } from "./failure.ts";
export { MAX_SESSION_HOLDS, SessionHolds } from "./session_holds.ts";
export {
  VIEW_TOOLS,
  viewDecideSuggestionTool,
  viewReadPadTool,
  viewWaitPadTool,
} from "./view_tools.ts";

/**
 * Every tool, by name, in the order tools/list shows them.
 *
 * @example
 * ```ts
 * import { TOOL_NAMES } from "../mod.ts";
 * import { TOOLS } from "./mod.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(Object.keys(TOOLS), [...TOOL_NAMES]);
 * assert.equal(TOOLS.get_document.annotations.readOnlyHint, true);
 * ```
 */
export const TOOLS: Readonly<Record<ToolName, ToolDefinition>> = Object.freeze({
  get_document: getDocumentTool,
  read_lines: readLinesTool,
  search_document: searchDocumentTool,
  get_document_info: getDocumentInfoTool,
  get_stats: getStatsTool,
  create_document: createDocumentTool,
  set_document: setDocumentTool,
  append_to_document: appendToDocumentTool,
  replace_in_document: replaceInDocumentTool,
  edit_document: editDocumentTool,
  set_language: setLanguageTool,
  wait_for_change: waitForChangeTool,
  undo_last_edit: undoLastEditTool,
  get_changes: getChangesTool,
  list_suggestions: listSuggestionsTool,
  withdraw_suggestion: withdrawSuggestionTool,
});

/**
 * The tools `config` enables, in registry order, each listing only the
 * parameters it can use there: `confirm_token` only on a tool that can ask
 * a person under `config.confirm` (every write tool under `always`, the
 * destructive ones under `destructive`, none under `never`).
 *
 * @param config The configuration.
 * @returns The tool definitions to register.
 *
 * @example
 * ```ts
 * import { loadConfig } from "@rustpad-mcp/server";
 * import { toolsFor } from "./mod.ts";
 * import assert from "node:assert/strict";
 *
 * const [append] = toolsFor(loadConfig({ RUSTPAD_ALLOW_TOOLS: "append_to_document" }));
 * assert.equal("confirm_token" in append!.inputSchema.shape, false);
 * ```
 */
export function toolsFor(config: Config): ToolDefinition[] {
  const suggests = config.suggest !== "never";
  return TOOL_NAMES.filter((name) =>
    config.tools.has(name) && (suggests || !SUGGESTION_TOOLS.has(name))
  ).map((name) => {
    const tool = TOOLS[name];
    const asks = config.confirm === "always" ||
      (config.confirm === "destructive" && tool.annotations.destructiveHint);
    // The schemas are built on first use, as the registry's own (ToolSpec);
    // only a configuration that is not the default reads one here.
    const always = config.suggest === "always" &&
      tool.inputSchema.shape.suggest !== undefined;
    const asksHere = () => asks && "confirm_token" in tool.inputSchema.shape;
    return defineTool({
      name: tool.name,
      title: tool.title,
      description: always
        ? `${tool.description} ${ALWAYS_NOTE}`
        : tool.description,
      annotations: tool.annotations,
      inputSchema: () => {
        const { confirm_token, suggest, summary, ...rest } =
          tool.inputSchema.shape;
        const listedSuggest = suggest === undefined
          ? undefined
          : always
          ? ALWAYS_SUGGEST.meta({ ...ALWAYS_SUGGEST.meta(), default: true })
          : suggest;
        return objectSchema({
          ...rest,
          ...(asksHere() && { confirm_token }),
          ...(suggests && listedSuggest && {
            suggest: listedSuggest,
            ...(summary && { summary }),
          }),
        });
      },
      outputSchema: () =>
        asksHere() ? tool.outputSchema : withoutAsking(tool.outputSchema),
      run: tool.run,
    });
  });
}

/** What a write tool's description adds under `RUSTPAD_SUGGEST=always`. */
const ALWAYS_NOTE =
  "Here every write is held as a suggestion for the people in the pad to accept (RUSTPAD_SUGGEST=always).";

/** The `suggest` parameter under `RUSTPAD_SUGGEST=always`. */
const ALWAYS_SUGGEST = SUGGEST_SHAPE.suggest.describe(
  "Always true here (RUSTPAD_SUGGEST=always): false is refused.",
);

/**
 * A tool's output schema without what only asking a person answers
 * (statuses 'confirmation_required' and 'declined', `confirm_token`,
 * `expires_in_seconds`), for a tool that cannot ask in this configuration.
 */
function withoutAsking(schema: z.ZodObject): z.ZodObject {
  const { status, confirm_token, expires_in_seconds, ...rest } = schema.shape;
  if (confirm_token === undefined && expires_in_seconds === undefined) {
    return schema;
  }
  const statuses = status as z.ZodEnum | undefined;
  return objectSchema({
    ...rest,
    ...(statuses !== undefined && {
      status: statuses.exclude(["confirmation_required", "declined"])
        .describe(statusNote(false)),
    }),
  });
}

/** The tools about suggestions, gone under `RUSTPAD_SUGGEST=never`. */
const SUGGESTION_TOOLS = new Set<ToolName>([
  "list_suggestions",
  "withdraw_suggestion",
]);
