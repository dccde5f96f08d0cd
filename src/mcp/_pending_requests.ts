// The requests a transport has received and not yet answered, so a stdio
// server whose client closed stdin right after its last request (a piped
// script, a client that sends and hangs up) answers it before it exits.

// @ts-types="@modelcontextprotocol/server"
import type { Transport } from "@modelcontextprotocol/server";

/** Watches one connected transport's requests and answers. */
export class PendingRequests {
  #pending = new Set<string | number>();
  #idle: PromiseWithResolvers<void> | undefined;

  /**
   * Start watching `transport`; call after the server connected to it, so
   * its message handler is in place.
   */
  constructor(transport: Transport) {
    const receive = transport.onmessage;
    transport.onmessage = (message, extra) => {
      if ("method" in message && "id" in message) {
        this.#pending.add(message.id);
      }
      receive?.(message, extra);
    };
    const send = transport.send.bind(transport);
    transport.send = async (message, options) => {
      try {
        await send(message, options);
      } finally {
        if (
          !("method" in message) && "id" in message && message.id !== undefined
        ) {
          this.#pending.delete(message.id);
          if (this.#pending.size === 0) this.#idle?.resolve();
        }
      }
    };
  }

  /** Resolve once every request received so far is answered, or after `ms`. */
  async settled(ms: number): Promise<void> {
    if (this.#pending.size === 0) return;
    this.#idle ??= Promise.withResolvers<void>();
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([
      this.#idle.promise,
      new Promise<void>((resolve) => timer = setTimeout(resolve, ms)),
    ]);
    clearTimeout(timer);
  }
}
