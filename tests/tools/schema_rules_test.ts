// The rules every tool's schemas keep, checked over tools/list as a client
// gets it, in both protocol eras (2025-11-25 and 2026-07-28) and under each
// RUSTPAD_CONFIRM: arguments a tool does not take are refused, so the input
// schema says so; a default is in the schema, not only in prose; a size the
// tool enforces is a maxLength; a line edit names end_line as required;
// only a tool that can ask a person lists confirmation_required; a nullable
// field is anyOf of single types (MCP Inspector's --strict warns on type
// arrays); every field, in and out, is described.

import assert from "node:assert/strict";
import type { Tool } from "@modelcontextprotocol/client";
import { startHttp } from "../_http.ts";
import { uiClient } from "../mcp/_ui_client.ts";
import { MAX_TEXT_LENGTH, TOOL_NAMES } from "../../src/mod.ts";
import { padIdProblem } from "../../src/rustpad/pad_id.ts";

type Schema = {
  type?: string | string[];
  description?: string;
  default?: unknown;
  maxLength?: number;
  enum?: unknown[];
  const?: unknown;
  properties?: Record<string, Schema>;
  items?: Schema;
  anyOf?: Schema[];
  oneOf?: Schema[];
  required?: string[];
  additionalProperties?: unknown;
};

/** Text arguments Rustpad bounds at MAX_TEXT_LENGTH code points. */
const TEXT_ARGUMENTS = new Set([
  "text",
  "search",
  "replace",
  "old_string",
  "new_string",
  "pattern",
]);

async function listed(
  era: "modern" | "legacy",
  env: Record<string, string> = {},
): Promise<Tool[]> {
  await using h = await startHttp({ env });
  await using client = await uiClient(h.server.url, { era, views: false });
  return (await client.client.listTools()).tools;
}

/** Every schema inside `schema` with the path to it, `schema` included. */
function* walk(schema: Schema, path: string): Generator<[string, Schema]> {
  yield [path, schema];
  for (const [name, inner] of Object.entries(schema.properties ?? {})) {
    yield* walk(inner, `${path}.${name}`);
  }
  if (schema.items) yield* walk(schema.items, `${path}[]`);
  for (const [i, inner] of (schema.anyOf ?? []).entries()) {
    yield* walk(inner, `${path}|${i}`);
  }
}

function checkTool(tool: Tool, problems: string[]): void {
  const input = tool.inputSchema as Schema;
  const output = tool.outputSchema as Schema | undefined;
  const say = (problem: string): void => {
    problems.push(`${tool.name}: ${problem}`);
  };
  if (input.additionalProperties !== false) {
    say("the input schema does not state additionalProperties: false");
  }
  if (output === undefined) return say("no output schema");
  for (const [root, schema] of [["in", input], ["out", output]] as const) {
    for (const [path, inner] of walk(schema, root)) {
      if (Array.isArray(inner.type)) {
        say(`${path} has a type array; use anyOf of single types`);
      }
      const isProperty = /\.[a-z_]+$/.test(path);
      if (isProperty && !inner.description?.trim()) {
        say(`${path} has no description`);
      }
      if (
        root === "in" && /\bdefault\b/i.test(inner.description ?? "") &&
        !("default" in inner)
      ) {
        say(`${path} names a default in prose only: ${inner.description}`);
      }
      if (root === "in" && inner.type === "object" && path !== "in") {
        if (inner.additionalProperties !== false) {
          say(`${path} does not state additionalProperties: false`);
        }
      }
    }
  }
  for (const [path, inner] of walk(input, "in")) {
    const name = path.split(".").at(-1)!;
    if (TEXT_ARGUMENTS.has(name) && inner.type === "string") {
      if (inner.maxLength !== MAX_TEXT_LENGTH) {
        say(`${path} has no maxLength ${MAX_TEXT_LENGTH}`);
      }
    }
    if (name === "idempotency_key" && inner.maxLength !== 128) {
      say(`${path} has no maxLength 128`);
    }
  }
  const asks = "confirm_token" in (input.properties ?? {});
  const statuses = output.properties?.status?.enum ?? [];
  if (asks !== statuses.includes("confirmation_required")) {
    say(
      `lists confirm_token ${asks} but confirmation_required ${!asks} in its output status`,
    );
  }
  if (!asks && "confirm_token" in (output.properties ?? {})) {
    say("cannot ask, yet its output lists confirm_token");
  }
}

for (const era of ["legacy", "modern"] as const) {
  for (const confirm of ["destructive", "always", "never"]) {
    Deno.test(`${era} era, RUSTPAD_CONFIRM=${confirm}: every tool's input and output schemas keep the schema rules`, async () => {
      const tools = await listed(era, { RUSTPAD_CONFIRM: confirm });
      assert.deepEqual(tools.map((tool) => tool.name), [...TOOL_NAMES]);
      const problems: string[] = [];
      for (const tool of tools) checkTool(tool, problems);
      assert.deepEqual(problems, []);
    });
  }

  Deno.test(`${era} era: edit_document's edit is one form, never both: a line edit requires end_line beside start_line, a string edit old_string`, async () => {
    const tools = await listed(era);
    const edit = tools.find((tool) => tool.name === "edit_document")!;
    const items = (edit.inputSchema as Schema).properties!.edits!.items!;
    assert.equal(items.anyOf, undefined);
    const forms = (items.oneOf ?? []).map((form) => form.required ?? []);
    assert.deepEqual(forms, [["old_string"], ["start_line", "end_line"]]);
    assert.deepEqual(items.required, ["new_string"]);
  });
}

Deno.test("every tool's description names the sibling tool to use otherwise", async () => {
  const tools = await listed("modern");
  for (const tool of tools) {
    const others = TOOL_NAMES.filter((name) =>
      name !== tool.name && tool.description!.includes(name)
    );
    assert.ok(others.length > 0, `${tool.name}: ${tool.description}`);
  }
});

Deno.test("RUSTPAD_SUGGEST=always states suggest's default, true, in the schema; under offer it is left out (false)", async () => {
  for (
    const [mode, value] of [["always", true], ["offer", undefined]] as const
  ) {
    const tools = await listed("modern", { RUSTPAD_SUGGEST: mode });
    let seen = 0;
    for (const tool of tools) {
      const suggest = (tool.inputSchema as Schema).properties?.suggest;
      if (suggest === undefined) continue;
      seen++;
      assert.equal(suggest.default, value, `${mode}: ${tool.name}`);
    }
    assert.ok(seen >= 7, `${mode}: ${seen} tools take suggest`);
  }
});

Deno.test("create_document's id pattern in the schema accepts exactly the ids the server takes (but '.' and '..')", async () => {
  const tools = await listed("modern");
  const create = tools.find((tool) => tool.name === "create_document")!;
  const id = (create.inputSchema as Schema).properties!.id as {
    pattern?: string;
  };
  assert.ok(id.pattern, "create_document's id states its pattern");
  const pattern = new RegExp(id.pattern);
  for (
    const candidate of ["abc", "A.b_c-9", "a b", "é", "x#y", "a/b", "", "%41"]
  ) {
    assert.equal(
      pattern.test(candidate),
      padIdProblem(candidate) === undefined,
      candidate,
    );
  }
});
