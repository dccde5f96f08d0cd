/**
 * The names of the server's tools and the named sets of them that the
 * configuration refers to (`RUSTPAD_READ_ONLY`, the word `essential`).
 * Adding a tool: add its name to {@linkcode ToolName} and
 * {@linkcode TOOL_NAMES}, then to the sets it belongs to.
 *
 * @module
 */

/** The name of one of the server's tools. */
export type ToolName =
  | "get_document"
  | "read_lines"
  | "search_document"
  | "get_document_info"
  | "get_stats"
  | "create_document"
  | "set_document"
  | "append_to_document"
  | "replace_in_document"
  | "edit_document"
  | "set_language"
  | "wait_for_change"
  | "undo_last_edit"
  | "get_changes"
  | "list_suggestions"
  | "withdraw_suggestion";

/**
 * Every tool the server can register, in registration order.
 *
 * @example Listing the tools
 * ```ts
 * import { TOOL_NAMES } from "../mod.ts";
 * import assert from "node:assert/strict";
 *
 * assert.ok(TOOL_NAMES.includes("get_document"));
 * assert.ok(TOOL_NAMES.includes("set_language"));
 * ```
 */
export const TOOL_NAMES: readonly ToolName[] = Object.freeze(
  [
    "get_document",
    "read_lines",
    "search_document",
    "get_document_info",
    "get_stats",
    "create_document",
    "set_document",
    "append_to_document",
    "replace_in_document",
    "edit_document",
    "set_language",
    "wait_for_change",
    "undo_last_edit",
    "get_changes",
    "list_suggestions",
    "withdraw_suggestion",
  ] as const,
);

/**
 * The tools that only read: the only ones registered when
 * `RUSTPAD_READ_ONLY` is true.
 *
 * @example Read tools
 * ```ts
 * import { READ_TOOLS } from "../mod.ts";
 * import assert from "node:assert/strict";
 *
 * assert.ok(READ_TOOLS.includes("get_document"));
 * assert.ok(!READ_TOOLS.includes("set_document"));
 * ```
 */
export const READ_TOOLS: readonly ToolName[] = Object.freeze(
  [
    "get_document",
    "read_lines",
    "search_document",
    "get_document_info",
    "get_stats",
    "wait_for_change",
    "get_changes",
    "list_suggestions",
  ] as const,
);

/**
 * The tools the word `essential` stands for in `RUSTPAD_ALLOW_TOOLS` and
 * `RUSTPAD_DENY_TOOLS`.
 *
 * @example Essential tools
 * ```ts
 * import { ESSENTIAL_TOOLS } from "../mod.ts";
 * import assert from "node:assert/strict";
 *
 * assert.ok(ESSENTIAL_TOOLS.includes("append_to_document"));
 * assert.ok(!ESSENTIAL_TOOLS.includes("replace_in_document"));
 * ```
 */
export const ESSENTIAL_TOOLS: readonly ToolName[] = Object.freeze(
  [
    "get_document",
    "get_document_info",
    "create_document",
    "set_document",
    "append_to_document",
  ] as const,
);
