// The MCP server with its own pad server in the same process: `--embedded
// [[HOST:]PORT]` or RUSTPAD_URL=embedded start the compatible pad server
// (127.0.0.1:3030 by default, see _pad_place.ts; pads in the user's data
// directory), point the tools at it, and print the editor's URL on stderr.
// Pad ids are the pads' only access control, so anything but loopback needs
// RUSTPAD_EMBEDDED_PUBLIC=true.

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
  type PadServerOptions,
  SqlitePadDatabase,
  type SuggestionDesk,
} from "../pad_server/mod.ts";
import {
  DATA_DIRECTORY_VARIABLES,
  defaultPadsFile,
} from "./_data_directory.ts";
import { PadPlace, type Serving } from "./_pad_place.ts";

/** Exit code for a bad flag or configuration value. */
const USAGE_EXIT_CODE = 2;

/** A running embedded pad server; disposing it stops it. */
export interface EmbeddedPads extends AsyncDisposable {
  /**
   * The pad server, while this process serves it; `undefined` while it
   * uses the one another process serves on the same port.
   */
  readonly server: PadServer | undefined;
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
 * The configuration, the embedded pad server if any, and whether
 * RUSTPAD_URL took its default, the public rustpad.io.
 */
export interface Configured {
  readonly config: Config;
  readonly embedded: EmbeddedPads | undefined;
  readonly publicDefault: boolean;
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
): Promise<Configured | number> {
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
  if (wanted === undefined) {
    return {
      config,
      embedded: undefined,
      publicDefault: !env.RUSTPAD_URL?.trim(),
    };
  }
  const embedded = await startEmbedded(wanted, config, padsFile(config));
  if (typeof embedded === "number") return embedded;
  return {
    config: { ...config, rustpadUrl: embedded.url },
    embedded,
    publicDefault: false,
  };
}

/** The pads file from RUSTPAD_EMBEDDED_DB, else the data directory's. */
function padsFile(config: Config): string | undefined {
  if (config.embeddedDatabase !== undefined) {
    return config.embeddedDatabase || undefined;
  }
  const env: Record<string, string | undefined> = {};
  for (const name of DATA_DIRECTORY_VARIABLES) env[name] = Deno.env.get(name);
  return defaultPadsFile(env, Deno.build.os);
}

/** A pads file that cannot be used, said as the line on stderr says it. */
class PadsFileError extends Error {}

/** The bounds and the access rules of the embedded pad server. */
function boundsOf(config: Config, hostname: string): PadServerOptions {
  // A name listened on is a name people reach the server by.
  const named = /^[0-9.]+$|:/.test(hostname) ? undefined : hostname;
  const publicHost = config.embeddedPublicHost ?? named;
  return {
    maxConnections: config.embeddedMaxConnections,
    maxSocketsPerPad: config.embeddedMaxSocketsPerPad,
    allowedOrigins: config.embeddedAllowedOrigins,
    ...(publicHost === undefined ? {} : { publicHost }),
  };
}

/**
 * A SQLite store in `path` (its folder made if missing), else memory;
 * within `bounds`, and the agent's suggestions on `desk`.
 */
function serving(
  path: string | undefined,
  bounds: PadServerOptions,
  desk: SuggestionDesk,
): () => Serving {
  return () => {
    if (path === undefined) {
      return { options: { ...bounds, suggestions: desk }, release() {} };
    }
    const folder = path.replace(/[\\/][^\\/]*$/, "");
    let database: SqlitePadDatabase;
    try {
      if (folder !== path && folder !== "") {
        Deno.mkdirSync(folder, { recursive: true });
      }
      database = new SqlitePadDatabase(path);
    } catch (error) {
      const reason = (error as Error).message;
      throw new PadsFileError(
        reason.startsWith("Cannot ")
          ? reason
          : `Cannot persist pads in ${path} as its folder cannot be made: ${reason}`,
      );
    }
    return {
      options: { ...bounds, database, suggestions: desk },
      release: () => database.close(),
    };
  };
}

async function startEmbedded(
  wanted: string,
  config: Config,
  path: string | undefined,
): Promise<EmbeddedPads | number> {
  const listen = wanted.trim() === ""
    ? config.embeddedListen
    : parseListen(wanted);
  if (listen === undefined) {
    console.error(
      `rustpad-mcp: --embedded ${
        JSON.stringify(wanted)
      } is not accepted: expected [HOST:]PORT such as 3030 or 127.0.0.1:3030, 0 for a free port, or nothing for RUSTPAD_EMBEDDED_LISTEN (127.0.0.1:3030 by default)`,
    );
    return USAGE_EXIT_CODE;
  }
  if (!isLoopback(listen.hostname) && !config.embeddedPublic) {
    console.error(
      `rustpad-mcp: Cannot serve the embedded pad server on ${listen.hostname} as pad ids are its only access control: current RUSTPAD_EMBEDDED_PUBLIC is false; set RUSTPAD_EMBEDDED_PUBLIC=true to serve it beyond loopback`,
    );
    return USAGE_EXIT_CODE;
  }
  const stored = path !== undefined
    ? `pads persist in ${path}`
    : config.embeddedDatabase === false
    ? "pads in memory only"
    : "pads in memory only, as no HOME names a data directory; set RUSTPAD_EMBEDDED_DB to keep them";
  let place: PadPlace;
  const desk = new BackendDesk();
  try {
    place = await PadPlace.open(
      listen,
      serving(path, boundsOf(config, listen.hostname), desk),
      (taken) => {
        console.error(
          `rustpad-mcp: the pad server at ${taken.url.href} stopped: this process serves it now (${stored})`,
        );
      },
    );
  } catch (error) {
    if (!(error instanceof PadsFileError)) throw error;
    console.error(
      `rustpad-mcp: ${error.message}; set RUSTPAD_EMBEDDED_DB to another file, or to memory to keep pads in memory only`,
    );
    return USAGE_EXIT_CODE;
  }
  const where = place.server === undefined
    ? `already served by another process, which keeps its pads; this one serves them if it stops`
    : stored;
  if (place.url.port !== String(listen.port) && listen.port !== 0) {
    console.error(
      `rustpad-mcp: ${listen.hostname}:${listen.port} is in use by something other than a pad server: the embedded pad server listens on port ${place.url.port} instead`,
    );
  }
  console.error(
    `rustpad-mcp: embedded pad server at ${place.url.href} (${where}); open ${place.url.href}#NAME in a browser to edit pad NAME beside the agent`,
  );
  return handle(place, desk);
}

function handle(place: PadPlace, desk: BackendDesk): EmbeddedPads {
  const signals: Deno.Signal[] = Deno.build.os === "windows"
    ? ["SIGINT", "SIGBREAK"]
    : ["SIGINT", "SIGTERM"];
  let onSignal: (() => void) | undefined;
  const stop = async () => {
    if (onSignal !== undefined) {
      for (const signal of signals) Deno.removeSignalListener(signal, onSignal);
    }
    await place[Symbol.asyncDispose]();
  };
  return {
    get server() {
      return place.server;
    },
    url: place.url,
    exitOnSignal() {
      onSignal = () => {
        console.error("rustpad-mcp: stopping the embedded pad server");
        // Deno.exitCode: 1 if a pad was not stored.
        void stop().then(() => Deno.exit());
      };
      for (const signal of signals) Deno.addSignalListener(signal, onSignal);
    },
    attach(backend) {
      desk.backend = backend;
    },
    [Symbol.asyncDispose]: stop,
  };
}
