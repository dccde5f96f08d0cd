// Writes src/mcp/_tools_list.json: the tools/list the SDK builds for the
// default configuration, which a start then serves without converting
// every tool's zod schemas to JSON Schema (src/mcp/_tools_list.ts).
// Run it after changing any tool's name, text, schema or annotations.
//
//   deno task tools-list            write src/mcp/_tools_list.json
//   deno task tools-list --check    exit 1 if the committed file is stale

import { createBackend, loadConfig } from "../mod.ts";
import { buildServer } from "../src/mcp/server.ts";
import { sdkToolsList } from "../src/mcp/_app_view.ts";
import { listingKey } from "../src/mcp/_tools_list.ts";
import type { Era } from "../src/mcp/_eras.ts";
import { createToolContext } from "../src/tools/mod.ts";

/** The generated module. */
export const OUTPUT: URL = new URL(
  "../src/mcp/_tools_list.json",
  import.meta.url,
);

/**
 * The file's content built now: the default configuration's key and the
 * SDK's listing in `era` (the eras list alike; the test checks both).
 */
export async function buildToolsList(era: Era = "legacy"): Promise<string> {
  const config = loadConfig({ RUSTPAD_URL: "http://127.0.0.1:1" });
  await using backend = createBackend(config);
  const mcp = buildServer(era, { ...createToolContext(backend), config }, {
    sdkListing: true,
  });
  const result = await sdkToolsList(mcp);
  await mcp.close();
  return `${JSON.stringify({ key: listingKey(config), result })}\n`;
}

if (import.meta.main) {
  const built = await buildToolsList();
  const committed = await Deno.readTextFile(OUTPUT).catch(() => "");
  if (Deno.args.includes("--check")) {
    if (built !== committed) {
      console.error(
        "src/mcp/_tools_list.json is stale: run deno task tools-list",
      );
      Deno.exit(1);
    }
  } else if (built !== committed) {
    await Deno.writeTextFile(OUTPUT, built);
    console.error(`wrote ${OUTPUT.pathname}`);
  }
}
