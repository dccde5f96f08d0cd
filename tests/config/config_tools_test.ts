import assert from "node:assert/strict";
import { loadConfig } from "../../src/config/config.ts";
import {
  ESSENTIAL_TOOLS,
  READ_TOOLS,
  TOOL_NAMES,
} from "../../src/config/tool_names.ts";
import { assertRefused } from "../_config.ts";

Deno.test("TOOL_NAMES, READ_TOOLS and ESSENTIAL_TOOLS list the tools of the issue", () => {
  assert.deepEqual(TOOL_NAMES, [
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
  ]);
  assert.deepEqual(READ_TOOLS, [
    "get_document",
    "read_lines",
    "search_document",
    "get_document_info",
    "get_stats",
    "wait_for_change",
    "get_changes",
    "list_suggestions",
  ]);
  assert.deepEqual(ESSENTIAL_TOOLS, [
    "get_document",
    "get_document_info",
    "create_document",
    "set_document",
    "append_to_document",
  ]);
  assert.ok(Object.isFrozen(TOOL_NAMES));
  assert.ok(Object.isFrozen(READ_TOOLS));
  assert.ok(Object.isFrozen(ESSENTIAL_TOOLS));
});

Deno.test("loadConfig() with RUSTPAD_READ_ONLY registers only the read tools", () => {
  const config = loadConfig({ RUSTPAD_READ_ONLY: "yes" });
  assert.equal(config.readOnly, true);
  assert.deepEqual([...config.tools], [...READ_TOOLS]);
});

Deno.test("loadConfig() with RUSTPAD_ALLOW_TOOLS registers only the listed tools, in TOOL_NAMES order", () => {
  const config = loadConfig({
    RUSTPAD_ALLOW_TOOLS: " set_language , ,get_stats,,get_stats ",
  });
  assert.deepEqual([...config.tools], ["get_stats", "set_language"]);
});

Deno.test("loadConfig() expands essential in RUSTPAD_ALLOW_TOOLS", () => {
  assert.deepEqual(
    [...loadConfig({ RUSTPAD_ALLOW_TOOLS: "essential" }).tools],
    [...ESSENTIAL_TOOLS],
  );
  assert.deepEqual(
    [...loadConfig({ RUSTPAD_ALLOW_TOOLS: "essential,set_language" }).tools],
    [...ESSENTIAL_TOOLS, "set_language"],
  );
});

Deno.test("loadConfig() removes RUSTPAD_DENY_TOOLS from all tools", () => {
  assert.deepEqual(
    [...loadConfig({ RUSTPAD_DENY_TOOLS: "replace_in_document" }).tools],
    TOOL_NAMES.filter((tool) => tool !== "replace_in_document"),
  );
  assert.deepEqual(
    [...loadConfig({ RUSTPAD_DENY_TOOLS: "essential" }).tools],
    [
      "read_lines",
      "search_document",
      "get_stats",
      "replace_in_document",
      "edit_document",
      "set_language",
      "wait_for_change",
      "undo_last_edit",
      "get_changes",
      "list_suggestions",
      "withdraw_suggestion",
    ],
  );
});

Deno.test("loadConfig() with allow essential and deny set_document keeps the other essential tools", () => {
  const config = loadConfig({
    RUSTPAD_ALLOW_TOOLS: "essential",
    RUSTPAD_DENY_TOOLS: "set_document",
  });
  assert.deepEqual([...config.tools], [
    "get_document",
    "get_document_info",
    "create_document",
    "append_to_document",
  ]);
});

Deno.test("loadConfig() with read-only and an allow list keeps only allowed read tools", () => {
  const config = loadConfig({
    RUSTPAD_READ_ONLY: "true",
    RUSTPAD_ALLOW_TOOLS: "get_document,set_document,get_stats",
  });
  assert.deepEqual([...config.tools], ["get_document", "get_stats"]);
  const essential = loadConfig({
    RUSTPAD_READ_ONLY: "1",
    RUSTPAD_ALLOW_TOOLS: "essential",
    RUSTPAD_DENY_TOOLS: "get_document",
  });
  assert.deepEqual([...essential.tools], ["get_document_info"]);
});

Deno.test("loadConfig() refuses an unknown tool name, naming it", () => {
  for (const variable of ["RUSTPAD_ALLOW_TOOLS", "RUSTPAD_DENY_TOOLS"]) {
    for (const name of ["get_docs", "Get_Document", "ESSENTIAL", "all", "*"]) {
      assertRefused(
        { [variable]: `get_document,${name}` },
        variable,
        new RegExp(
          `is not accepted: unknown tool name "${
            name.replace("*", "\\*")
          }"; expected a comma-separated list of tool names \\(get_document, .*\\) or the word essential$`,
        ),
      );
    }
  }
});

Deno.test("loadConfig() refuses tool settings that leave no tool, naming both variables", () => {
  const denied = assertRefused(
    { RUSTPAD_ALLOW_TOOLS: "get_stats", RUSTPAD_DENY_TOOLS: "get_stats" },
    "RUSTPAD_ALLOW_TOOLS",
    /^RUSTPAD_ALLOW_TOOLS="get_stats" and RUSTPAD_DENY_TOOLS="get_stats" are not accepted together: they leave no tool to register/,
  );
  assert.match(
    denied.message,
    /expected at least one tool that is allowed and not denied$/,
  );
  assertRefused(
    { RUSTPAD_DENY_TOOLS: TOOL_NAMES.join(",") },
    "RUSTPAD_DENY_TOOLS",
    // A long value is quoted cut, with its length.
    /^RUSTPAD_DENY_TOOLS=".*"(\.\.\. \(\d+ characters\))? is not accepted: it leaves no tool to register/,
  );
  assertRefused(
    { RUSTPAD_ALLOW_TOOLS: " , ," },
    "RUSTPAD_ALLOW_TOOLS",
    /it leaves no tool to register/,
  );
});

Deno.test("loadConfig() refuses read-only with an allow list of write tools", () => {
  assertRefused(
    { RUSTPAD_READ_ONLY: "yes", RUSTPAD_ALLOW_TOOLS: "set_document" },
    "RUSTPAD_ALLOW_TOOLS",
    /^RUSTPAD_ALLOW_TOOLS="set_document" and RUSTPAD_READ_ONLY="yes" are not accepted together: they leave no tool to register; expected at least one read tool that is allowed and not denied$/,
  );
  assertRefused(
    { RUSTPAD_READ_ONLY: "yes", RUSTPAD_DENY_TOOLS: READ_TOOLS.join(",") },
    "RUSTPAD_DENY_TOOLS",
    /^RUSTPAD_DENY_TOOLS=".*" and RUSTPAD_READ_ONLY="yes" are not accepted together/,
  );
});
