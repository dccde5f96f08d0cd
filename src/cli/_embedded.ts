// The MCP server with its own pad server in the same process: `--embedded
// [[HOST:]PORT]` or RUSTPAD_URL=embedded start the compatible pad server
// (loopback, a free port by default), point the tools at it, and print the
// editor's URL on stderr. Pad ids are the pads' only access control, so
// anything but loopback needs RUSTPAD_EMBEDDED_PUBLIC=true.

import {
  type Config,
  CONFIG_VARIABLES,
  ConfigError,
  loadConfig,
} from "../config/mod.ts";
import { isLoopback, parseListen } from "../config/listen.ts";
import type { Backend } from "../backend/backend.ts";
import {
  type PadServer,
  SqlitePadDatabase,
  startPadServer,
  type SuggestionDesk,
} from "../pad_server/mod.ts";

/** Exit code for a bad flag or configuration value. */
const USAGE_EXIT_CODE = 2;

/** A running embedded pad server; disposing it stops it. */
export interface EmbeddedPads extends AsyncDisposable {
  /** The pad server. */
  readonly server: PadServer;
  /** Its base URL as this process's tools reach it, ending in `/`. */
  readonly url: URL;
  /** On SIGINT or SIGTERM, write the pads and exit (for stdio mode). */
  exitOnSignal(): void;
  /**
   * Serve the suggestions `backend` holds to the pad server's page, which
   * decides them through its HTTP API.
   */
  attach(backend: Backend): void;
}

/**
 * The pad server's desk: the backend's suggestions once one is attached
 * (the pad server starts first), an empty list before.
 */
class BackendDesk implements SuggestionDesk {
  backend: Backend | undefined;

  list(padId: string): ReturnType<SuggestionDesk["list"]> {
    return this.backend === undefined
      ? Promise.resolve({ revision: 0, suggestions: [], agentIds: [] })
      : this.backend.suggestions.list(padId);
  }

  decide(
    ...[padId, id, verdict, by]: Parameters<SuggestionDesk["decide"]>
  ): ReturnType<SuggestionDesk["decide"]> {
    if (this.backend === undefined) {
      return Promise.resolve({
        ok: false,
        kind: "missing",
        error:
          `Cannot decide suggestion "${id}" as the MCP server is still starting: current pads hold no suggestions yet`,
      });
    }
    return this.backend.suggestions.decide(padId, id, verdict, by);
  }
}

/**
 * `--embedded` may stand alone: give parseArgs an empty value for it then,
 * so `--embedded` and `--embedded 8080` both parse.
 */
export function embeddedFlagArgs(args: readonly string[]): string[] {
  return args.map((arg, i) => {
    const next = args[i + 1];
    return arg === "--embedded" && (next === undefined || next.startsWith("-"))
      ? "--embedded="
      : arg;
  });
}

/**
 * The configuration, with the embedded pad server started first when the
 * flag or RUSTPAD_URL=embedded asks for it; or the exit code after one
 * line on stderr.
 */
