// What a model reads of this server on every connection is a cost paid in
// every conversation: the instructions, and each tool's name, title,
// description and input schema. A budget pins that sum for the default
// configuration (output schemas are not in it: clients validate with them,
// models rarely see them), and a test keeps the generated noise (`$schema`,
// meaningless integer bounds, `additionalProperties`, the SDK's default
// `execution`) out of tools/list.

import assert from "node:assert/strict";
import { connect } from "../_mcp.ts";
import { INSTRUCTIONS } from "../../mod.ts";

/**
 * The most characters a model reads: instructions plus, per tool, name,
 * title, description and `JSON.stringify` of the input schema. Spend it on
 * what a model needs to call right the first time, never on repetition.
 */
const MODEL_READS_BUDGET = 14_000;

async function toolsList(env: Record<string, string> = {}): Promise<string> {
  await using h = await connect({ env });
  return JSON.stringify(await h.client.listTools());
}

Deno.test("what a model reads (instructions, names, titles, descriptions, input schemas) stays within 14,000 characters", async () => {
  const { tools } = JSON.parse(await toolsList()) as {
    tools: {
      name: string;
      title?: string;
      description?: string;
      inputSchema: unknown;
    }[];
  };
  assert.equal(tools.length, 16);
  const parts = tools.map((tool) => ({
    name: tool.name,
    size: tool.name.length + (tool.title ?? "").length +
      (tool.description ?? "").length + JSON.stringify(tool.inputSchema).length,
  }));
  const total = INSTRUCTIONS.length +
    parts.reduce((sum, part) => sum + part.size, 0);
  assert.ok(
    total <= MODEL_READS_BUDGET,
    `a model reads ${total} characters, over the budget of ${MODEL_READS_BUDGET}: instructions ${INSTRUCTIONS.length}, ${
      parts.map((part) => `${part.name} ${part.size}`).join(", ")
    }. Say each rule once, where the model needs it`,
  );
});

Deno.test("tools/list carries no $schema keys, ±(2^53-1) integer bounds, additionalProperties or execution", async () => {
  const listed = await toolsList();
  assert.ok(
    !listed.includes('"$schema"'),
    "a tool schema has $schema: build it with objectSchema() from src/tools/_shared.ts",
  );
  assert.ok(
    !listed.includes(String(Number.MAX_SAFE_INTEGER)),
    "a tool schema has a ±(2^53-1) bound: build counts with countSchema() from src/tools/_shared.ts",
  );
  assert.ok(
    !listed.includes('"additionalProperties"'),
    "a tool schema has additionalProperties: build objects with objectSchema() from src/tools/_shared.ts",
  );
  assert.ok(
    !listed.includes('"execution"'),
    "a tool has execution: registerTools in src/mcp/_tools.ts removes it",
  );
});
