// A person and an agent in one pad. The demo starts rustpad-mcp with its
// embedded pad server (as an MCP client would, on stdio), waits for you to
// open the pad in a browser, then runs a scripted agent beside a scripted
// person while you watch and type. When the agent wants to replace the whole
// pad, you are asked at the terminal. Then the agent proposes a change as a
// suggestion, with its reason: you accept or reject it in the page (or
// answer at the terminal), and the agent reports your verdict. Then it
// appends a line every few seconds until Ctrl-C; the pads are kept (see
// RUSTPAD_EMBEDDED_DB), on the same URL next time.
//
//   deno task demo                      waits up to 5 minutes for a browser
//   deno task demo --wait-seconds 60    ... or as long as you say
//   deno task demo --once               no waiting, no loop (the tests)

// @ts-types="@modelcontextprotocol/sdk/client/index"
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
// @ts-types="@modelcontextprotocol/sdk/client/stdio"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
// @ts-types="@modelcontextprotocol/sdk/types"
import {
  type CallToolResult,
  ElicitRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { parseArgs } from "node:util";
import { PadSession, TextOperation } from "../src/mod.ts";
import { interrupted, sleepUnless, Terminal } from "./_terminal.ts";
import { suggestAndHear } from "./_demo_suggestion.ts";

const { values: flags } = parseArgs({
  args: Deno.args,
  options: {
    once: { type: "boolean", default: false },
    "wait-seconds": { type: "string", default: "300" },
  },
});
const waitSeconds = Number(flags["wait-seconds"]);
const LINES = [
  "The pad keeps every keystroke: the agent's edits are operations too.",
  "Type anywhere above or below; the agent only ever appends here.",
  "Open this URL in a second tab to be two people at once.",
  "Each person has a caret in their own colour, the agent included.",
  "Ctrl-C in the terminal stops the demo; the pad stays.",
];
const BANNER = /embedded pad server at (http:\S+\/) \((.*?)\); open/;

const stop = interrupted();
const terminal = new Terminal();

// rustpad-mcp --embedded on stdio; its stderr is passed on, and its first
// line names the pad server's URL and where the pads are kept.
const transport = new StdioClientTransport({
  command: Deno.execPath(),
  args: ["run", "-A", new URL("../mod.ts", import.meta.url).href, "--embedded"],
  // The agent in blue; the scripted person, Ada, is orange.
  env: {
    ...Deno.env.toObject(),
    RUSTPAD_USER_NAME: "Demo Agent",
    RUSTPAD_USER_HUE: "220",
  },
  stderr: "pipe",
});
const banner = Promise.withResolvers<RegExpExecArray>();
let stderr: string | undefined = "";
transport.stderr?.on("data", (chunk: Uint8Array) => {
  Deno.stderr.writeSync(chunk);
  if (stderr === undefined) return;
  stderr += new TextDecoder().decode(chunk);
  const found = BANNER.exec(stderr);
  if (found === null) return;
  banner.resolve(found);
  stderr = undefined;
});
const client = new Client(
  { name: "demo", version: "1.0.0" },
  { capabilities: { elicitation: { form: {} } } },
);
// The server asks before a write that destroys text: the person at the
// terminal answers, as they would in an MCP client's dialog.
client.setRequestHandler(ElicitRequestSchema, async (request) => {
  console.log(`  [dialog] ${request.params.message}`);
  return await terminal.confirm("  Allow it?")
    ? { action: "accept", content: { confirm: true } }
    : { action: "decline" };
});
await client.connect(transport);
const [, base, kept] = await banner.promise;
const baseUrl = base!;

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

/** "demo", or the first of demo-2, demo-3... that is still empty. */
async function freshPad(): Promise<string> {
  for (let n = 1;; n++) {
    const id = n === 1 ? "demo" : `demo-${n}`;
    const text = await (await fetch(`${baseUrl}api/text/${id}`)).text();
    if (text === "") return id;
  }
}

/** The pad's live state as the agent sees it, without printing it. */
async function info(
  pad: string,
): Promise<{ revision: number; people: { name: string }[] }> {
  const result = await client.callTool({
    name: "get_document_info",
    arguments: { id: pad },
  }) as CallToolResult;
  return result.structuredContent as {
    revision: number;
    people: { name: string }[];
  };
}

/**
 * Someone's name once a person has the pad open; "timeout" when nobody
 * came in time, "stopped" on Ctrl-C.
 */
async function personArrives(
  pad: string,
): Promise<{ name: string } | "timeout" | "stopped"> {
  const deadline = Date.now() + waitSeconds * 1000;
  while (Date.now() < deadline) {
    const [person] = (await info(pad)).people;
    if (person !== undefined) return { name: person.name };
    if (await sleepUnless(500, stop.promise)) return "stopped";
  }
  return "timeout";
}

/** Stop listening for Ctrl-C and stdin, stop the server, say where the pads are. */
async function finish(): Promise<never> {
  stop.dispose();
  await terminal.close();
  // Closing stdin stops the server, which writes its pads first.
  await client.close();
  console.log(`\nStopped. The pads are kept (${kept}).`);
  Deno.exit(0);
}

/**
 * The script: wait for a person, edit beside Ada, suggest a change for the
 * person to decide, append until Ctrl-C.
 */
async function script(): Promise<void> {
  const pad = await freshPad();
  const url = `${baseUrl}#${pad}`;
  await call("create_document", {
    id: pad,
    text: "# Plan 🚀\n\nTODO: intro\n",
    language: "markdown",
  });
  console.log(
    `\nOpen ${url} in a browser to watch the agent write, and type beside it.`,
  );
  if (!flags.once) {
    console.log(`Waiting up to ${waitSeconds} s for someone to open it...`);
    const arrived = await personArrives(pad);
    if (arrived === "stopped") return;
    if (arrived === "timeout") {
      console.log(
        `Nobody opened ${url} in time; run deno task demo again when ready.`,
      );
      return;
    }
    console.log(`${arrived.name} opened the pad: the agent starts.\n`);
  }

  const ada = await PadSession.open(baseUrl, pad, {
    user: { name: "Ada", hue: 30 },
  });
  console.log(
    "Ada opens the pad and types a list at the end while the agent edits the top.",
  );
  const typing = (async () => {
    for (const character of "- buy milk 🥛\n") {
      await ada.submit(
        new TextOperation().retain(ada.length).insert(character),
      );
    }
  })();
  await call("replace_in_document", {
    id: pad,
    search: "TODO: intro",
    replace: "Introduction",
  });
  await typing;
  // The agent reads what Ada typed once its own socket has it all.
  while ((await info(pad)).revision < ada.revision) {
    await sleepUnless(20, stop.promise);
  }
  await call("get_document_info", { id: pad });
  await call("get_document", { id: pad });
  await call("set_document", { id: pad, text: "# Plan 🚀\n\nAll done.\n" });
  await ada.close();
  await suggestAndHear({
    call,
    client,
    terminal,
    baseUrl,
    pad,
    once: flags.once,
  });

  const final = await (await fetch(`${baseUrl}api/text/${pad}`)).text();
  console.log(`Final text over HTTP:\n${final}`);
  if (flags.once) return;

  console.log(
    `\nThe agent now appends a line every 3 seconds to ${url} until Ctrl-C.`,
  );
  for (let n = 0; !await sleepUnless(3000, stop.promise); n++) {
    const line = LINES[n % LINES.length];
    const result = await client.callTool({
      name: "append_to_document",
      arguments: { id: pad, text: `- ${line}\n` },
    }) as CallToolResult;
    const length = (result.structuredContent as { length?: number })?.length;
    console.log(`> append_to_document: ${line} (pad now ${length} long)`);
  }
}

// Ctrl-C stops whatever the script is doing: a wait, a question, a call
// (at a terminal the server got the signal too, and is writing its pads).
await Promise.race([script(), stop.promise]);
await finish();
