// The CLI's HTTP mode: one backend, the HTTP server on it, and a drain on
// SIGTERM or SIGINT. Everything goes to stderr; the first line names the
// bound URL, so scripts and tests started with port 0 can read the port.

import { createBackend } from "../backend/backend.ts";
import type { Config } from "../config/config.ts";
import { serveHttp } from "../mcp/http_server.ts";
import { VERSION } from "../config/version.ts";

const SIGNALS: Deno.Signal[] = ["SIGTERM", "SIGINT"];

/** Serve MCP over HTTP until a signal drains the server; the exit code. */
export async function runHttp(
  config: Config,
  listen: { hostname: string; port: number },
): Promise<number> {
  const backend = createBackend(config);
  let server;
  try {
    server = serveHttp(backend, {
      hostname: listen.hostname,
      port: listen.port,
      token: config.httpToken,
      allowedHosts: config.allowedHosts,
      allowedOrigins: config.allowedOrigins,
      sessionIdleMs: config.sessionIdleS * 1000,
      maxSessions: config.maxSessions,
      maxConnections: config.maxConnections,
      requestTimeoutMs: config.requestTimeoutMs,
      keepAliveTimeoutMs: config.keepAliveTimeoutMs,
      maxMessageBytes: config.maxMessageBytes,
    });
  } catch (error) {
    await backend.close();
    if (error instanceof RangeError) {
      console.error(`rustpad-mcp: ${error.message}`);
      return 2;
    }
    if (error instanceof Deno.errors.AddrInUse) {
      console.error(
        `rustpad-mcp: Cannot listen on ${listen.hostname}:${listen.port} as the address is in use: choose another port`,
      );
      return 1;
    }
    console.error(
      `rustpad-mcp: Cannot listen on ${listen.hostname}:${listen.port}: ${
        (error as Error).message
      }`,
    );
    return 1;
  }
  const running = server;
  const stop = () => {
    console.error("rustpad-mcp: draining: finishing calls in flight");
    void running.shutdown();
  };
  for (const signal of SIGNALS) Deno.addSignalListener(signal, stop);
  console.error(
    `rustpad-mcp ${VERSION}: serving MCP over HTTP at ${running.url.href} for ${config.rustpadUrl.href} with ${config.tools.size} tools${
      config.httpToken === undefined ? "" : " (bearer token required)"
    }`,
  );
  // Settles only on shutdown: accept errors (EMFILE) are survived.
  await running.finished;
  await running.shutdown();
  for (const signal of SIGNALS) Deno.removeSignalListener(signal, stop);
  await backend.close();
  console.error("rustpad-mcp: stopped");
  return 0;
}
