// The pad server's command line: `deno run -A src/pad_server/pad_server.ts`.

import { parseArgs } from "node:util";
import type { PadStorage } from "./pad_database.ts";
import type { StoreFailure } from "./pad_store.ts";
import { SqlitePadDatabase } from "./sqlite_pad_database.ts";

const USAGE =
  `Usage: deno run -A src/pad_server/pad_server.ts [--port N] [--hostname H]
       [--db FILE [--sync normal|full]]

Serve a Rustpad-compatible pad server, with its web editor at every path
outside /api/ (open the URL in a browser): in memory, or with every pad's
operation log in a SQLite file, each operation stored before it is
acknowledged. Prints its URL on one line, then serves until SIGINT or
SIGTERM; exits 1 naming the pads whose last write failed.

Options:
  --port N        port to listen on; 0 picks a free one (default: 0)
  --hostname H    address to listen on (default: 127.0.0.1)
  --db FILE       keep pads in this SQLite file (default: memory only)
  --sync MODE     normal: survives kill -9; full: survives a power cut
                  too, slower (default: RUSTPAD_EMBEDDED_SYNC, else normal)
  --max-connections N       most open connections (default: 1024)
  --max-sockets-per-pad N   most sockets on one pad (default: 256)
  -h, --help      print this help`;

/** What the command line starts and stops. */
export type StartServer = (
  options: {
    port: number;
    hostname?: string;
    maxConnections?: number;
    maxSocketsPerPad?: number;
    database?: PadStorage;
  },
) => Promise<
  { url: string; close(): Promise<{ unstored: readonly StoreFailure[] }> }
>;

/** The pads file of `--db`, or a line saying why it cannot be used. */
function openDatabase(
  path: string | undefined,
  sync: string | undefined,
): SqlitePadDatabase | string | undefined {
  if (sync !== undefined && sync !== "normal" && sync !== "full") {
    return `Cannot start as --sync is neither normal nor full: current value is ${
      JSON.stringify(sync)
    }`;
  }
  if (path === undefined) {
    return sync === undefined ? undefined : "Cannot use --sync without --db";
  }
  try {
    return new SqlitePadDatabase(
      path,
      sync === undefined ? {} : {
        synchronous: sync,
      },
    );
  } catch (error) {
    return (error as Error).message;
  }
}

/** The command line: returns the exit code. */
export async function main(
  args: string[],
  start: StartServer,
): Promise<number> {
  let values: {
    port?: string;
    hostname?: string;
    "max-connections"?: string;
    "max-sockets-per-pad"?: string;
    db?: string;
    sync?: string;
    help?: boolean;
  };
  try {
    ({ values } = parseArgs({
      args,
      options: {
        port: { type: "string", short: "p" },
        hostname: { type: "string" },
        "max-connections": { type: "string" },
        "max-sockets-per-pad": { type: "string" },
        db: { type: "string" },
        sync: { type: "string" },
        help: { type: "boolean", short: "h" },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    console.error(`error: ${(error as Error).message}\n\n${USAGE}`);
    return 2;
  }
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  const port = Number(values.port ?? "0");
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    console.error(
      `error: Cannot listen as the port is not an integer from 0 to 65535: current value is ${
        JSON.stringify(values.port)
      }`,
    );
    return 2;
  }
  const hostname = values.hostname ?? "127.0.0.1";
  const counts: { maxConnections?: number; maxSocketsPerPad?: number } = {};
  for (
    const [flag, key] of [
      ["max-connections", "maxConnections"],
      ["max-sockets-per-pad", "maxSocketsPerPad"],
    ] as const
  ) {
    const value = values[flag];
    if (value === undefined) continue;
    if (!/^[1-9][0-9]{0,6}$/.test(value)) {
      console.error(
        `error: Cannot start as --${flag} is not an integer from 1 to 9999999: current value is ${
          JSON.stringify(value)
        }`,
      );
      return 2;
    }
    counts[key] = Number(value);
  }
  const database = openDatabase(values.db, values.sync);
  if (typeof database === "string") {
    console.error(`error: ${database}`);
    return 2;
  }
  let server;
  try {
    server = await start({
      port,
      hostname,
      ...counts,
      ...(database === undefined ? {} : { database }),
    });
  } catch (error) {
    database?.close();
    if (!(error instanceof Deno.errors.AddrInUse)) throw error;
    console.error(
      `error: Cannot listen on ${hostname}:${port} as the address is in use: choose another port, or 0 for a free one`,
    );
    return 2;
  }
  console.log(server.url);
  const signals: Deno.Signal[] = Deno.build.os === "windows"
    ? ["SIGINT", "SIGBREAK"]
    : ["SIGINT", "SIGTERM"];
  const { promise, resolve } = Promise.withResolvers<void>();
  const stop = () => resolve();
  for (const signal of signals) Deno.addSignalListener(signal, stop);
  await promise;
  for (const signal of signals) Deno.removeSignalListener(signal, stop);
  const { unstored } = await server.close();
  database?.close();
  if (unstored.length === 0) return 0;
  console.error(
    `error: Cannot stop with every pad stored as the last write of ${unstored.length} failed: ${
      unstored.map((failure) => failure.padId).join(", ")
    } (${unstored.map((failure) => failure.reason).join("; ")})`,
  );
  return 1;
}
