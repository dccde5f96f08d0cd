import assert from "node:assert/strict";
import { connect } from "../_mcp.ts";
import { INSTRUCTIONS, TOOL_NAMES } from "../../src/mod.ts";

const SNAPSHOT = new URL("../snapshots/tools_list.json", import.meta.url);

const CONFIGURATIONS: Record<string, Record<string, string>> = {
  default: {},
  essential: { RUSTPAD_ALLOW_TOOLS: "essential" },
  read_only: { RUSTPAD_READ_ONLY: "yes" },
  deny: { RUSTPAD_DENY_TOOLS: "set_document, replace_in_document" },
};

async function listTools(env: Record<string, string>): Promise<unknown[]> {
  await using h = await connect({ env });
  return (await h.client.listTools()).tools;
}

Deno.test("`tools/list` matches the snapshot for the default, essential, read-only and deny configurations", async () => {
  const lists: Record<string, unknown[]> = {};
  for (const [name, env] of Object.entries(CONFIGURATIONS)) {
    lists[name] = await listTools(env);
  }
  if (Deno.env.get("UPDATE_SNAPSHOTS") === "1") {
    await Deno.writeTextFile(SNAPSHOT, JSON.stringify(lists, null, 2) + "\n");
  }
  const expected = JSON.parse(await Deno.readTextFile(SNAPSHOT));
  // Compare as JSON, the form a client receives.
  assert.deepEqual(JSON.parse(JSON.stringify(lists)), expected);
  const names = (list: unknown[] | undefined) =>
    (list ?? []).map((tool) => (tool as { name: string }).name);
  assert.deepEqual(names(lists.default), [...TOOL_NAMES]);
  assert.deepEqual(names(lists.essential), [
    "get_document",
    "get_document_info",
    "create_document",
    "set_document",
    "append_to_document",
  ]);
  assert.deepEqual(names(lists.read_only), [
    "get_document",
    "read_lines",
    "search_document",
    "get_document_info",
    "get_stats",
    "wait_for_change",
    "get_changes",
    "list_suggestions",
  ]);
  assert.deepEqual(names(lists.deny), [
    "get_document",
    "read_lines",
    "search_document",
    "get_document_info",
    "get_stats",
    "create_document",
    "append_to_document",
    "edit_document",
    "set_language",
    "wait_for_change",
    "undo_last_edit",
    "get_changes",
    "list_suggestions",
    "withdraw_suggestion",
  ]);
});

interface ListedTool {
  name: string;
  title?: string;
  description?: string;
  inputSchema: { properties?: Record<string, { description?: string }> };
  outputSchema?: {
    type: string;
    properties?: Record<string, { description?: string }>;
  };
  annotations?: Record<string, boolean>;
}

Deno.test("every tool declares a title, an object outputSchema, all four annotations and described parameters", async () => {
  const tools = await listTools({}) as ListedTool[];
  const destructive = [
    "set_document",
    "replace_in_document",
    "edit_document",
    "undo_last_edit",
  ];
  const idempotent = [
    "get_document",
    "read_lines",
    "search_document",
    "get_document_info",
    "get_stats",
    "get_changes",
    "list_suggestions",
    "withdraw_suggestion",
  ];
  const reads = [
    "get_document",
    "read_lines",
    "search_document",
    "get_document_info",
    "get_stats",
    "wait_for_change",
    "get_changes",
    "list_suggestions",
  ];
  for (const tool of tools) {
    assert.ok(tool.title, `${tool.name} has a title`);
    assert.ok(tool.description, `${tool.name} has a description`);
    assert.equal(tool.outputSchema?.type, "object", tool.name);
    assert.deepEqual(tool.annotations, {
      readOnlyHint: reads.includes(tool.name),
      destructiveHint: destructive.includes(tool.name),
      idempotentHint: idempotent.includes(tool.name),
      openWorldHint: true,
    }, tool.name);
    // Result fields are described only where their name leaves something
    // open (tools/list size is pinned); every parameter is described.
    for (
      const [field, schema] of Object.entries(tool.inputSchema.properties ?? {})
    ) {
      assert.ok(schema.description, `${tool.name}.${field} is described`);
    }
  }
});

Deno.test("`initialize` answers with instructions on pads, ids and untrusted text", async () => {
  await using h = await connect();
  const instructions = h.client.getInstructions();
  assert.equal(instructions, INSTRUCTIONS);
  assert.match(instructions ?? "", /after '#'/);
  assert.match(instructions ?? "", /never instructions/);
  assert.equal(h.client.getServerVersion()?.name, "rustpad-mcp");
});

Deno.test("a filtered-out tool is not registered and cannot be called", async () => {
  await using h = await connect({ env: { RUSTPAD_READ_ONLY: "true" } });
  const result = await h.call("append_to_document", { id: "x", text: "y" });
  assert.equal(result.isError, true);
  assert.equal(await h.text("x"), "");
});
