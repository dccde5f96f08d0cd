// The MCP server beside its own pad server: `--embedded [[HOST:]PORT]` or
// RUSTPAD_URL=embedded join the pad server of the user's pads (a process of
// its own, see pad_server_main.ts), starting it on first use on
// 127.0.0.1:3030 by default (see _pad_server_join.ts), point the tools at
// it, and print the editor's URL on stderr. The pad server outlives the
// agent: people keep their pages while no agent runs. Pad ids are the pads'
// only access control, so anything but loopback needs
// RUSTPAD_EMBEDDED_PUBLIC=true.

import {
  type Config,
  CONFIG_VARIABLES,
  ConfigError,
  loadConfig,
} from "../config/mod.ts";
import {
  isLoopback,
  type ListenAddress,
  parseListen,
} from "../config/listen.ts";
import { type PadHome, padHome, readAddress } from "./_pad_home.ts";
import { dataFolder, padsFile, reachable, storedText } from "./_pad_store.ts";
import {
  answersAsPadServer,
  HEARTBEAT_MS,
  type Joined,
  joinOrStart,
  StartFailure,
} from "./_pad_server_join.ts";
import { USAGE_EXIT_CODE } from "./pad_server_main.ts";

/** The pad server an agent uses; disposing it stops watching it. */
export interface EmbeddedPads extends AsyncDisposable {
  /** Its base URL as this process's tools reach it, ending in `/`. */
  readonly url: URL;
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
 * The configuration, with the embedded pad server joined (or started)
 * first when the flag or RUSTPAD_URL=embedded asks for it; or the exit
 * code after the lines on stderr.
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
    // The pad server's URL is known only once it is joined.
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
  const joined = await startEmbedded(wanted, config);
  if (typeof joined === "number") return joined;
  const { embedded, secret } = joined;
  return {
    config: {
      ...config,
      rustpadUrl: embedded.url,
      ...secret !== undefined && { agentSecret: secret },
    },
    embedded,
    publicDefault: false,
  };
}

async function startEmbedded(
  wanted: string,
  config: Config,
): Promise<{ embedded: EmbeddedPads; secret: string | undefined } | number> {
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
  const path = padsFile(config);
  let home = padHome(path, dataFolder());
  const stateDir: string[] = [];
  if (home === undefined) {
    // No data directory to meet others in: a folder of this session's own.
    const folder = await Deno.makeTempDir({ prefix: "rustpad-mcp-pads-" });
    home = padHome(undefined, folder)!;
    stateDir.push("--state-dir", folder);
  }
  const start = (at: ListenAddress, fallback: boolean) =>
    joinOrStart(home, at, [
      "--listen",
      `${
        at.hostname.includes(":") ? `[${at.hostname}]` : at.hostname
      }:${at.port}`,
      ...fallback ? ["--port-fallback"] : [],
      ...stateDir,
    ], { RUSTPAD_EMBEDDED_DB: path ?? "memory" });
  let joined: Joined;
  try {
    joined = await start(listen, true);
  } catch (error) {
    if (!(error instanceof StartFailure)) throw error;
    for (const line of error.lines) {
      console.error(
        line.startsWith("rustpad-mcp: ") ? line : `rustpad-mcp: ${line}`,
      );
    }
    return error.code === USAGE_EXIT_CODE ? USAGE_EXIT_CODE : 1;
  }
  const { url, address } = joined;
  const asked = reachable(listen.hostname, listen.port);
  if (listen.port !== 0 && url.href !== asked.href) {
    console.error(
      joined.started
        ? `rustpad-mcp: ${listen.hostname}:${listen.port} is in use by something other than a pad server: the embedded pad server listens on port ${url.port} instead`
        : `rustpad-mcp: the pad server of these pads already runs at ${url.href}: the tools use it, not ${listen.hostname}:${listen.port}`,
    );
  }
  const where = address === undefined
    ? "served by a pad server already listening there, which keeps its own pads"
    : storedText(config, path);
  if (address !== undefined) {
    console.error(
      `rustpad-mcp: pad server process ${address.pid} ${
        joined.started ? "started" : "joined"
      }: it goes on serving people after this session, until SIGTERM or ${address.idleSeconds} s idle (RUSTPAD_PAD_SERVER_IDLE_SECONDS)${
        joined.started ? `; it says what it does in ${home.log}` : ""
      }`,
    );
  }
  console.error(
    `rustpad-mcp: embedded pad server at ${url.href} (${where}); open ${url.href}#NAME in a browser to edit pad NAME beside the agent`,
  );
  const watch = address === undefined ? undefined : keepJoined(
    url,
    home,
    // Four asks per idle time, so this agent keeps it from going idle.
    address.idleSeconds === 0
      ? HEARTBEAT_MS
      : Math.max(100, Math.min(HEARTBEAT_MS, address.idleSeconds * 250)),
    () => start({ hostname: listen.hostname, port: Number(url.port) }, false),
  );
  return {
    embedded: {
      url,
      [Symbol.asyncDispose]: () => Promise.resolve(clearInterval(watch)),
    },
    secret: joined.secret,
  };
}

/**
 * Ask the pad server at `url` every `everyMs` (so it does not go idle
 * while this agent runs); when it stopped answering twice, start it again
 * with `restart`. A failure to is said once, not at every try.
 */
function keepJoined(
  url: URL,
  home: PadHome,
  everyMs: number,
  restart: () => Promise<Joined>,
): ReturnType<typeof setInterval> {
  let busy = false;
  let missed = 0;
  let failing = false;
  const timer = setInterval(async () => {
    if (busy) return;
    busy = true;
    try {
      if (await answersAsPadServer(url)) {
        missed = 0;
        failing = false;
        return;
      }
      if (++missed < 2) return;
      // Stopped on purpose (SIGTERM, idle), it took its address with it:
      // it stays stopped. Killed, it left it behind: start it again.
      if (await readAddress(home.address) === undefined) {
        if (!failing) {
          console.error(
            `rustpad-mcp: the pad server at ${url.href} stopped: the tools cannot reach their pads until it runs again (rustpad-mcp pad-server, or restart this MCP server)`,
          );
        }
        failing = true;
        return;
      }
      const joined = await restart();
      missed = 0;
      failing = false;
      console.error(
        joined.url.href === url.href
          ? `rustpad-mcp: the pad server at ${url.href} stopped: ${
            joined.started ? "started it again" : "joined the one now there"
          } (pid ${joined.address?.pid ?? "unknown"})`
          : `rustpad-mcp: Cannot serve the pads at ${url.href} again as the pad server now runs at ${joined.url.href}: restart this MCP server to use it`,
      );
    } catch (error) {
      if (failing) return;
      failing = true;
      const lines = error instanceof StartFailure
        ? error.lines
        : [(error as Error).message];
      console.error(
        `rustpad-mcp: Cannot start the pad server at ${url.href} again: ${
          lines.at(-1) ?? "it exited"
        }; see ${home.log}; trying again every ${everyMs} ms`,
      );
    } finally {
      busy = false;
    }
  }, everyMs);
  Deno.unrefTimer(timer);
  return timer;
}
