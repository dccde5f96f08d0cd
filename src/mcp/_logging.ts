// The MCP side of the operator log: declare the `logging` capability on one
// session's server, answer its `logging/setLevel`, and send it the
// process's messages as `notifications/message` until it closes.

// @ts-types="@modelcontextprotocol/sdk/server/mcp"
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
// @ts-types="@modelcontextprotocol/sdk/types"
import { SetLevelRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import type { LogSink, OperatorLog } from "../backend/logging.ts";

/**
 * Attach `server` to `log`, hearing of a pad only where `follows` says so;
 * call before connecting it.
 */
export function attachLogging(
  server: McpServer,
  log: OperatorLog,
  follows: (pad: string) => boolean = () => true,
): void {
  const sink: LogSink = {
    async send(message) {
      if (server.isConnected()) await server.server.sendLoggingMessage(message);
    },
  };
  server.server.registerCapabilities({ logging: {} });
  server.server.setRequestHandler(SetLevelRequestSchema, (request) => {
    log.setLevel(sink, request.params.level);
    return {};
  });
  const detach = log.attach(sink, follows);
  const previous = server.server.onclose;
  server.server.onclose = () => {
    previous?.();
    detach();
  };
}
