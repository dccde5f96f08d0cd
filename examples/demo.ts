// A person and an agent in one pad, on the Rustpad-compatible server: the
// agent's MCP calls go through the SDK client while a scripted person types,
// and nothing either of them writes is lost. Then the agent keeps writing a
// line every few seconds until Ctrl-C: open the printed URL in a browser to
// watch it and type beside it.
//
//   deno task demo            runs until Ctrl-C
//   deno task demo --once     runs the script and exits (the tests use it)

// @ts-types="@modelcontextprotocol/sdk/client/index"
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
// @ts-types="@modelcontextprotocol/sdk/inMemory"
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
// @ts-types="@modelcontextprotocol/sdk/types"
import {
  type CallToolResult,
  ElicitRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { createServer, loadConfig, PadSession, TextOperation } from "../mod.ts";
import { startPadServer } from "../src/testing/mod.ts";

const once = Deno.args.includes("--once");
const LINES = [
  "The pad keeps every keystroke: the agent's edits are operations too.",
  "Type anywhere above or below; the agent only ever appends here.",
  "Open this URL in a second tab to be two people at once.",
  "Each person has a caret in their own colour, the agent included.",
  "Ctrl-C in the terminal stops the demo.",
];

await using pads = await startPadServer();
console.log(`Rustpad-compatible server at ${pads.url}`);
console.log(
  `Open ${pads.url}/#demo in a browser to watch the agent write, and type beside it.`,
);

const server = createServer(
  loadConfig({ RUSTPAD_URL: pads.url, RUSTPAD_USER_NAME: "demo-agent" }),
);
const client = new Client(
  { name: "demo", version: "1.0.0" },
  { capabilities: { elicitation: { form: {} } } },
);
client.setRequestHandler(ElicitRequestSchema, (request) => {
  console.log(`  [dialog] ${request.params.message}\n  [person] yes`);
  return { action: "accept", content: { confirm: true } };
});
const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
await Promise.all([server.connect(serverSide), client.connect(clientSide)]);

async function call(name: string, args: Record<string, unknown>) {
  const result = await client.callTool({
    name,
    arguments: args,
  }) as CallToolResult;
  const block = result.content[0];
  console.log(`> ${name} ${JSON.stringify(args)}`);
  console.log(
    block?.type === "text" ? `  ${block.text.replaceAll("\n", "\n  ")}` : "",
  );
  return result;
}

await call("create_document", {
  id: "demo",
  text: "# Plan\n\nTODO: intro\n",
  language: "markdown",
});

const ada = await PadSession.open(pads.url, "demo", {
  user: { name: "Ada", hue: 30 },
});
console.log(
  "Ada opens the pad and types a list at the end while the agent edits the top.",
);
const typing = (async () => {
  for (const character of "- buy milk\n") {
    await ada.submit(new TextOperation().retain(ada.length).insert(character));
  }
})();
await call("replace_in_document", {
  id: "demo",
  search: "TODO: intro",
  replace: "Introduction",
});
await typing;

await call("get_document_info", { id: "demo" });
await call("get_document", { id: "demo" });
await call("set_document", { id: "demo", text: "# Plan\n\nAll done.\n" });

const final = await (await fetch(`${pads.url}/api/text/demo`)).text();
console.log(`Final text over HTTP:\n${final}`);
await ada.close();

if (!once) {
  console.log(
    `\nThe agent now appends a line every 3 seconds to ${pads.url}/#demo until Ctrl-C.`,
  );
  const { promise: stopped, resolve: stop } = Promise.withResolvers<void>();
  Deno.addSignalListener("SIGINT", stop);
  for (let n = 0;; n++) {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const tick = new Promise((resolve) => timer = setTimeout(resolve, 3000));
    if (await Promise.race([stopped.then(() => true), tick])) {
      clearTimeout(timer);
      break;
    }
    const line = LINES[n % LINES.length];
    const result = await client.callTool({
      name: "append_to_document",
      arguments: { id: "demo", text: `- ${line}\n` },
    }) as CallToolResult;
    const length = (result.structuredContent as { length?: number })?.length;
    console.log(`> append_to_document: ${line} (pad now ${length} long)`);
  }
  Deno.removeSignalListener("SIGINT", stop);
  console.log("\nStopped.");
}
await client.close();
await server.close();