export async function configure(
  flag: string | undefined,
): Promise<{ config: Config; embedded: EmbeddedPads | undefined } | number> {
  const env: Record<string, string | undefined> = {};
  for (const { name } of CONFIG_VARIABLES) env[name] = Deno.env.get(name);
  const wanted = flag ??
    (env.RUSTPAD_URL?.trim().toLowerCase() === "embedded" ? "" : undefined);
  let config: Config;
  try {
    // The pad server's URL is known only once it listens.
    if (wanted !== undefined) env.RUSTPAD_URL = "http://127.0.0.1/";
    config = loadConfig(env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.error(`rustpad-mcp: ${error.message}`);
    return USAGE_EXIT_CODE;
  }
  if (wanted === undefined) return { config, embedded: undefined };
  const embedded = await startEmbedded(wanted, config);
  if (typeof embedded === "number") return embedded;
  return { config: { ...config, rustpadUrl: embedded.url }, embedded };
}

/** The URL this process's tools reach a pad server at. */
function reachable(hostname: string, port: number): URL {
  // A wildcard address is reached on loopback.
  const host = hostname === "0.0.0.0"
    ? "127.0.0.1"
    : hostname === "::"
    ? "[::1]"
    : hostname.includes(":")
    ? `[${hostname}]`
    : hostname;
  return new URL(`http://${host}:${port}/`);
}

async function startEmbedded(
  wanted: string,
  config: Config,
): Promise<EmbeddedPads | number> {
  const listen = wanted.trim() === ""
    ? { hostname: "127.0.0.1", port: 0 }
    : parseListen(wanted);
  if (listen === undefined) {
    console.error(
      `rustpad-mcp: --embedded ${
        JSON.stringify(wanted)
      } is not accepted: expected [HOST:]PORT such as 3030 or 127.0.0.1:3030, or nothing for a free port on 127.0.0.1`,
    );
    return USAGE_EXIT_CODE;
  }
  if (!isLoopback(listen.hostname) && !config.embeddedPublic) {
    console.error(
      `rustpad-mcp: Cannot serve the embedded pad server on ${listen.hostname} as pad ids are its only access control: current RUSTPAD_EMBEDDED_PUBLIC is false; set RUSTPAD_EMBEDDED_PUBLIC=true to serve it beyond loopback`,
    );
    return USAGE_EXIT_CODE;
  }
  let database: SqlitePadDatabase | undefined;
  const path = config.embeddedDatabase;
  if (path !== undefined) {
    try {
      database = new SqlitePadDatabase(path);
    } catch (error) {
      console.error(
        `rustpad-mcp: RUSTPAD_EMBEDDED_DB: ${(error as Error).message}`,
      );
      return USAGE_EXIT_CODE;
    }
  }
  let server: PadServer;
  const desk = new BackendDesk();
  try {
    server = await startPadServer({
      ...listen,
      ...(database === undefined ? {} : { database }),
      suggestions: desk,
    });
  } catch (error) {
    database?.close();
    if (!(error instanceof Deno.errors.AddrInUse)) throw error;
    console.error(
      `rustpad-mcp: Cannot serve the embedded pad server on ${listen.hostname}:${listen.port} as the address is in use: choose another port, or none for a free one`,
    );
    return USAGE_EXIT_CODE;
  }
  const url = reachable(listen.hostname, server.port);
  const stored = path === undefined
    ? "pads in memory only"
    : `pads persist in ${path}`;
  console.error(
    `rustpad-mcp: embedded pad server at ${url.href} (${stored}); open ${url.href}#NAME in a browser to edit pad NAME beside the agent`,
  );
  return handle(server, url, database, desk);
}

function handle(
  server: PadServer,
  url: URL,
  database: SqlitePadDatabase | undefined,
  desk: BackendDesk,
): EmbeddedPads {
  const signals: Deno.Signal[] = Deno.build.os === "windows"
    ? ["SIGINT", "SIGBREAK"]
    : ["SIGINT", "SIGTERM"];
  let onSignal: (() => void) | undefined;
  const stop = async () => {
    if (onSignal !== undefined) {
      for (const signal of signals) Deno.removeSignalListener(signal, onSignal);
    }
    // Unlike the real server, write what changed since the last snapshot:
    // a person's last words are not lost to Ctrl-C.
    server.snapshot();
    await server.close();
    database?.close();
  };
  return {
    server,
    url,
    exitOnSignal() {
      onSignal = () => {
        console.error("rustpad-mcp: stopping the embedded pad server");
        void stop().then(() => Deno.exit(0));
      };
      for (const signal of signals) Deno.addSignalListener(signal, onSignal);
    },
    attach(backend) {
      desk.backend = backend;
    },
    [Symbol.asyncDispose]: stop,
  };
}
