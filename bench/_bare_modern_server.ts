// The floor of bench/speed.ts's 2026-era load row, in a process of its own:
// a bare v2 SDK server with one trivial tool (`echo`), served by the SDK's
// web-standard handler on a bare `Deno.serve`, with none of our listener,
// guards or pads. It prints its MCP URL on one line and serves until killed.
//
//   deno run -A bench/_bare_modern_server.ts

import { createMcpHandler, McpServer } from "@modelcontextprotocol/server";
import { z } from "zod";

const handler = createMcpHandler(() => {
  const server = new McpServer({ name: "bare", version: "1.0.0" });
  server.registerTool(
    "echo",
    {
      description: "Echo the text.",
      inputSchema: z.object({ text: z.string().describe("The text.") }),
    },
    ({ text }) => ({ content: [{ type: "text", text }] }),
  );
  return server;
}, { legacy: "reject" });
const server = Deno.serve({
  hostname: "127.0.0.1",
  port: 0,
  onListen: ({ port }) => console.log(`http://127.0.0.1:${port}/mcp`),
}, (request) => handler.fetch(request));
await server.finished;
