/**
 * The MCP server: a factory that builds a fresh server (one client session)
 * with the configured tools, on a backend it owns or shares.
 *
 * @module
 */

// @ts-types="@modelcontextprotocol/server"
import { McpServer, type Transport } from "@modelcontextprotocol/server";
// @ts-types="@modelcontextprotocol/server/stdio"
import {
  serveStdio as serveEras,
  type StdioServerHandle,
} from "@modelcontextprotocol/server/stdio";
import { type Backend, createBackend } from "../backend/backend.ts";
import type { Config } from "../config/config.ts";
import { CACHE_HINTS, type Era, ERAS } from "./_eras.ts";
import { LivePads } from "../backend/live_pads.ts";
import { VERSION } from "../config/version.ts";
import {
  createToolContext,
  type ToolContext,
  toolsFor,
  VIEW_TOOLS,
} from "../tools/mod.ts";
import { INSTRUCTIONS } from "./instructions.ts";
import { attachLogging } from "./_logging.ts";
import { registerResources } from "./_resources.ts";
import { registerTools } from "./_tools.ts";
import { cachedToolsList } from "./_tools_list.ts";
import { registerPadView } from "./_app_view.ts";
import { PadListeners, routeListens } from "./_listen.ts";

/**
 * Any MCP transport of the SDK, as {@linkcode RustpadMcpServer.connect}
 * takes it: `StdioServerTransport`, `InMemoryTransport`,
 * `WebStandardStreamableHTTPServerTransport` and the like. Declared here by
 * shape so this package's API stays its own.
 */
export interface McpTransport {
  /** Start receiving messages. */
  start(): Promise<void>;
  /** Send one JSON-RPC message. */
  send(message: unknown, options?: unknown): Promise<void>;
  /** Close the connection. */
  close(): Promise<void>;
}

/**
 * One MCP connection (one client) with this package's tools, on a
 * {@linkcode Backend} it shares with other connections or owns alone. The
 * connection's first message picks its protocol era: `initialize` (the
 * 2025-11-25 era, one session) or a request carrying the 2026-07-28 `_meta`
 * envelope (`server/discover` first, then stateless requests). Make it with
 * {@linkcode createServer}.
 */
export class RustpadMcpServer {
  readonly #backend: Backend;
  readonly #ownsBackend: boolean;
  readonly #build: (era: Era) => McpServer;
  readonly #caller: ToolContext;
  readonly #closed = Promise.withResolvers<void>();
  #handle: StdioServerHandle | undefined;
  #session: McpServer | undefined;

  /**
   * Wrap a factory of per-era servers; {@linkcode createServer} calls this.
   *
   * @param build Makes the SDK server for one era.
   * @param backend The shared state the tools use.
   * @param ownsBackend Whether {@linkcode RustpadMcpServer.close} also
   * closes `backend`.
   * @param caller What the connection's calls share: its pads, its holds.
   */
  constructor(
    build: (era: Era) => McpServer,
    backend: Backend,
    ownsBackend: boolean,
    caller: ToolContext,
  ) {
    this.#build = build;
    this.#caller = caller;
    this.#backend = backend;
    this.#ownsBackend = ownsBackend;
  }

  /** The shared state this server's tools use. */
  get backend(): Backend {
    return this.#backend;
  }

  /**
   * Settles when the connection to the client closes, from either side.
   *
   * @returns A promise that never rejects.
   */
  get closed(): Promise<void> {
    return this.#closed.promise;
  }

  /**
   * Serve one client over `transport`, in the era its first message asks
   * for.
   *
   * @param transport An SDK server transport.
   * @returns When the transport has started.
   */
  connect(transport: McpTransport): Promise<void> {
    let modern: McpServer | undefined;
    const wire = transport as Transport;
    this.#handle = serveEras(({ era }) => {
      const server = this.#build(era);
      if (era === "modern") modern = server;
      return server;
    }, { transport: wire, onerror: () => {} });
    // Pad changes reach the entry's listen streams as updates the pinned
    // server sends.
    const listeners = new PadListeners(
      LivePads.of(this.#caller.sessions),
      (uri) => void modern?.server.sendResourceUpdated({ uri }).catch(() => {}),
    );
    routeListens(
      wire,
      listeners,
      this.#caller.holds,
      () => modern !== undefined,
    );
    // The entry installed its own handler; hear the end after it.
    const entryClose = (transport as { onclose?: () => void }).onclose;
    (transport as { onclose?: () => void }).onclose = () => {
      entryClose?.();
      this.#closed.resolve();
    };
    return Promise.resolve();
  }

  /**
   * Serve one 2025-era session over `transport`, a transport that already
   * knows its era (a Streamable HTTP session): the server connects to it
   * directly, so its handlers see the HTTP request.
   *
   * @param transport An SDK server transport of one session.
   * @returns When the transport has started.
   */
  async connectSession(transport: McpTransport): Promise<void> {
    const server = this.#build("legacy");
    const previous = server.server.onclose;
    server.server.onclose = () => {
      previous?.();
      this.#closed.resolve();
    };
    this.#session = server;
    await server.connect(transport as Transport);
  }

  /**
   * Close the connection to the client, then the backend if this server
   * owns it.
   *
   * @returns When both are closed.
   */
  async close(): Promise<void> {
    try {
      await this.#handle?.close();
      await this.#session?.close();
    } finally {
      this.#closed.resolve();
      if (this.#ownsBackend) await this.#backend.close();
    }
  }

  /** Close; for `await using`. */
  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }
}

