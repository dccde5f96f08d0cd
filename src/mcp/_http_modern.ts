// The 2026-07-28 era over HTTP: no session, every request served by a
// fresh server from the SDK's web-standard handler, behind our listener,
// its caps and its guards. What a 2025 session held (the pads a caller
// opened, its subscriptions and waits, its undo stacks) hangs on the
// identity instead: the name of the bearer token that sent the request.

// @ts-types="@modelcontextprotocol/server"
import {
  createMcpHandler,
  isLegacyRequest,
  type McpHttpHandler,
  type McpServer,
} from "@modelcontextprotocol/server";
import type { Backend } from "../backend/backend.ts";
import { LivePads } from "../backend/live_pads.ts";
import { createToolContext, type ToolContext } from "../tools/mod.ts";
import { listenRefusal, listenRequest, PadListeners } from "./_listen.ts";
import { trackBody } from "./_http_util.ts";
import { buildServer } from "./server.ts";

/** What an identity's requests share, in place of a session. */
interface Caller {
  readonly context: ToolContext;
  readonly listeners: PadListeners;
  /** Servers whose last exchange ended, ready for the next request. */
  readonly idle: McpServer[];
}

/**
 * How many idle servers an identity keeps. The SDK asks for a server per
 * request; building one (16 tools) costs about 0.15 ms, and the SDK caches
 * each tool's JSON input schema per server, so a fresh one converts it
 * again on every call: reused, a call skips both.
 */
const IDLE_SERVERS = 64;

/** The protocol revision this leg serves. */
const MODERN_REVISION = "2026-07-28";

/** The 2026-era leg of the MCP endpoint. */
export class ModernEndpoint {
  readonly #backend: Backend;
  readonly #handler: McpHttpHandler;
  readonly #maxMessageBytes: number;
  /** One per identity: the configured tokens bound their number. */
  readonly #callers = new Map<string, Caller>();

  constructor(backend: Backend, maxMessageBytes: number) {
    this.#backend = backend;
    this.#maxMessageBytes = maxMessageBytes;
    this.#handler = createMcpHandler(
      ({ authInfo }) => this.#serverFor(authInfo?.clientId ?? ""),
      { legacy: "reject", maxRequestBodySize: maxMessageBytes },
    );
  }

  /**
   * Whether `request` (its body read whole) belongs to the 2026 era: it
   * carries the per-request `_meta` envelope or names the revision.
   */
  async claims(request: Request, parsedBody: unknown): Promise<boolean> {
    // A header naming the 2026 revision is the modern path's whatever the
    // body holds (its errors included), as isLegacyRequest documents: most
    // 2026 requests are told apart without its parse.
    if (request.headers.get("mcp-protocol-version") === MODERN_REVISION) {
      return true;
    }
    return !await isLegacyRequest(request, parsedBody, {
      maxRequestBodySize: this.#maxMessageBytes,
    });
  }

  /**
   * Serve one request of `identity`; a `subscriptions/listen` watches the
   * pads it names for as long as its stream is open.
   */
  async fetch(
    request: Request,
    identity: string,
    parsedBody: unknown,
  ): Promise<Response> {
    let stop: (() => void) | undefined;
    // The SDK refuses a listen whose Mcp-Method header does not say so.
    if (request.headers.get("mcp-method") === "subscriptions/listen") {
      const message = parsedBody as { id?: string | number } | undefined;
      const caller = this.#callerOf(identity);
      try {
        const listen = listenRequest(message);
        if (listen !== undefined) {
          stop = caller.listeners.open(caller.context.holds, listen.padIds);
        }
      } catch (error) {
        return Response.json(listenRefusal(message?.id ?? null, error));
      }
    }
    const response = await this.#handler.fetch(request, {
      authInfo: { token: "", clientId: identity, scopes: [] },
      ...(parsedBody !== undefined && { parsedBody }),
    }).catch((error) => {
      stop?.();
      throw error;
    });
    return stop === undefined ? response : trackBody(response, stop);
  }

  /** End the requests in flight. */
  close(): Promise<void> {
    return this.#handler.close();
  }

  /**
   * An idle server of the identity's, or a new one. The SDK clears a
   * server's transport before its `onclose`, and seeds the client's
   * capabilities from each request's `_meta`, so one whose exchange ended
   * serves the next request as a new one would.
   */
  #serverFor(identity: string): McpServer {
    const caller = this.#callerOf(identity);
    const idle = caller.idle.pop();
    if (idle !== undefined) return idle;
    const server = buildServer("modern", caller.context);
    server.server.onclose = () => {
      if (caller.idle.length < IDLE_SERVERS) caller.idle.push(server);
    };
    return server;
  }

  #callerOf(identity: string): Caller {
    let caller = this.#callers.get(identity);
    if (caller === undefined) {
      const context = createToolContext(this.#backend, identity, {
        sessionless: true,
      });
      caller = {
        context,
        listeners: new PadListeners(
          LivePads.of(context.sessions),
          (uri) => this.#handler.notify.resourceUpdated(uri),
        ),
        idle: [],
      };
      this.#callers.set(identity, caller);
    }
    return caller;
  }
}
