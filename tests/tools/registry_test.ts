// The tool registry is plain values: listed, read and called without an
// MCP server.

import assert from "node:assert/strict";
import { z } from "zod";
import { createBackend, loadConfig, TOOL_NAMES } from "../../src/mod.ts";
import {
  createToolContext,
  defineTool,
  defineWriteTool,
  objectSchema,
  type ToolCall,
  TOOLS,
  toolsFor,
} from "../../src/tools/mod.ts";
import { startPadServer } from "../../src/testing/mod.ts";

const call: ToolCall = { signal: new AbortController().signal };

Deno.test("`TOOLS` lists every tool by name, each with its schemas and annotations", () => {
  assert.deepEqual(Object.keys(TOOLS), [...TOOL_NAMES]);
  for (const [name, tool] of Object.entries(TOOLS)) {
    assert.equal(tool.name, name);
    assert.ok(tool.title.length > 0 && tool.description.length > 0, name);
    const input = z.toJSONSchema(tool.inputSchema, { io: "input" }) as {
      properties?: Record<string, { description?: string }>;
    };
    for (const [field, schema] of Object.entries(input.properties ?? {})) {
      assert.ok(schema.description, `${name}.${field} is described`);
    }
  }
});

Deno.test("a tool definition runs without an MCP server: append, then read back", async () => {
  await using pads = await startPadServer();
  await using backend = createBackend(loadConfig({ RUSTPAD_URL: pads.url }));
  const context = createToolContext(backend);
  const appended = await TOOLS.append_to_document.run(
    TOOLS.append_to_document.inputSchema.parse({ id: "plain", text: "hi" }),
    context,
    call,
  );
  assert.equal(appended.structuredContent.status, "applied");
  assert.equal(pads.text("plain"), "hi");
  const read = await TOOLS.get_document.run({ id: "plain" }, context, call);
  assert.equal(read.structuredContent.text, "hi");
  assert.deepEqual(read.text.at(-1), {
    untrusted: "hi",
    source: 'pad "plain"',
  });
});

Deno.test("a tool definition's failure is a thrown error with its sentence", async () => {
  await using pads = await startPadServer();
  await using backend = createBackend(loadConfig({ RUSTPAD_URL: pads.url }));
  const context = createToolContext(backend);
  await TOOLS.append_to_document.run({ id: "taken", text: "x" }, context, call);
  await assert.rejects(
    TOOLS.create_document.run({ id: "taken" }, context, call),
    /Cannot create pad "taken" as it already has content/,
  );
});

Deno.test("a tool's schemas are built at their first use, once, and a write tool's with them", () => {
  const built: string[] = [];
  const annotations = {
    readOnlyHint: false,
    destructiveHint: false,
    idempotentHint: false,
    openWorldHint: true,
  };
  const spec = {
    name: "note",
    title: "Note",
    description: "Write a note.",
    annotations,
    inputSchema: () => {
      built.push("input");
      return objectSchema({ id: z.string().describe("Pad id.") });
    },
    outputSchema: () => {
      built.push("output");
      return objectSchema({ status: z.string() });
    },
  };
  const read = defineTool({
    ...spec,
    run: () => Promise.resolve({ structuredContent: {}, text: [] }),
  });
  const write = defineWriteTool({
    ...spec,
    write: () => Promise.resolve({ structuredContent: {}, text: [] }),
  });
  assert.deepEqual(built, []);
  assert.equal(read.inputSchema, read.inputSchema);
  assert.deepEqual(built, ["input"]);
  assert.ok("suggest" in write.inputSchema.shape);
  assert.equal(write.inputSchema, write.inputSchema);
  assert.deepEqual(built, ["input", "input"]);
  assert.equal(write.outputSchema, write.outputSchema);
  assert.deepEqual(built, ["input", "input", "output"]);
});

Deno.test("the tools of a configuration list only the parameters it uses, as the registry's schemas say", () => {
  const base = { RUSTPAD_URL: "http://127.0.0.1:1" };
  const [never] = toolsFor(
    loadConfig({
      ...base,
      RUSTPAD_ALLOW_TOOLS: "set_document",
      RUSTPAD_CONFIRM: "never",
    }),
  );
  const [asks] = toolsFor(
    loadConfig({
      ...base,
      RUSTPAD_ALLOW_TOOLS: "set_document",
      RUSTPAD_SUGGEST: "always",
    }),
  );
  assert.ok("confirm_token" in TOOLS.set_document.inputSchema.shape);
  assert.equal("confirm_token" in never!.inputSchema.shape, false);
  assert.equal("confirm_token" in never!.outputSchema.shape, false);
  assert.ok("confirm_token" in asks!.inputSchema.shape);
  assert.ok("confirm_token" in asks!.outputSchema.shape);
  assert.equal(
    (asks!.inputSchema.shape.suggest as z.ZodType).meta()?.default,
    true,
  );
  assert.match(asks!.description, /RUSTPAD_SUGGEST=always/);
  assert.doesNotMatch(never!.description, /RUSTPAD_SUGGEST=always/);
});
