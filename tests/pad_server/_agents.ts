// Agent processes sharing one pad server's agent API: `mod.ts` on stdio
// through the SDK client, with the pad server's secret in
// RUSTPAD_AGENT_SECRET, and the agent API's calls as an agent makes them.

// @ts-types="@modelcontextprotocol/sdk/client/index"
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
// @ts-types="@modelcontextprotocol/sdk/client/stdio"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { childEnv } from "../_child_env.ts";
// @ts-types="@modelcontextprotocol/sdk/types"
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { MOD } from "../cli/_run.ts";

/** The agent secret the tests' pad servers take. */
export const SECRET = "test-agent-secret-0123456789abcdef";

/** One agent process. */
export interface AgentProcess extends AsyncDisposable {
  client: Client;
  stderr: () => string;
  call(name: string, args: Record<string, unknown>): Promise<CallToolResult>;
}

/** `mod.ts` on stdio against `url`, with the secret unless told otherwise. */
export async function agentProcess(
  url: string,
  env: Record<string, string> = {},
): Promise<AgentProcess> {
  const transport = new StdioClientTransport({
    command: Deno.execPath(),
    args: ["run", "-A", MOD],
    env: childEnv({ RUSTPAD_URL: url, RUSTPAD_AGENT_SECRET: SECRET, ...env }),
    stderr: "pipe",
  });
  let stderr = "";
  transport.stderr?.on("data", (chunk: Uint8Array) => {
    stderr += new TextDecoder().decode(chunk);
  });
  const client = new Client({ name: "agent-test", version: "1.0.0" });
  await client.connect(transport);
  return {
    client,
    stderr: () => stderr,
    call: async (name, args) =>
      await client.callTool({ name, arguments: args }) as CallToolResult,
    async [Symbol.asyncDispose]() {
      await client.close();
    },
  };
}

/** A call of the agent API: its status and JSON. */
export async function agentApi(
  url: string,
  path: string,
  body?: unknown,
  secret: string = SECRET,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${url}/api/agent/${path}`, {
    method: body === undefined ? "GET" : "POST",
    headers: {
      authorization: `Bearer ${secret}`,
      "content-type": "application/json",
    },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  let parsed: Record<string, unknown>;
  try {
    parsed = text === "" ? {} : JSON.parse(text);
  } catch {
    parsed = { text };
  }
  return { status: response.status, body: parsed };
}