/** Options for {@linkcode createServer}, for tests and embedding. */
export interface CreateServerOptions {
  /**
   * The clock that confirmation tokens expire by, in milliseconds since the
   * epoch; used only when the server makes its own backend.
   *
   * @default {Date.now}
   */
  now?: () => number;
  /**
   * The shared state to run on, from {@linkcode createBackend}; the server
   * does not close it. Without one, the server makes its own and closes it
   * with itself.
   */
  backend?: Backend;
  /**
   * The identity the session belongs to (the name of the bearer token that
   * made it): its own collaborator in pads, its own idempotency keys.
   *
   * @default {"" (the unnamed identity)}
   */
  identity?: string;
}

/**
 * Build a fresh MCP server with the tools `config` enables. Nothing happens
 * until it is connected to a transport; no network access before a tool is
 * called.
 *
 * @param config The configuration, from {@linkcode configFromEnvironment}
 * or {@linkcode loadConfig}.
 * @param options A shared backend, or a clock for the server's own.
 * @returns The server; `close()` it when done.
 *
 * @example Serve in memory to an SDK client
 * ```ts
 * import { createServer, loadConfig } from "@rustpad-mcp/server";
 * import { startPadServer } from "@rustpad-mcp/server/testing";
 * import { Client } from "@modelcontextprotocol/sdk/client/index.js";
 * import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
 * import assert from "node:assert/strict";
 *
 * await using pads = await startPadServer();
 * const server = createServer(loadConfig({ RUSTPAD_URL: pads.url }));
 * const client = new Client({ name: "example", version: "1.0.0" });
 * const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
 * await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
 * const appended = await client.callTool({
 *   name: "append_to_document",
 *   arguments: { id: "notes", text: "hello" },
 * });
 * assert.equal((appended.structuredContent as { length: number }).length, 5);
 * await client.close();
 * await server.close();
 * ```
 */
export function createServer(
  config: Config,
  options: CreateServerOptions = {},
): RustpadMcpServer {
  const backend = options.backend ??
    createBackend(
      config,
      options.now === undefined ? {} : { now: options.now },
    );
  // One connection, one caller: the discover probe and the pinned server
  // share what the caller opened and undoes.
  const context: ToolContext = {
    ...createToolContext(backend, options.identity ?? ""),
    config,
  };
  const server = new RustpadMcpServer(
    (era) => buildServer(era, context),
    backend,
    options.backend === undefined,
    context,
  );
  // An agent's undo stacks end with its connection.
  void server.closed.then(() =>
    LivePads.of(context.sessions).undo.forget(context.agent)
  );
  return server;
}

/**
 * The SDK server for one era, with the tools `context.config` enables, the
 * pad resources and (2025 era) the operator log, all running in `context`.
 * Its tools/list is the generated one where there is one for the
 * configuration, unless `sdkListing` asks for the SDK's own (which is what
 * `deno task tools-list` writes).
 */
export function buildServer(
  era: Era,
  context: ToolContext,
  { sdkListing = false }: { sdkListing?: boolean } = {},
): McpServer {
  const mcp = new McpServer(
    { name: "rustpad-mcp", title: "Rustpad", version: VERSION },
    { instructions: INSTRUCTIONS, cacheHints: CACHE_HINTS },
  );
  const live = LivePads.of(context.sessions);
  if (ERAS[era].logs) {
    // A session hears only of the pads it opened itself.
    attachLogging(mcp, live.log, (pad) => context.openedPads.has(pad));
  }
  registerResources(mcp, live, context.config.rustpadUrl, context);
  const generated = sdkListing ? undefined : cachedToolsList(context.config);
  const registered = registerTools(
    mcp,
    [...toolsFor(context.config), ...VIEW_TOOLS],
    context,
    ERAS[era].confirmRoute(mcp, context.config),
    generated,
  );
  registerPadView(mcp, registered, generated);
  return mcp;
}
