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
}

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
      ({ authInfo }) =>
        buildServer("modern", this.#callerOf(authInfo?.clientId ?? "").context),
      { legacy: "reject", maxRequestBodySize: maxMessageBytes },
    );
  }

  /**
   * Whether `request` (its body read whole) belongs to the 2026 era: it
   * carries the per-request `_meta` envelope or names the revision.
   */
  async claims(request: Request, parsedBody: unknown): Promise<boolean> {
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
      };
      this.#callers.set(identity, caller);
    }
    return caller;
  }
}
