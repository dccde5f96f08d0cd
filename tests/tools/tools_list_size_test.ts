// What a model reads of this server on every connection is a cost paid in
// every conversation: the instructions, and each tool's name, title,
// description and input schema. A budget pins that sum for the default
// configuration (output schemas are not in it: clients validate with them,
// models rarely see them), and a test keeps the generated noise (`$schema`,
// meaningless integer bounds, output objects' `additionalProperties`, the
// SDK's default `execution`) out of tools/list. An input schema states
// `additionalProperties: false`, since unknown arguments are refused.

import assert from "node:assert/strict";
import type { Tool } from "@modelcontextprotocol/client";
import { connect } from "../_mcp.ts";
import { startHttp } from "../_http.ts";
import { uiClient } from "../mcp/_ui_client.ts";
import { INSTRUCTIONS } from "../../src/mod.ts";
import { MAX_PAD_ID_LENGTH, padIdProblem } from "../../src/rustpad/pad_id.ts";

/**
 * The most characters a model reads: instructions plus, per tool, name,
 * title, description and `JSON.stringify` of the input schema. Spend it on
 * what a model needs to call right the first time, never on repetition.
 * Issue 27 caps it at 14,000 with the tools added beside the 13 of before
 * (which read about 12,700); issue 31 adds `summary` (the agent's reason
 * for a suggestion, about 85 characters) to the 8 write tools; issue 33
 * brings it back to 14,000 with every description naming its sibling.
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

Deno.test("a client that renders views (MCP Apps): its model reads the same 16 tools and characters, the view's app-only tools not counted", async () => {
  await using h = await startHttp();
  await using plain = await uiClient(h.server.url, { views: false });
  await using views = await uiClient(h.server.url);
  const modelReads = (tools: Tool[]) =>
    tools.filter((tool) => {
      const { visibility } = (tool._meta?.ui ?? {}) as {
        visibility?: string[];
      };
      return visibility === undefined || visibility.includes("model");
    }).map((tool) => ({
      name: tool.name,
      size: tool.name.length + (tool.title ?? "").length +
        (tool.description ?? "").length +
        JSON.stringify(tool.inputSchema).length,
    }));
  const all = (await views.client.listTools()).tools;
  assert.equal(all.length, 19, "the view's three tools are listed to its host");
  assert.deepEqual(
    modelReads(all),
    modelReads((await plain.client.listTools()).tools),
  );
  assert.equal(modelReads(all).length, 16);
});

Deno.test("tools/list carries no $schema keys, ±(2^53-1) integer bounds, output additionalProperties or execution", async () => {
  const listed = await toolsList();
  assert.ok(
    !listed.includes('"$schema"'),
    "a tool schema has $schema: build it with objectSchema() from src/tools/_shared.ts",
  );
  assert.ok(
    !listed.includes(String(Number.MAX_SAFE_INTEGER)),
    "a tool schema has a ±(2^53-1) bound: build counts with countSchema() from src/tools/_shared.ts",
  );
  for (const tool of JSON.parse(listed).tools as Tool[]) {
    assert.ok(
      !JSON.stringify(tool.outputSchema).includes('"additionalProperties"'),
      `${tool.name}'s output schema has additionalProperties: build objects with objectSchema() from src/tools/_shared.ts`,
    );
    assert.equal(
      (tool.inputSchema as { additionalProperties?: unknown })
        .additionalProperties,
      false,
      tool.name,
    );
  }
  assert.ok(
    !listed.includes('"execution"'),
    "a tool has execution: registerTools in src/mcp/_tools.ts removes it",
  );
});

Deno.test("create_document lists the pad id's maxLength (the model makes that id up), and every tool refuses an id outside the rule, stating it", async () => {
  await using h = await connect();
  const { tools } = await h.client.listTools();
  for (const tool of tools) {
    const id = (tool.inputSchema.properties as Record<
      string,
      { maxLength?: number }
    >).id;
    if (id === undefined) continue;
    assert.equal(
      id.maxLength,
      tool.name === "create_document" ? MAX_PAD_ID_LENGTH : undefined,
      tool.name,
    );
  }
  for (const good of ["notes", "a.b_c-D9", "...", ".hidden"]) {
    assert.equal(padIdProblem(good), undefined);
  }
  for (const bad of [".", "..", "a b", "a/b", "é", "#notes"]) {
    const refused = await h.call("get_document", { id: bad });
    assert.equal(refused.isError, true, bad);
    assert.equal(
      (refused.content as { text: string }[])[0]!.text.includes(
        padIdProblem(bad)!,
      ),
      true,
      bad,
    );
  }
});

Deno.test("no tool description repeats what its annotations say (Read-only.), and sizes are numbers", async () => {
  const { tools } = JSON.parse(await toolsList()) as {
    tools: {
      name: string;
      description: string;
      outputSchema: {
        properties: Record<string, { description?: string }>;
      };
    }[];
  };
  for (const tool of tools) {
    assert.doesNotMatch(tool.description, /Read-only/, tool.name);
    assert.doesNotMatch(tool.description, /short pads/, tool.name);
  }
  const document = tools.find((tool) => tool.name === "get_document");
  assert.match(document?.description ?? "", /20,000 code points/);
  assert.match(document?.description ?? "", /262,144 code points/);
  for (const tool of tools) {
    // One way to write a number: thousands separated, units named.
    assert.doesNotMatch(tool.description, /\d{5}/, tool.name);
    assert.doesNotMatch(tool.description, /characters/, tool.name);
  }
  // The one length in UTF-16 units names them, and the one in code points.
  assert.match(
    document?.outputSchema.properties.total_length?.description ?? "",
    /UTF-16 units \(get_document_info's length counts code points\)/,
  );
});
