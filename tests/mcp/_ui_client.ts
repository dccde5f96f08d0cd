// A v2 SDK client of the HTTP server that declares, or not, the MCP Apps
// extension (io.modelcontextprotocol/ui), in either protocol era.

import {
  type CallToolResult,
  Client,
  StreamableHTTPClientTransport,
} from "@modelcontextprotocol/client";
import { MODERN } from "../_modern.ts";

export const UI_EXTENSION = "io.modelcontextprotocol/ui";
export const VIEW_MIME_TYPE = "text/html;profile=mcp-app";

export interface UiClientOptions {
  /** Declare the extension (default true). */
  views?: boolean;
  /** "modern" pins 2026-07-28; "legacy" lets the client initialize. */
  era?: "modern" | "legacy";
  /**
   * Declare form elicitation and answer each dialog with this (2025: an
   * elicitation request; 2026: an input_required question, answered by
   * the client and retried).
   */
  elicit?: (message: string) => {
    action: "accept" | "decline" | "cancel";
    content?: Record<string, string | number | boolean>;
  };
}

/** A connected client; `call` may carry request `_meta`. */
export interface UiClient extends AsyncDisposable {
  client: Client;
  call(
    name: string,
    args: Record<string, unknown>,
    meta?: Record<string, unknown>,
  ): Promise<CallToolResult>;
}

export async function uiClient(
  url: URL,
  options: UiClientOptions = {},
): Promise<UiClient> {
  const client = new Client(
    { name: "ui-test-client", version: "1.0.0" },
    {
      ...(options.era !== "legacy" &&
        { versionNegotiation: { mode: { pin: MODERN } } }),
      capabilities: {
        ...(options.views !== false && {
          extensions: { [UI_EXTENSION]: { mimeTypes: [VIEW_MIME_TYPE] } },
        }),
        ...(options.elicit && { elicitation: { form: {} } }),
      },
    },
  );
  if (options.elicit) {
    const answer = options.elicit;
    client.setRequestHandler("elicitation/create", (request) => {
      const params = request.params as { message: string };
      return answer(params.message);
    });
  }
  await client.connect(new StreamableHTTPClientTransport(url));
  return {
    client,
    async call(name, args, meta) {
      return await client.callTool({
        name,
        arguments: args,
        ...(meta && { _meta: meta }),
      }) as CallToolResult;
    },
    async [Symbol.asyncDispose]() {
      await client.close();
    },
  };
}
