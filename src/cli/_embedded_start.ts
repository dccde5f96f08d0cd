// Joining the user's pad server for `--embedded`, starting it on first use
// (see _embedded.ts): loaded only when --embedded asks for it, so that a
// start without it loads no pad server module.

import type { Config } from "../config/mod.ts";
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
  /**
   * After a connection to it was refused: wait until it answers again
   * (started again, by this agent or another); `false` when it stopped on
   * purpose, cannot be started, or took longer than a restart does.
   */
  whenBack(): Promise<boolean>;
}

/**
 * How long a call waits for a killed pad server to be started again: two
 * missed heartbeats, a start, and room to spare.
 */
const RESTART_WAIT_MS = 3 * HEARTBEAT_MS + 5000;

export async function startEmbedded(
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
      whenBack: () => watch?.whenBack() ?? Promise.resolve(false),
      [Symbol.asyncDispose]: () => Promise.resolve(watch?.stop()),
    },
    secret: joined.secret,
  };
}

/** What watches the joined pad server. */
interface Watch {
  /** As `EmbeddedPads.whenBack`. */
  whenBack(): Promise<boolean>;
  stop(): void;
}

/**
 * Ask the pad server at `url` every `everyMs` (so it does not go idle
 * while this agent runs); when it stopped answering twice, start it again
 * with `restart`. A failure to is said once, not at every try. A call
 * waiting in `whenBack` has it asked at once, not at the next beat.
 */
function keepJoined(
  url: URL,
  home: PadHome,
  everyMs: number,
  restart: () => Promise<Joined>,
): Watch {
  let busy = false;
  let missed = 0;
  let failing = false;
  const waiting = new Set<(back: boolean) => void>();
  const settle = (back: boolean) => {
    for (const resolve of waiting) resolve(back);
    waiting.clear();
  };
  const beat = async () => {
    if (busy) return;
    busy = true;
    try {
      if (await answersAsPadServer(url)) {
        missed = 0;
        failing = false;
        return settle(true);
      }
      if (++missed < 2) return;
      // Stopped on purpose (SIGTERM, idle), it took its address with it:
      // it stays stopped. Killed, it left it behind, and a failed start
      // leaves it too: start it again.
      if (await readAddress(home.address) === undefined) {
        if (!failing) {
          console.error(
            `rustpad-mcp: the pad server at ${url.href} stopped: the tools cannot reach their pads until it runs again (rustpad-mcp pad-server, or restart this MCP server)`,
          );
        }
        failing = true;
        return settle(false);
      }
      const joined = await restart();
      missed = 0;
      failing = false;
      const same = joined.url.href === url.href;
      console.error(
        same
          ? `rustpad-mcp: the pad server at ${url.href} stopped: ${
            joined.started ? "started it again" : "joined the one now there"
          } (pid ${joined.address?.pid ?? "unknown"})`
          : `rustpad-mcp: Cannot serve the pads at ${url.href} again as the pad server now runs at ${joined.url.href}: restart this MCP server to use it`,
      );
      settle(same);
    } catch (error) {
      settle(false);
      if (failing) return;
      failing = true;
      const lines = error instanceof StartFailure
        ? error.lines
        : [(error as Error).message];
      const why = lines.at(-1)?.replace(/^rustpad-mcp: /, "") ?? "it exited";
      console.error(
        `rustpad-mcp: Cannot start the pad server at ${url.href} again: ${why}; see ${home.log}; trying again every ${everyMs} ms`,
      );
    } finally {
      busy = false;
    }
  };
  const timer = setInterval(beat, everyMs);
  Deno.unrefTimer(timer);
  // While a call waits, ask often: two misses start it again sooner.
  let quick: ReturnType<typeof setInterval> | undefined;
  return {
    whenBack() {
      const back = Promise.withResolvers<boolean>();
      const wait = setTimeout(() => {
        waiting.delete(back.resolve);
        back.resolve(false);
      }, RESTART_WAIT_MS);
      waiting.add(back.resolve);
      quick ??= setInterval(() => {
        if (waiting.size > 0) return void beat();
        clearInterval(quick);
        quick = undefined;
      }, QUICK_BEAT_MS);
      Deno.unrefTimer(quick);
      void beat();
      return back.promise.finally(() => clearTimeout(wait));
    },
    stop() {
      clearInterval(timer);
      clearInterval(quick);
      settle(false);
    },
  };
}

/** How often the pad server is asked while a call waits for it. */
const QUICK_BEAT_MS = 250;
