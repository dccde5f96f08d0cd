import "./first.ts";
// The floor of bench/speed.ts's start row, in a process of its own: a bare
// v2 SDK server with one trivial tool (`echo`) on stdio, with none of our
// configuration, backend or tools. It serves until stdin closes.
//
//   deno run -A bench/_bare_stdio_server.ts

// @ts-types="@modelcontextprotocol/server"
import { McpServer } from "@modelcontextprotocol/server";
// @ts-types="@modelcontextprotocol/server/stdio"
import { StdioServerTransport } from "@modelcontextprotocol/server/stdio";
import { z } from "zod";

const server = new McpServer({ name: "bare", version: "1.0.0" });
server.registerTool(
  "echo",
  {
    description: "Echo the text.",
    inputSchema: z.object({ text: z.string().describe("The text.") }),
  },
  ({ text }) => ({ content: [{ type: "text", text }] }),
);
console.error("all-eval", performance.now().toFixed(1));
await server.connect(new StdioServerTransport());
