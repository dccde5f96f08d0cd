// A write tool added later gets its permission rules from its annotations
// through defineWriteTool: it cannot write past RUSTPAD_CONFIRM.

import assert from "node:assert/strict";
// @ts-types="@modelcontextprotocol/sdk/client/index"
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
// @ts-types="@modelcontextprotocol/sdk/inMemory"
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
// @ts-types="@modelcontextprotocol/server"
import { McpServer } from "@modelcontextprotocol/server";
// @ts-types="@modelcontextprotocol/sdk/types"
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { createBackend, loadConfig, TextOperation } from "../../src/mod.ts";
import {
  createToolContext,
  defineWriteTool,
  objectSchema,
  toolResult,
} from "../../src/tools/mod.ts";
import { registerTools } from "../../src/mcp/_tools.ts";
import { startPadServer } from "../../src/testing/mod.ts";
import { errorOf, structured } from "../_mcp.ts";

const DESTRUCTIVE = {
  readOnlyHint: false,
  destructiveHint: true,
  idempotentHint: false,
  openWorldHint: false,
} as const;

/** Serve one made-up destructive tool, `wipe`, that empties a pad. */
async function serveWipe(
  env: Record<string, string>,
  consults: boolean,
) {
  const pads = await startPadServer();
  const backend = createBackend(
    loadConfig({ RUSTPAD_URL: pads.url, ...env }),
  );
  const server = new McpServer({ name: "t", version: "1" });
  let contentReads = 0;
  const wipe = defineWriteTool({
    name: "wipe",
    title: "Wipe",
    description: "Empty a pad.",
    inputSchema: () => objectSchema({ id: z.string().describe("Pad id.") }),
    outputSchema: () => objectSchema({ status: z.string() }),
    annotations: DESTRUCTIVE,
    async write({ id }, gate, context) {
      const session = await context.sessions.get(id);
      if (consults) {
        const outcome = await gate.confirm(
          {
            padId: id,
            binding: { id },
            content: () => {
              contentReads++;
              return session.text;
            },
            revision: session.revision,
            message: `Empty pad "${id}"?`,
          },
          undefined,
          true,
        );
        if (outcome.status !== "confirmed") {
          return toolResult({ status: outcome.status }, "not confirmed");
        }
      }
      await gate.edit(
        id,
        (live) => new TextOperation().delete(live.length),
      );
      return toolResult({ status: "applied", id }, "wiped");
    },
  });
  registerTools(server, [wipe], createToolContext(backend));
  const client = new Client(
    { name: "c", version: "1" },
    { capabilities: { elicitation: { form: {} } } },
  );
  let asked = 0;
  client.setRequestHandler(ElicitRequestSchema, () => {
    asked++;
    return { action: "accept", content: { confirm: true } };
  });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
  const session = await backend.sessions.get("p");
  await session.submit(new TextOperation().insert("people's words"));
  return {
    call: () => client.callTool({ name: "wipe", arguments: { id: "p" } }),
    asked: () => asked,
    contentReads: () => contentReads,
    text: () => pads.text("p"),
    async [Symbol.asyncDispose]() {
      await client.close();
      await server.close();
      await backend.close();
      await pads.close();
    },
  };
}

Deno.test("a new destructive tool that never asks cannot write under RUSTPAD_CONFIRM=destructive", async () => {
  await using wipe = await serveWipe({}, false);
  const message = errorOf(await wipe.call() as never);
  assert.match(message, /did not consult the confirmation gate/);
  assert.equal(wipe.text(), "people's words");
});

Deno.test("a new destructive tool asks a person because of its destructiveHint alone", async () => {
  await using wipe = await serveWipe({}, true);
  assert.equal(structured(await wipe.call() as never).status, "applied");
  assert.equal(wipe.asked(), 1);
  assert.equal(wipe.contentReads(), 1);
  assert.equal(wipe.text(), "");
});

Deno.test("a tool that consults the gate under RUSTPAD_CONFIRM=never writes without reading the text a person would be asked about", async () => {
  await using wipe = await serveWipe({ RUSTPAD_CONFIRM: "never" }, true);
  assert.equal(structured(await wipe.call() as never).status, "applied");
  assert.equal(wipe.asked(), 0);
  assert.equal(wipe.contentReads(), 0);
  assert.equal(wipe.text(), "");
});

Deno.test("under RUSTPAD_CONFIRM=never the same tool writes without asking", async () => {
  await using wipe = await serveWipe({ RUSTPAD_CONFIRM: "never" }, false);
  assert.equal(structured(await wipe.call() as never).status, "applied");
  assert.equal(wipe.asked(), 0);
  assert.equal(wipe.text(), "");
});
