// The CLI's HTTP mode: the identities of RUSTPAD_MCP_TOKENS, the state
// store (Redis with RUSTPAD_STATE_URL), one backend, the HTTP server on it,
// and a drain on SIGTERM or SIGINT. Everything goes to stderr; the first
// line names the bound URL, so scripts and tests started with port 0 can
// read the port. A bad token file or an unreachable Redis is exit code 2.

import { createBackend } from "../backend/backend.ts";
import type { Config } from "../config/config.ts";
import { ConfigError } from "../config/config_error.ts";
import { type NamedToken, readTokenFile } from "../config/token_file.ts";
import { serveHttp } from "../mcp/http_server.ts";
import { VERSION } from "../config/version.ts";
import { stderrLines } from "./_stderr_lines.ts";
import { openConfiguredState } from "./_state.ts";
import { type EmbeddedPads, waitsForRestarts } from "./_embedded.ts";

const SIGNALS: Deno.Signal[] = ["SIGTERM", "SIGINT"];

/** Serve MCP over HTTP until a signal drains the server; the exit code. */
export async function runHttp(
  config: Config,
  listen: { hostname: string; port: number },
  startNotes: readonly string[] = [],
  embedded?: EmbeddedPads,
): Promise<number> {
  // Every line of this mode through one writer, so they keep their order.
  const log = stderrLines();
  let identities: NamedToken[] = [];
  try {
    if (config.httpTokensFile !== undefined) {
      identities = await readTokenFile(config.httpTokensFile, config.httpToken);
    }
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    log(`rustpad-mcp: ${error.message}`);
    return 2;
  }
  const state = await openConfiguredState(config, log);
  if (typeof state === "number") return state;
  // Every bearer token is an identity with its fair share of the limits.
  const backend = createBackend(config, {
    state,
    ...waitsForRestarts(embedded),
    identities: identities.length + (config.httpToken === undefined ? 0 : 1),
  });
  let server;
  try {
    server = serveHttp(backend, {
      hostname: listen.hostname,
      port: listen.port,
      token: config.httpToken,
      identities,
      allowedHosts: config.allowedHosts,
      allowedOrigins: config.allowedOrigins,
      sessionIdleMs: config.sessionIdleS * 1000,
      maxSessions: config.maxSessions,
      maxConnections: config.maxConnections,
      requestTimeoutMs: config.requestTimeoutMs,
      keepAliveTimeoutMs: config.keepAliveTimeoutMs,
      maxMessageBytes: config.maxMessageBytes,
      log,
    });
  } catch (error) {
    await backend.close();
    await state.close();
    if (error instanceof RangeError) {
      log(`rustpad-mcp: ${error.message}`);
      return 2;
    }
    if (error instanceof Deno.errors.AddrInUse) {
      log(
        `rustpad-mcp: Cannot listen on ${listen.hostname}:${listen.port} as the address is in use: choose another port`,
      );
      return 1;
    }
    log(
      `rustpad-mcp: Cannot listen on ${listen.hostname}:${listen.port}: ${
        (error as Error).message
      }`,
    );
    return 1;
  }
  const running = server;
  const stop = () => {
    log("rustpad-mcp: draining: finishing calls in flight");
    void running.shutdown();
  };
  for (const signal of SIGNALS) Deno.addSignalListener(signal, stop);
  log(
    `rustpad-mcp ${VERSION}: serving MCP over HTTP at ${running.url.href} for ${config.rustpadUrl.href} with ${config.tools.size} tools${
      config.httpToken === undefined && identities.length === 0
        ? ""
        : ` (bearer token required${
          identities.length === 0
            ? ""
            : `; ${identities.length} named identities`
        })`
    }${state.kind === "memory" ? "" : `, state in ${state.location}`}`,
  );
  for (const note of startNotes) log(note);
  // Settles only on shutdown: accept errors (EMFILE) are survived.
  await running.finished;
  await running.shutdown();
  for (const signal of SIGNALS) Deno.removeSignalListener(signal, stop);
  await backend.close();
  await state.close();
  log("rustpad-mcp: stopped");
  return 0;
}
