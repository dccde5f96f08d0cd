/**
 * The MCP server on stdio: one session on its own backend, until the client
 * closes stdin. Stdout carries only the protocol; everything else goes to
 * stderr. A line over `RUSTPAD_MCP_MAX_MESSAGE_BYTES` (8 MiB by default)
 * is skipped and answered with a JSON-RPC error; the server goes on.
 *
 * @module
 */

import type { Backend } from "../backend/backend.ts";
import type { Config } from "../config/config.ts";
import { VERSION } from "../config/version.ts";
import { PendingRequests } from "./_pending_requests.ts";
import { createServer } from "./server.ts";
import { LineTransport } from "./_stdio_transport.ts";

/** How long requests still being answered when stdin closes may take. */
const STDIN_END_GRACE_MS = 10_000;

/**
 * Serve MCP on stdin and stdout until the client closes stdin, answering
 * the requests that arrived before it did.
 *
 * @param config The configuration.
 * @param backend The shared state to run on, which the caller closes;
 * by default the server's own.
 * @returns The process exit code, 0.
 *
 * @example
 * ```ts ignore
 * import { configFromEnvironment, serveStdio } from "@rustpad-mcp/server";
 *
 * Deno.exit(await serveStdio(configFromEnvironment()));
 * ```
 */
export async function serveStdio(
  config: Config,
  backend?: Backend,
): Promise<number> {
  const server = createServer(config, backend === undefined ? {} : { backend });
  const transport = new LineTransport({
    maxLineBytes: config.maxMessageBytes,
    input: Deno.stdin,
    output: Deno.stdout,
    log: (line) => console.error(line),
  });
  await server.connect(transport);
  const pending = new PendingRequests(transport);
  // Answer what was asked before stdin closed, then stop.
  void transport.ended.then(async () => {
    await pending.settled(STDIN_END_GRACE_MS);
    await server.close();
  });
  console.error(
    `rustpad-mcp ${VERSION}: serving on stdio for ${config.rustpadUrl.href} with ${config.tools.size} tools`,
  );
  if (config.confirm === "never") {
    console.error(
      "rustpad-mcp: warning: RUSTPAD_CONFIRM=never: no write asks a person first, not even one that replaces a whole pad",
    );
  }
  await server.closed;
  await server.close();
  return 0;
}
