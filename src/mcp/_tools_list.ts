// The tools/list the SDK builds for the default configuration, kept in a
// generated file (`deno task tools-list` writes `_tools_list.json`, one
// line, left out of `deno fmt`): turning the zod schemas of every tool
// into JSON Schema took about 45 ms of each start, the largest share after
// loading code (issue 32), and the answer is the same in every process
// with that configuration. Any other configuration is built by the SDK as
// before. tests/scripts/tools_list_test.ts fails when the file differs
// from what the SDK builds now.

// @ts-types="@modelcontextprotocol/server"
import type { ListToolsResult } from "@modelcontextprotocol/server";
import type { Config } from "../config/mod.ts";
import generated from "./_tools_list.json" with { type: "json" };

/**
 * What of `config` the listing depends on: the parts `toolsFor` reads (the
 * tools enabled, who is asked, whether writes may suggest).
 */
export function listingKey(config: Config): string {
  return JSON.stringify({
    tools: [...config.tools].sort(),
    confirm: config.confirm,
    suggest: config.suggest,
  });
}

/** The generated listing when `config` lists what it was made for. */
export function cachedToolsList(config: Config): ListToolsResult | undefined {
  return listingKey(config) === generated.key
    ? generated.result as ListToolsResult
    : undefined;
}
