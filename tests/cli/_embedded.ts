// The MCP server with --embedded on stdio through the SDK client, the pad
// server's URL read from its line on stderr.

// @ts-types="@modelcontextprotocol/sdk/client/index"
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
// @ts-types="@modelcontextprotocol/sdk/client/stdio"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
// @ts-types="@modelcontextprotocol/sdk/types"
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { waitFor } from "../_wait.ts";
import { MOD } from "./_run.ts";
import { childEnv } from "../_child_env.ts";

const BANNER =
  /embedded pad server at (http:\/\/127\.0\.0\.1:\d+\/) \((.*?)\); open \1#NAME in a browser/;

export interface Embedded extends AsyncDisposable {
  client: Client;
  /** The pad server's base URL, from the line on stderr. */
  url: string;
  /** The agent process's pid (bash execs it under `openFiles`). */
  pid: number;
  stderr: () => string;
  call(name: string, args: Record<string, unknown>): Promise<CallToolResult>;
}

/**
 * `entry` (`mod.ts` by default) with `args` on stdio through the SDK
 * client; with `openFiles`, under `ulimit -n` of that many, through bash.
 */
export async function embedded(
  args: string[],
  env: Record<string, string> = {},
  openFiles?: number,
  entry: string = MOD,
): Promise<Embedded> {
  const command = [Deno.execPath(), "run", "-A", entry, ...args];
  const transport = new StdioClientTransport({
    command: openFiles === undefined ? command[0]! : "bash",
    args: openFiles === undefined ? command.slice(1) : [
      "-c",
      `ulimit -n ${openFiles} && exec "$@"`,
      "bash",
      ...command,
    ],
    env: childEnv(env),
    stderr: "pipe",
  });
  let stderr = "";
  transport.stderr?.on("data", (chunk: Uint8Array) => {
    stderr += new TextDecoder().decode(chunk);
  });
  const client = new Client({ name: "embedded-test", version: "1.0.0" });
  await client.connect(transport);
  await waitFor(() => BANNER.test(stderr), "the embedded pad server's URL");
  return {
    client,
    url: BANNER.exec(stderr)![1]!,
    pid: transport.pid!,
    stderr: () => stderr,
    call: async (name, args) =>
      await client.callTool({ name, arguments: args }) as CallToolResult,
    async [Symbol.asyncDispose]() {
      await client.close();
    },
  };
}
