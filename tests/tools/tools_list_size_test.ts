// tools/list is read by the model on every connection, so its size is a
// cost paid in every conversation. These tests keep it from creeping back:
// a ceiling on its size for the default configuration, one for the eight
// tools whose list was once 15,529 characters, and none of the generated
// noise (`$schema`, meaningless integer bounds, `additionalProperties`, the
// SDK's default `execution`) that once made up about 13% of it.

import assert from "node:assert/strict";
import { connect } from "../_mcp.ts";

/**
 * The most characters `JSON.stringify` of the default configuration's
 * tools/list result may have (13 tools: about 26,300 now, plus 3%). Raise
 * it only for a new tool or parameter, never for wordier descriptions.
 */
const TOOLS_LIST_CEILING = 27_100;

/**
 * The eight tools whose list was 15,529 characters before the rules moved
 * to the instructions: they must stay under that, although they gained
 * idempotency keys, base revisions, conflicts and people nearby since, plus
 * the two fields that bound people's data in `get_document_info`
 * (`name_truncated`, `more_people`: 71 characters).
 */
const EIGHT_TOOLS = [
  "get_document",
  "get_document_info",
  "get_stats",
  "create_document",
  "set_document",
  "append_to_document",
  "replace_in_document",
  "set_language",
];
const EIGHT_TOOLS_CEILING = 15_529 + 71;

async function toolsList(env: Record<string, string> = {}): Promise<string> {
  await using h = await connect({ env });
  return JSON.stringify(await h.client.listTools());
}

Deno.test("tools/list for the default configuration stays under its character ceiling", async () => {
  const size = (await toolsList()).length;
  assert.ok(
    size <= TOOLS_LIST_CEILING,
    `tools/list is ${size} characters, over the ceiling of ${TOOLS_LIST_CEILING}: shorten descriptions, or raise the ceiling for a new tool`,
  );
});

Deno.test("tools/list of the eight original tools stays under the 15,529 characters it once had, plus the bound fields", async () => {
  const listed = await toolsList({
    RUSTPAD_ALLOW_TOOLS: EIGHT_TOOLS.join(","),
  });
  assert.equal(JSON.parse(listed).tools.length, EIGHT_TOOLS.length);
  assert.ok(
    listed.length <= EIGHT_TOOLS_CEILING,
    `tools/list of the eight tools is ${listed.length} characters, over ${EIGHT_TOOLS_CEILING}: shorten descriptions or shared schemas`,
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
    "a tool has execution: wrap its registerTool in withoutTaskSupport() from src/tools/_shared.ts",
  );
});
