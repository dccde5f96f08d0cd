// The package imported: a pad server whose page decides what agents
// suggest, the MCP server on the same pads, and an agent (an SDK client in
// this process) that suggests a line; then a person accepts it through the
// pad server's HTTP API, as the Accept button in its page does.
//
//   deno run -A examples/suggest_and_accept.ts
//
// Inside this repository the package imports itself by name (deno.json);
// outside it, put "jsr:" before each "@rustpad-mcp/server".

import {
  BackendDesk,
  createBackend,
  createServer,
  loadConfig,
  PadSession,
} from "@rustpad-mcp/server";
import { startPadServer } from "@rustpad-mcp/server/pad-server";
// @ts-types="@modelcontextprotocol/sdk/client/index"
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
// @ts-types="@modelcontextprotocol/sdk/inMemory"
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";

// The pad server first: the MCP server needs its URL.
const desk = new BackendDesk();
await using pads = await startPadServer({ suggestions: desk });
const config = loadConfig({ RUSTPAD_URL: pads.url });
await using backend = createBackend(config);
desk.attach(backend);

const server = createServer(config, { backend });
const agent = new Client({ name: "example-agent", version: "1.0.0" });
const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
await Promise.all([server.connect(serverSide), agent.connect(clientSide)]);

await agent.callTool({
  name: "create_document",
  arguments: { id: "plan", text: "# Plan\n" },
});
const suggested = await agent.callTool({
  name: "append_to_document",
  arguments: { id: "plan", text: "- ship it\n", suggest: true },
});
const { status, suggestion_id } = suggested.structuredContent as {
  status: string;
  suggestion_id: string;
};
console.log(`agent: ${status} ${suggestion_id}`);
console.log(`pad before: ${JSON.stringify(await text())}`);

// A person decides from the pad: the name recorded is the one their pad
// socket announced, never free text. Ada opens the pad, as her page does.
await using ada = await PadSession.open(pads.url, "plan", {
  user: { name: "Ada", hue: 30 },
});
while (!ada.users.has(ada.userId)) {
  await new Promise((resolve) => setTimeout(resolve, 10));
}
// What the page's Accept button sends.
const decided = await fetch(
  `${pads.url}/api/suggestions/plan/${suggestion_id}`,
  {
    method: "POST",
    body: JSON.stringify({ verdict: "accept", user_id: ada.userId }),
  },
);
const view = await decided.json() as { status: string; decidedBy?: string };
console.log(`person: ${view.status} by ${view.decidedBy}`);
console.log(`pad after: ${JSON.stringify(await text())}`);

await agent.close();
await server.close();

async function text(): Promise<string> {
  return await (await fetch(`${pads.url}/api/text/plan`)).text();
}
