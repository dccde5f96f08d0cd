// The generated tools/list (src/mcp/_tools_list.json) a start serves for
// the default configuration must be exactly what the SDK builds now, in
// either era; any other configuration is built by the SDK.

import assert from "node:assert/strict";
import { buildToolsList, OUTPUT } from "../../scripts/tools_list.ts";
import { loadConfig } from "../../mod.ts";
import { cachedToolsList } from "../../src/mcp/_tools_list.ts";

Deno.test("the committed tools/list is what the SDK builds now for the default configuration, in both eras (else: deno task tools-list)", async () => {
  const committed = await Deno.readTextFile(OUTPUT);
  assert.equal(await buildToolsList("legacy"), committed);
  assert.equal(await buildToolsList("modern"), committed);
});

Deno.test("the generated tools/list is served only for the configuration it was made for", () => {
  const base = { RUSTPAD_URL: "http://127.0.0.1:1" };
  assert.ok(cachedToolsList(loadConfig(base)));
  for (
    const env of [
      { RUSTPAD_READ_ONLY: "true" },
      { RUSTPAD_SUGGEST: "always" },
      { RUSTPAD_SUGGEST: "never" },
      { RUSTPAD_CONFIRM: "never" },
      { RUSTPAD_CONFIRM: "always" },
      { RUSTPAD_ALLOW_TOOLS: "get_document" },
    ]
  ) {
    assert.equal(
      cachedToolsList(loadConfig({ ...base, ...env })),
      undefined,
      JSON.stringify(env),
    );
  }
});
