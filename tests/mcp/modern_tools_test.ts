// Every tool, called once by the v2 client pinned to 2026-07-28, over stdio
// and over Streamable HTTP: each answers without error, with its structured
// result.

import assert from "node:assert/strict";
import { startPadServer } from "../../src/testing/mod.ts";
import { startHttp } from "../_http.ts";
import { type ModernClient, modernHttp, modernStdio } from "../_modern.ts";

/** Stands for the edit_id of the last write. */
const LAST_EDIT = Symbol("the last edit_id");
/** Stands for the suggestion_id of the last suggested write. */
const LAST_SUGGESTION = Symbol("the last suggestion_id");

/** Each tool with arguments that succeed on pad `id`, in an order that works. */
function calls(id: string): [string, Record<string, unknown>][] {
  return [
    ["create_document", { id, text: "alpha\nbeta\ngamma\n" }],
    ["get_document", { id }],
    ["read_lines", { id, start_line: 1, line_count: 2 }],
    ["search_document", { id, pattern: "beta" }],
    ["get_document_info", { id }],
    ["get_stats", {}],
    ["append_to_document", { id, text: "delta\n" }],
    ["replace_in_document", { id, search: "alpha", replace: "ALPHA" }],
    ["edit_document", {
      id,
      edits: [{ old_string: "beta", new_string: "BETA" }],
    }],
    ["set_language", { id, language: "markdown" }],
    ["wait_for_change", { id, since_revision: 0, timeout_seconds: 1 }],
    // edit_id: over HTTP the unnamed token is shared, so it is asked for.
    ["undo_last_edit", { id, edit_id: LAST_EDIT }],
    ["get_changes", { id, start_line: 1 }],
    ["append_to_document", { id, text: "maybe\n", suggest: true }],
    ["list_suggestions", { id }],
    ["withdraw_suggestion", { id, suggestion_id: LAST_SUGGESTION }],
    ["set_document", { id, text: "" }],
  ];
}

async function callEvery(agent: ModernClient, id: string): Promise<void> {
  const { tools } = await agent.client.listTools();
  const names = calls(id).map(([name]) => name);
  assert.deepEqual(
    [...new Set(names)].sort(),
    tools.map((tool) => tool.name).sort(),
    "every listed tool is called",
  );
  let lastEdit: unknown;
  let lastSuggestion: unknown;
  for (const [name, args] of calls(id)) {
    const result = await agent.call(
      name,
      Object.fromEntries(
        Object.entries(args).map((
          [key, value],
        ) => [
          key,
          value === LAST_EDIT
            ? lastEdit
            : value === LAST_SUGGESTION
            ? lastSuggestion
            : value,
        ]),
      ),
    );
    const answer = result.structuredContent as {
      edit_id?: string;
      suggestion_id?: string;
    };
    lastEdit = answer?.edit_id ?? lastEdit;
    lastSuggestion = answer?.suggestion_id ?? lastSuggestion;
    assert.equal(
      result.isError,
      undefined,
      `${name}: ${JSON.stringify(result)}`,
    );
    assert.equal(typeof result.structuredContent, "object", name);
  }
}

Deno.test("2026 era over stdio: every tool answers", async () => {
  await using pads = await startPadServer();
  await using agent = await modernStdio({
    RUSTPAD_URL: pads.url,
    RUSTPAD_CONFIRM: "never",
  });
  await callEvery(agent, "every-stdio");
});

Deno.test("2026 era over HTTP: every tool answers", async () => {
  await using http = await startHttp({ env: { RUSTPAD_CONFIRM: "never" } });
  await using agent = await modernHttp(http.server.url);
  await callEvery(agent, "every-http");
});
