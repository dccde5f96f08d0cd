// The pad server's HTTP listener, within its bounds: the connection cap
// (shedding the connection idle longest at it), the head deadline and the
// keep-alive timeout, as the MCP HTTP server has them.

import { HttpListener } from "../http/mod.ts";
import { reply, TEXT_PLAIN } from "./_http.ts";
import type {
  PadServerBounds,
  PadServerOptions,
} from "./pad_server_options.ts";

/** A bound listener for `options`, not yet accepting. */
export function padListener(
  options: PadServerOptions,
  bounds: PadServerBounds,
  log: (line: string) => void,
  handler: (request: Request) => Promise<Response>,
): HttpListener {
  return new HttpListener({
    hostname: options.hostname ?? "127.0.0.1",
    port: options.port ?? 0,
    maxConnections: bounds.maxConnections,
    maxConnectionsVariable: "RUSTPAD_EMBEDDED_MAX_CONNECTIONS",
    shedIdle: true,
    requestTimeoutMs: bounds.requestTimeoutMs,
    requestTimeoutVariable: "requestTimeoutMs",
    keepAliveMs: bounds.keepAliveMs,
    // Only the suggestion routes take bodies: an agent's whole-pad
    // suggestion (operation and diff) is a few MiB.
    maxBodyBytes: 8 * 1024 * 1024,
    maxBodyBytesInFlight: 16 * 1024 * 1024,
    maxHeadBytes: 16 * 1024,
    handler,
    refuse: (status, message) => reply(status, message, TEXT_PLAIN),
    log,
  });
}
