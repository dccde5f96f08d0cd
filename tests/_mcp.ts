// A harness that connects an SDK `Client` to `createServer()` over the
// in-memory transport, against a compatible pad server on loopback.

// @ts-types="@modelcontextprotocol/sdk/client/index"
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
// @ts-types="@modelcontextprotocol/sdk/inMemory"
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
// @ts-types="@modelcontextprotocol/sdk/types"
import {
  type CallToolResult,
  type ElicitRequest,
  ElicitRequestSchema,
  type ElicitResult,
} from "@modelcontextprotocol/sdk/types.js";
import {
  type Backend,
  createServer,
  loadConfig,
  type RustpadMcpServer,
} from "../src/mod.ts";
import { type PadServer, startPadServer } from "../src/testing/mod.ts";

export { waitFor } from "./_wait.ts";

/** What a test needs: the client, the pad server, and one way to stop both. */
export interface Harness extends AsyncDisposable {
  client: Client;
  pads: PadServer;
  /** The MCP server under test. */
  server: RustpadMcpServer;
  /** Elicitation requests the client received. */
  elicitations: ElicitRequest["params"][];
  /** Call a tool and return its result. */
  call(name: string, args?: Record<string, unknown>): Promise<CallToolResult>;
  /** The pad's text over HTTP. */
  text(id: string): Promise<string>;
}

export interface HarnessOptions {
  /** Environment variables besides RUSTPAD_URL. */
  env?: Record<string, string>;
  /** Declare elicitation and answer each request with this. */
  elicit?: (
    request: ElicitRequest["params"],
  ) => ElicitResult | Promise<ElicitResult>;
  /** Use this pad server instead of starting one. */
  pads?: PadServer;
  /** The clock confirmation tokens expire by. */
  now?: () => number;
  /** Run on this shared backend, as another agent of one process. */
  backend?: Backend;
}

export async function connect(options: HarnessOptions = {}): Promise<Harness> {
  const pads = options.pads ?? await startPadServer();
  const server = createServer(
    options.backend?.config ??
      loadConfig({ RUSTPAD_URL: pads.url, ...options.env }),
    {
      ...(options.now !== undefined && { now: options.now }),
      ...(options.backend !== undefined && { backend: options.backend }),
    },
  );
  const client = new Client(
    { name: "test-client", version: "1.0.0" },
    options.elicit ? { capabilities: { elicitation: { form: {} } } } : {},
  );
  const elicitations: ElicitRequest["params"][] = [];
  if (options.elicit) {
    const answer = options.elicit;
    client.setRequestHandler(ElicitRequestSchema, (request) => {
      elicitations.push(request.params);
      return answer(request.params);
    });
  }
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
  return {
    client,
    pads,
    server,
    elicitations,
    call: async (name, args = {}) =>
      await client.callTool({ name, arguments: args }) as CallToolResult,
    text: async (id) =>
      await (await fetch(`${pads.url}/api/text/${id}`)).text(),
    async [Symbol.asyncDispose]() {
      await client.close();
      await server.close();
      if (!options.pads) await pads.close();
    },
  };
}

/** The structured content of a successful call; throws on an error result. */
export function structured(result: CallToolResult): Record<string, unknown> {
  if (result.isError) {
    throw new Error(`Expected success, got error: ${textOf(result)}`);
  }
  return result.structuredContent as Record<string, unknown>;
}

/** The text block of a result. */
export function textOf(result: CallToolResult): string {
  const block = result.content[0];
  return block?.type === "text" ? block.text : "";
}

/** The error sentence of a failed call; throws if the call succeeded. */
export function errorOf(result: CallToolResult): string {
  if (!result.isError) {
    throw new Error(`Expected an error, got: ${JSON.stringify(result)}`);
  }
  return textOf(result);
}
