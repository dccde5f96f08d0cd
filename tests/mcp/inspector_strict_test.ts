// MCP Inspector's CLI, an outside client, lists the tools over stdio with
// --strict in both protocol eras: no tool-schema portability warning or
// error (such as a `type` array for a nullable field). It runs through npx,
// as .ci/run has npm (Deno is installed from it); the first run fetches the
// pinned Inspector from the npm registry.

import assert from "node:assert/strict";
import { childEnv } from "../_child_env.ts";

const INSPECTOR = "@modelcontextprotocol/inspector@2.12.0";
const MOD = new URL("../../mod.ts", import.meta.url).pathname;

/** The Inspector's CLI with `flags` against this server on stdio. */
async function inspector(flags: string[]): Promise<Deno.CommandOutput> {
  return await new Deno.Command("npx", {
    args: [
      "--yes",
      INSPECTOR,
      "--cli",
      ...flags,
      "-e",
      "RUSTPAD_URL=http://127.0.0.1:9/",
      Deno.execPath(),
      "run",
      "-A",
      MOD,
    ],
    env: childEnv({ RUSTPAD_URL: "http://127.0.0.1:9/" }),
    stdin: "null",
  }).output().catch((error: Error) => {
    throw new Error(
      `Cannot run npx as ${error.message}: install Node.js and npm (bash .ci/run does)`,
    );
  });
}

for (const era of ["legacy", "modern"] as const) {
  Deno.test(`MCP Inspector ${INSPECTOR} --strict lists 16 tools with no warning in the ${era} era`, async () => {
    const output = await inspector([
      "--method",
      "tools/list",
      "--strict",
      "--protocol-era",
      era,
    ]);
    const stderr = new TextDecoder().decode(output.stderr);
    assert.equal(output.code, 0, stderr);
    assert.doesNotMatch(stderr, /^(Warning|Error)\b/m, stderr);
    assert.doesNotMatch(stderr, /[1-9]\d* (errors|warnings)/, stderr);
    const { tools } = JSON.parse(new TextDecoder().decode(output.stdout));
    assert.equal(tools.length, 16);
  });
}

Deno.test(`MCP Inspector ${INSPECTOR} --app-info links the pad view to the writes, list_suggestions and the view's own tools, never to a read`, async () => {
  const output = await inspector([
    "--advertise-apps",
    "--app-info",
    "--method",
    "tools/list",
  ]);
  assert.equal(output.code, 0, new TextDecoder().decode(output.stderr));
  const linked = new TextDecoder().decode(output.stdout).trim().split("\n")
    .map((line) => JSON.parse(line) as { toolName: string; hasApp: boolean })
    .filter((tool) => tool.hasApp).map((tool) => tool.toolName).sort();
  assert.deepEqual(linked, [
    "append_to_document",
    "create_document",
    "edit_document",
    "list_suggestions",
    "replace_in_document",
    "set_document",
    "set_language",
    "undo_last_edit",
    "view_decide_suggestion",
    "view_read_pad",
    "view_wait_pad",
    "withdraw_suggestion",
  ]);
});
