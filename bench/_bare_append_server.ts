// A floor of bench/speed.ts's append rows, in a process of its own: a bare
// v2 SDK server on stdio whose one tool (`append_to_document`) appends its
// text over a bare socket (`_raw_socket.ts`, one per pad, kept open) and
// answers once the pad server acknowledges it: the SDK's share of a tool
// call and a raw edit, with none of our configuration, OT client, result
// or bookkeeping. It is served by the SDK's own `serveStdio`, as ours is,
// so a client of either era (`initialize`, or the 2026-07-28 envelope) gets
// the SDK's path for that era. It serves until stdin closes.
//
//   RUSTPAD_URL=http://... deno run -A bench/_bare_append_server.ts

// @ts-types="@modelcontextprotocol/server"
import { McpServer } from "@modelcontextprotocol/server";
// @ts-types="@modelcontextprotocol/server/stdio"
import { serveStdio } from "@modelcontextprotocol/server/stdio";
import { z } from "zod";
import { RawSocket } from "./_raw_socket.ts";

const url = Deno.env.get("RUSTPAD_URL")!;
const sockets = new Map<string, Promise<RawSocket>>();
function appendServer(): McpServer {
  const server = new McpServer({ name: "bare-append", version: "1.0.0" });
  server.registerTool(
    "append_to_document",
    {
      description: "Append text to a pad.",
      inputSchema: z.object({
        id: z.string().describe("The pad."),
        text: z.string().describe("The text to append."),
      }),
    },
    async ({ id, text }) => {
      let socket = sockets.get(id);
      if (socket === undefined) {
        sockets.set(id, socket = RawSocket.open(url, id));
      }
      await (await socket).append(text);
      return { content: [{ type: "text", text: `Appended to ${id}.` }] };
    },
  );
  // Its sockets would keep the process alive once stdin closes.
  server.server.onclose = async () => {
    for (const socket of sockets.values()) (await socket).close();
  };
  return server;
}

serveStdio(appendServer);
