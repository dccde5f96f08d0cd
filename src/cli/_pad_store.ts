// What the pad server process is made of: its pads file (RUSTPAD_EMBEDDED_DB,
// else the data directory's), the SQLite store opened on it, its bounds and
// access rules, and the URL it is reached at.

import type { Config } from "../config/mod.ts";
import { type PadServerOptions, SqlitePadDatabase } from "../pad_server/mod.ts";
import {
  DATA_DIRECTORY_VARIABLES,
  defaultPadsFile,
} from "./_data_directory.ts";

/** A pads file that cannot be used, said as the line on stderr says it. */
export class PadsFileError extends Error {}

/** The environment's data directory variables. */
function dataEnvironment(): Record<string, string | undefined> {
  const env: Record<string, string | undefined> = {};
  for (const name of DATA_DIRECTORY_VARIABLES) env[name] = Deno.env.get(name);
  return env;
}

/** The pads file from RUSTPAD_EMBEDDED_DB, else the data directory's. */
export function padsFile(config: Config): string | undefined {
  if (config.embeddedDatabase !== undefined) {
    return config.embeddedDatabase || undefined;
  }
  return defaultPadsFile(dataEnvironment(), Deno.build.os);
}

/** The folder of the default pads file, or `undefined` without one. */
export function dataFolder(): string | undefined {
  return defaultPadsFile(dataEnvironment(), Deno.build.os)
    ?.replace(/[\\/][^\\/]*$/, "");
}

/** Where pads are kept, as the lines on stderr say it. */
export function storedText(config: Config, path: string | undefined): string {
  return path !== undefined
    ? `pads persist in ${path}`
    : config.embeddedDatabase === false
    ? "pads in memory only"
    : "pads in memory only, as no HOME names a data directory; set RUSTPAD_EMBEDDED_DB to keep them";
}

/**
 * A SQLite store in `path`, its folder made if missing.
 *
 * @throws {PadsFileError} If it cannot be used, saying why.
 */
export function openPads(path: string): SqlitePadDatabase {
  const folder = path.replace(/[\\/][^\\/]*$/, "");
  try {
    if (folder !== path && folder !== "") {
      Deno.mkdirSync(folder, { recursive: true });
    }
    return new SqlitePadDatabase(path);
  } catch (error) {
    const reason = (error as Error).message;
    throw new PadsFileError(
      reason.startsWith("Cannot ")
        ? reason
        : `Cannot persist pads in ${path} as its folder cannot be made: ${reason}`,
    );
  }
}

/** The bounds and the access rules of the pad server. */
export function boundsOf(config: Config, hostname: string): PadServerOptions {
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

/** The URL a pad server listening on `hostname:port` is reached at. */
export function reachable(hostname: string, port: number): URL {
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
