/**
 * The tool registry: every tool this server offers, by name, and the one
 * place that registers the configured ones.
 *
 * @module
 */

import type { ToolName } from "../config/config.ts";
import type { ToolContext } from "./_shared.ts";
import { registerEditDocument } from "./edit_tools.ts";
import {
  registerReplaceInDocument,
  registerSetDocument,
} from "./guarded_tools.ts";
import {
  registerGetDocument,
  registerGetDocumentInfo,
  registerGetStats,
} from "./read_tools.ts";
import { registerReadLines, registerSearchDocument } from "./line_tools.ts";
import { registerUndoLastEdit, registerWaitForChange } from "./live_tools.ts";
import {
  registerAppendToDocument,
  registerCreateDocument,
  registerSetLanguage,
} from "./write_tools.ts";

export type { ToolContext } from "./_shared.ts";

const REGISTRARS: Readonly<Record<ToolName, (context: ToolContext) => void>> = {
  get_document: registerGetDocument,
  read_lines: registerReadLines,
  search_document: registerSearchDocument,
  get_document_info: registerGetDocumentInfo,
  get_stats: registerGetStats,
  create_document: registerCreateDocument,
  set_document: registerSetDocument,
  append_to_document: registerAppendToDocument,
  replace_in_document: registerReplaceInDocument,
  edit_document: registerEditDocument,
  set_language: registerSetLanguage,
  wait_for_change: registerWaitForChange,
  undo_last_edit: registerUndoLastEdit,
};

/**
 * Register the tools the configuration enables, in the registry's order.
 * Tools filtered out are never registered.
 */
export function registerTools(context: ToolContext): void {
  for (const [name, register] of Object.entries(REGISTRARS)) {
    if (context.config.tools.has(name as ToolName)) register(context);
  }
}
