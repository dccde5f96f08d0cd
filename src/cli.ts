/**
 * The command-line entry: flags, configuration from the environment, and
 * the MCP server on stdio until the client closes stdin. Stdout carries only
 * the protocol; everything else goes to stderr.
 *
 * @module
 */

import process from "node:process";
import { parseArgs } from "node:util";
// @ts-types="@modelcontextprotocol/sdk/server/stdio"
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { ConfigError, configFromEnvironment, usage } from "./config.ts";
import { createServer } from "./server.ts";
import { VERSION } from "./version.ts";

/** Exit code for a bad flag or configuration value. */
const USAGE_EXIT_CODE = 2;

/**
 * Run the CLI: `--help`, `--version`, or serve MCP over stdio until stdin
 * closes.
 *
 * @param args The command-line arguments, without the program.
 * @returns The process exit code.
 *
 * @example
 * ```ts ignore
 * import { main } from "@rustpad-mcp/server";
 *
 * Deno.exit(await main(Deno.args));
 * ```
 */
export async function main(args: string[]): Promise<number> {
  let flags: { help?: boolean | undefined; version?: boolean | undefined };
  try {
    flags = parseArgs({
      args,
      options: {
        help: { type: "boolean", short: "h" },
        version: { type: "boolean", short: "V" },
      },
      strict: true,
      allowPositionals: false,
    }).values;
  } catch (error) {
    console.error(
      `rustpad-mcp: ${
        (error as Error).message
      }; see --help (configuration is by environment variables)`,
    );
    return USAGE_EXIT_CODE;
  }
  if (flags.help) {
    // Not serving MCP, so stdout is free for the usage text.
    await writeStdout(usage(VERSION));
    return 0;
  }
  if (flags.version) {
    await writeStdout(`rustpad-mcp ${VERSION}\n`);
    return 0;
  }

  let config;
  try {
    config = configFromEnvironment();
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.error(`rustpad-mcp: ${error.message}`);
    return USAGE_EXIT_CODE;
  }

  const server = createServer(config);
  const closed = Promise.withResolvers<void>();
  server.server.onclose = () => closed.resolve();
  process.stdin.once("end", () => void server.close());
  await server.connect(new StdioServerTransport());
  console.error(
    `rustpad-mcp ${VERSION}: serving on stdio for ${config.rustpadUrl.href} with ${config.tools.size} tools`,
  );
  await closed.promise;
  await server.close();
  return 0;
}

async function writeStdout(text: string): Promise<void> {
  const bytes = new TextEncoder().encode(text);
  let written = 0;
  while (written < bytes.length) {
    written += await Deno.stdout.write(bytes.subarray(written));
  }
}
