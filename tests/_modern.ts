// The v2 SDK client pinned to protocol revision 2026-07-28, over stdio (the
// CLI as a subprocess) or Streamable HTTP: what the 2026-era tests drive.

import {
  Client,
  StreamableHTTPClientTransport,
} from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import type { CallToolResult } from "@modelcontextprotocol/client";
import { childEnv } from "./_child_env.ts";

/** The revision the 2026-era tests pin. */
export const MODERN = "2026-07-28";

/** A connected 2026-era client and a shortcut for tool calls. */
export interface ModernClient extends AsyncDisposable {
  client: Client;
  call(name: string, args?: Record<string, unknown>): Promise<CallToolResult>;
}

/** Options of {@linkcode modernClient}. */
export interface ModernClientOptions {
  /** Declare form elicitation and answer each dialog with this. */
  elicit?: (
    message: string,
  ) => {
    action: "accept" | "decline" | "cancel";
    content?: Record<string, string | number | boolean>;
  };
  /** Bearer token for HTTP. */
  token?: string;
  /** Hand `input_required` results back instead of answering them. */
  manual?: boolean;
}

function pinned(options: ModernClientOptions): Client {
  const client = new Client(
    { name: "modern-test-client", version: "1.0.0" },
    {
      versionNegotiation: { mode: { pin: MODERN } },
      ...(options.manual && { inputRequired: { autoFulfill: false } }),
      ...((options.elicit || options.manual) &&
        { capabilities: { elicitation: { form: {} } } }),
    },
  );
  if (options.elicit) {
    const answer = options.elicit;
    client.setRequestHandler("elicitation/create", (request) => {
      const params = request.params as { message: string };
      return answer(params.message);
    });
  }
  return client;
}

function wrap(client: Client): ModernClient {
  return {
    client,
    async call(name, args = {}) {
      return await client.callTool({ name, arguments: args }) as CallToolResult;
    },
    async [Symbol.asyncDispose]() {
      await client.close();
    },
  };
}

/** A pinned client of the CLI on stdio, with `env`. */
export async function modernStdio(
  env: Record<string, string>,
  options: ModernClientOptions = {},
): Promise<ModernClient> {
  const client = pinned(options);
  await client.connect(
    new StdioClientTransport({
      command: Deno.execPath(),
      args: ["run", "-A", new URL("../mod.ts", import.meta.url).pathname],
      env: childEnv(env),
      stderr: "ignore",
    }),
  );
  return wrap(client);
}

/** A pinned client of the HTTP server at `url`. */
export async function modernHttp(
  url: URL,
  options: ModernClientOptions = {},
): Promise<ModernClient> {
  const client = pinned(options);
  await client.connect(
    new StreamableHTTPClientTransport(url, {
      ...(options.token && {
        requestInit: { headers: { authorization: `Bearer ${options.token}` } },
      }),
    }),
  );
  return wrap(client);
}
