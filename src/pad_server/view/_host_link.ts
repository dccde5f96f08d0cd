/// <reference lib="dom" />
// The view's end of MCP Apps' postMessage JSON-RPC with its host (the
// protocol of @modelcontextprotocol/ext-apps, 2026-01-26): `ui/initialize`
// and `ui/notifications/initialized`, requests the host forwards to the
// server (`tools/call`) or answers itself (`ui/update-model-context`), the
// host's notifications (tool input and result, context changes), and the
// view's size. Written here rather than taken from ext-apps' `App`, which
// brings the whole MCP client and would triple the view's size.

/** The MCP Apps protocol version this view speaks. */
const PROTOCOL_VERSION = "2026-01-26";

type Params = Record<string, unknown>;

interface Pending {
  resolve(result: Params): void;
  reject(error: Error): void;
}

/** A JSON-RPC link to the host window that framed this view. */
export class HostLink {
  /** What the host said of itself and the conversation, kept up to date. */
  hostContext: Params = {};
  readonly #pending = new Map<number, Pending>();
  readonly #handlers = new Map<string, (params: Params) => void>();
  #next = 1;

  constructor() {
    addEventListener("message", (event) => {
      if (event.source !== parent) return;
      this.#receive(event.data as Params);
    });
  }

  /** Hear the host's notification `method`. */
  on(method: string, handler: (params: Params) => void): void {
    this.#handlers.set(method, handler);
  }

  /** Hear each change of the host's context (kept in `hostContext`). */
  onContextChange(handler: (changed: Params) => void): void {
    this.on("ui/notifications/host-context-changed", (params) => {
      this.hostContext = { ...this.hostContext, ...params };
      handler(params);
    });
  }

  /** Ask the host; its result, or throw its error's message. */
  request(method: string, params: Params): Promise<Params> {
    const id = this.#next++;
    const { promise, resolve, reject } = Promise.withResolvers<Params>();
    this.#pending.set(id, { resolve, reject });
    this.#post({ jsonrpc: "2.0", id, method, params });
    return promise;
  }

  /** Tell the host. */
  notify(method: string, params: Params): void {
    this.#post({ jsonrpc: "2.0", method, params });
  }

  /** Introduce the view, then report its size as it changes. */
  async connect(name: string, version: string): Promise<void> {
    const answer = await this.request("ui/initialize", {
      appInfo: { name, version },
      appCapabilities: {},
      protocolVersion: PROTOCOL_VERSION,
    });
    this.hostContext = (answer.hostContext as Params | undefined) ?? {};
    this.notify("ui/notifications/initialized", {});
    let last = "";
    new ResizeObserver(() => {
      // The body's own box: the document's would be at least the frame's.
      const box = document.body.getBoundingClientRect();
      const size = {
        width: Math.ceil(box.width),
        height: Math.ceil(box.height),
      };
      if (JSON.stringify(size) === last) return;
      last = JSON.stringify(size);
      this.notify("ui/notifications/size-changed", size);
    }).observe(document.body);
  }

  #post(message: Params): void {
    parent.postMessage(message, "*");
  }

  #receive(message: Params): void {
    const { id, method } = message;
    if (typeof method !== "string") {
      const pending = this.#pending.get(id as number);
      this.#pending.delete(id as number);
      const error = message.error as { message?: string } | undefined;
      if (error !== undefined) {
        pending?.reject(new Error(error.message ?? "The host refused"));
      } else pending?.resolve((message.result as Params | undefined) ?? {});
      return;
    }
    if (id === undefined) {
      this.#handlers.get(method)?.((message.params as Params) ?? {});
      return;
    }
    // The host's own requests: a ping, or the end of the view.
    const known = method === "ping" || method === "ui/resource-teardown";
    this.#post(
      known ? { jsonrpc: "2.0", id, result: {} } : {
        jsonrpc: "2.0",
        id,
        error: { code: -32601, message: `Method not found: ${method}` },
      },
    );
  }
}
