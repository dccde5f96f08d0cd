/**
 * `rustpad-mcp pad-server`: the pad server as a long-lived process of its
 * own, the one home of the pads that people and every agent share. It is
 * what `--embedded` starts on first use and joins afterwards; run it by hand
 * with `deno task pad-server`, `deno run -A mod.ts pad-server` or the
 * compiled binary's `pad-server`.
 *
 * It holds `<stem>.server.lock` beside its pads file for its whole life (a
 * second one for the same pads refuses to start), writes its address to
 * `<stem>.server.json` once it listens, and makes `agent.secret` there. It
 * stops on SIGTERM or SIGINT, or once RUSTPAD_PAD_SERVER_IDLE_SECONDS pass
 * with no socket open and no request, writing its pads first.
 *
 * @module
 */

import { parseArgs } from "node:util";
import { type Config, ConfigError, loadConfig } from "../config/mod.ts";
import { CONFIG_VARIABLES } from "../config/mod.ts";
import {
  isLoopback,
  type ListenAddress,
  parseListen,
} from "../config/listen.ts";
import { agentSecret, type PadServer } from "../pad_server/mod.ts";
import { padHome, tryLock, writeAddress } from "./_pad_home.ts";
import {
  boundsOf,
  dataFolder,
  openPads,
  padsFile,
  PadsFileError,
  storedText,
} from "./_pad_store.ts";
import { listenNear, logTo } from "./_pad_server_run.ts";

/** Exit code for a bad flag or configuration value. */
export const USAGE_EXIT_CODE = 2;
/** Exit code when the pad server of the same pads already runs. */
export const RUNNING_EXIT_CODE = 3;

const USAGE =
  `Usage: rustpad-mcp pad-server [--listen [HOST:]PORT] [--port-fallback]
                            [--log-file PATH]

Serve the pads (and their web editor) as a process of its own, until SIGTERM
or SIGINT, or until RUSTPAD_PAD_SERVER_IDLE_SECONDS pass with no person and
no agent connected. --embedded starts it on first use and joins it after.
Prints its URL on stdout; says everything else on stderr (or in the log file).
Configured by the RUSTPAD_EMBEDDED_* variables (see rustpad-mcp --help).

Options:
  --listen [HOST:]PORT  where to listen (default: RUSTPAD_EMBEDDED_LISTEN)
  --port-fallback       if the port is taken, the first free of the 9 after it,
                        else any free port
  --log-file PATH       write what it says to PATH, not stderr
  --state-dir DIR       keep its lock, address and agent secret in DIR when its
                        pads are in memory (default: the data directory)
  -h, --help            print this help`;

/**
 * Run the pad server until it is told to stop or stays idle.
 *
 * @param args The arguments after `pad-server`.
 * @returns The exit code: 0 once stopped, 2 for a bad flag or setting, 3
 * when the pad server of the same pads already runs.
 *
 * @example
 * ```ts ignore
 * import { padServerMain } from "./pad_server_main.ts";
 *
 * Deno.exit(await padServerMain(["--listen", "127.0.0.1:3030"]));
 * ```
 */
