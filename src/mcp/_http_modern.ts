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
import { createToolContext, type ToolContext } from "../tools/mod.ts";
import { buildServer } from "./server.ts";

/** The 2026-era leg of the MCP endpoint. */
export class ModernEndpoint {
  readonly #backend: Backend;
  readonly #handler: McpHttpHandler;
  readonly #maxMessageBytes: number;
  /** One context per identity: the configured tokens bound their number. */
  readonly #contexts = new Map<string, ToolContext>();

  constructor(backend: Backend, maxMessageBytes: number) {
    this.#backend = backend;
    this.#maxMessageBytes = maxMessageBytes;
    this.#handler = createMcpHandler(
      ({ authInfo }) =>
        buildServer("modern", this.#contextOf(authInfo?.clientId ?? "")),
      { legacy: "reject", maxRequestBodySize: maxMessageBytes },
    );
  }

  /**
   * Whether `request` (its body read whole) belongs to the 2026 era: it
   * carries the per-request `_meta` envelope or names the revision.
   */
  async claims(request: Request): Promise<boolean> {
    return !await isLegacyRequest(request, undefined, {
      maxRequestBodySize: this.#maxMessageBytes,
    });
  }

  /** Serve one request of `identity`. */
  fetch(request: Request, identity: string): Promise<Response> {
    return this.#handler.fetch(request, {
      authInfo: { token: "", clientId: identity, scopes: [] },
    });
  }

  /** End the requests in flight. */
  close(): Promise<void> {
    return this.#handler.close();
  }

  #contextOf(identity: string): ToolContext {
    let context = this.#contexts.get(identity);
    if (context === undefined) {
      context = createToolContext(this.#backend, identity);
      this.#contexts.set(identity, context);
    }
    return context;
  }
}
