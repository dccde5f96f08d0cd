// The peer of bench/speed.ts: what a server that only relays Rustpad's
// `GET /api/text/{id}` through the MCP SDK does (as ni-c/rustpad-mcp 0.1.1
// does), over stdio, so a whole-pad `get_document` can be compared with it.
//
//   RUSTPAD_URL=http://... deno run -A bench/_relay_server.ts

// @ts-types="@modelcontextprotocol/sdk/server/mcp"
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
// @ts-types="@modelcontextprotocol/sdk/server/stdio"
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { z } from "zod";

const base = Deno.env.get("RUSTPAD_URL")!;
const server = new McpServer({ name: "relay", version: "1.0.0" });
server.registerTool(
  "get_document",
  {
    description: "Get a pad's text.",
    inputSchema: { id: z.string().describe("Pad id.") },
  },
  async ({ id }) => {
    const response = await fetch(`${base}/api/text/${id}`);
    return { content: [{ type: "text", text: await response.text() }] };
  },
);
await server.connect(new StdioServerTransport());
