// The MCP side of the operator log: declare the `logging` capability on one
// session's server, answer its `logging/setLevel`, and send it the
// process's messages as `notifications/message` until it closes.

// @ts-types="@modelcontextprotocol/server"
import type { McpServer } from "@modelcontextprotocol/server";
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
  server.server.setRequestHandler("logging/setLevel", (request) => {
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