export async function padServerMain(args: string[]): Promise<number> {
  let values: {
    listen?: string | undefined;
    "port-fallback"?: boolean | undefined;
    "log-file"?: string | undefined;
    "state-dir"?: string | undefined;
    help?: boolean | undefined;
  };
  try {
    ({ values } = parseArgs({
      args,
      options: {
        listen: { type: "string" },
        "port-fallback": { type: "boolean" },
        "log-file": { type: "string" },
        "state-dir": { type: "string" },
        help: { type: "boolean", short: "h" },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    console.error(
      `rustpad-mcp pad-server: ${(error as Error).message}; see --help`,
    );
    return USAGE_EXIT_CODE;
  }
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  const log = logTo(values["log-file"]);
  const env: Record<string, string | undefined> = {};
  for (const { name } of CONFIG_VARIABLES) env[name] = Deno.env.get(name);
  let config: Config;
  try {
    config = loadConfig({ ...env, RUSTPAD_URL: "http://127.0.0.1/" });
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    log(`rustpad-mcp: ${error.message}`);
    return USAGE_EXIT_CODE;
  }
  const listen = values.listen === undefined
    ? config.embeddedListen
    : parseListen(values.listen);
  if (listen === undefined) {
    log(
      `rustpad-mcp: --listen ${
        JSON.stringify(values.listen)
      } is not accepted: expected [HOST:]PORT such as 3030 or 127.0.0.1:3030, or 0 for a free port`,
    );
    return USAGE_EXIT_CODE;
  }
  if (!isLoopback(listen.hostname) && !config.embeddedPublic) {
    log(
      `rustpad-mcp: Cannot serve the embedded pad server on ${listen.hostname} as pad ids are its only access control: current RUSTPAD_EMBEDDED_PUBLIC is false; set RUSTPAD_EMBEDDED_PUBLIC=true to serve it beyond loopback`,
    );
    return USAGE_EXIT_CODE;
  }
  try {
    return await serve(config, listen, {
      fallback: values["port-fallback"] ?? false,
      stateDir: values["state-dir"],
      log,
    });
  } catch (error) {
    if (!(error instanceof PadsFileError)) throw error;
    log(
      `rustpad-mcp: ${error.message}; set RUSTPAD_EMBEDDED_DB to another file, or to memory to keep pads in memory only`,
    );
    return USAGE_EXIT_CODE;
  }
}

async function serve(
  config: Config,
  listen: ListenAddress,
  { fallback, stateDir, log }: {
    fallback: boolean;
    stateDir: string | undefined;
    log: (line: string) => void;
  },
): Promise<number> {
  const path = padsFile(config);
  const home = padHome(path, stateDir ?? dataFolder());
  if (home !== undefined) {
    try {
      await Deno.mkdir(home.folder, { recursive: true });
    } catch (error) {
      throw new PadsFileError(
        `Cannot keep the pad server's files in ${home.folder} as the folder cannot be made: ${
          (error as Error).message
        }`,
      );
    }
  }
  using lock = home === undefined ? undefined : await tryLock(home.lock);
  if (home !== undefined && lock === undefined) {
    log(
      `rustpad-mcp: Cannot start a pad server for ${
        path ?? "pads in memory"
      } as one already runs (its address is in ${home.address}): use it, or stop it with SIGTERM first`,
    );
    return RUNNING_EXIT_CODE;
  }
  const database = path === undefined ? undefined : openPads(path);
  try {
    // Without a data directory nobody else can read a secret: one of its own.
    const secret = home === undefined
      ? crypto.randomUUID()
      : await agentSecret(home.folder);
    const startTime = Math.floor(Date.now() / 1000);
    let server: PadServer;
    try {
      server = await listenNear(listen, fallback, {
        ...boundsOf(config, listen.hostname),
        startTime,
        ...(database === undefined ? {} : { database }),
        agentSecret: secret,
        // Agents' suggestions and authors live with the pads they are on.
        ...(database === undefined
          ? {}
          : { agentStore: database.agentStore() }),
        log,
      });
    } catch (error) {
      const taken = error instanceof Deno.errors.AddrInUse;
      if (!taken && !(error instanceof Deno.errors.PermissionDenied)) {
        throw error;
      }
      log(
        `rustpad-mcp: Cannot listen on ${listen.hostname}:${listen.port} as ${
          taken
            ? "another process holds that address: stop it, or"
            : `the system refused it (${(error as Error).message}):`
        } choose another port with --listen (0 for a free one)`,
      );
      return 1;
    }
    const url = `${server.url}/`;
    if (home !== undefined) {
      await writeAddress(home.address, {
        url,
        pid: Deno.pid,
        pads: path ?? null,
        idleSeconds: config.padServerIdleSeconds,
        startTime,
      });
    }
    log(
      `rustpad-mcp: pad server at ${url} (${
        storedText(config, path)
      }; pid ${Deno.pid}); open ${url}#NAME in a browser to edit pad NAME`,
    );
    console.log(url);
    const why = await stopped(server, config.padServerIdleSeconds);
    log(`rustpad-mcp: pad server at ${url} stopping: ${why}`);
    // Unlike the real server, write what changed since the last snapshot.
    server.snapshot();
    const { unstored } = await server.close();
    if (home !== undefined) await Deno.remove(home.address).catch(() => {});
    if (unstored.length === 0) return 0;
    // Loud: the process exits non-zero, naming them.
    log(
      `rustpad-mcp: Cannot stop with every pad stored as the last write of ${unstored.length} failed: ${
        unstored.map((failure) => failure.padId).join(", ")
      } (${unstored.map((failure) => failure.reason).join("; ")})`,
    );
    return 1;
  } finally {
    database?.close();
  }
}

/** Once a signal comes or the server stays idle; says which. */
async function stopped(
  server: PadServer,
  idleSeconds: number,
): Promise<string> {
  const signals: Deno.Signal[] = Deno.build.os === "windows"
    ? ["SIGINT", "SIGBREAK"]
    : ["SIGINT", "SIGTERM"];
  const { promise, resolve } = Promise.withResolvers<string>();
  const handlers = signals.map((signal) => {
    const handler = () => resolve(`${signal} received`);
    Deno.addSignalListener(signal, handler);
    return [signal, handler] as const;
  });
  const timer = idleSeconds === 0 ? undefined : setInterval(() => {
    if (server.idleMs() >= idleSeconds * 1000) {
      resolve(
        `idle for ${idleSeconds} s with no person and no agent connected (RUSTPAD_PAD_SERVER_IDLE_SECONDS)`,
      );
    }
  }, Math.min(1000, idleSeconds * 1000));
  try {
    return await promise;
  } finally {
    clearInterval(timer);
    for (const [signal, handler] of handlers) {
      Deno.removeSignalListener(signal, handler);
    }
  }
}

if (import.meta.main) Deno.exit(await padServerMain(Deno.args));
