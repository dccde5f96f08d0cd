// The peer of bench/speed.ts: what a server that only relays Rustpad's
// `GET /api/text/{id}` through the MCP SDK does (as ni-c/rustpad-mcp 0.1.1
// does), over stdio, so a whole-pad `get_document` can be compared with it.
// With `--twice` it answers as a tool with an output schema must (the text
// in `structuredContent` and in a text block), to show what that costs.
//
//   RUSTPAD_URL=http://... deno run -A bench/_relay_server.ts [--twice]

// @ts-types="@modelcontextprotocol/sdk/server/mcp"
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
// @ts-types="@modelcontextprotocol/sdk/server/stdio"
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { z } from "zod";

const base = Deno.env.get("RUSTPAD_URL")!;
const twice = Deno.args.includes("--twice");
const server = new McpServer({ name: "relay", version: "1.0.0" });
server.registerTool(
  "get_document",
  {
    description: "Get a pad's text.",
    inputSchema: { id: z.string().describe("Pad id.") },
    ...(twice && { outputSchema: { text: z.string() } }),
  },
  async ({ id }) => {
    const response = await fetch(`${base}/api/text/${id}`);
    const text = await response.text();
    return {
      content: [{ type: "text", text }],
      ...(twice && { structuredContent: { text } }),
    };
  },
);
await server.connect(new StdioServerTransport());
