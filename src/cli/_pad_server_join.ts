// How an agent process finds its pad server, as gopls' -remote=auto finds
// its daemon: the one whose address is beside the pads when it answers;
// else, under the start lock (so two racing end with one), a pad server
// already answering on the asked address (Rustpad, or one of other pads);
// else one it starts as a process of its own (pad_server_main.ts), whose
// address it waits for. While the agent runs it asks the pad server every
// few seconds (which keeps it from going idle) and starts it again if it
// stopped.

import type { ListenAddress } from "../config/listen.ts";
import { agentSecret } from "../pad_server/mod.ts";
import { RustpadHttpClient } from "../rustpad/mod.ts";
import {
  type PadHome,
  readAddress,
  type ServerAddress,
  tryLock,
  waitLock,
} from "./_pad_home.ts";
import { reachable } from "./_pad_store.ts";
import { RUNNING_EXIT_CODE } from "./pad_server_main.ts";

/** How long a listener has to answer as a pad server. */
const PROBE_TIMEOUT_MS = 2000;
/** How long a pad server may take to start, or another to start one. */
const START_TIMEOUT_MS = 30_000;
/** How often a running agent asks its pad server. */
export const HEARTBEAT_MS = 2000;

/** The pad server an agent uses. */
export interface Joined {
  /** Its base URL, ending in `/`. */
  readonly url: URL;
  /** Its agent secret; `undefined` for a server not of these pads. */
  readonly secret: string | undefined;
  /** Its address file's record; `undefined` for a server not of ours. */
  readonly address: ServerAddress | undefined;
  /** Whether this process started it. */
  readonly started: boolean;
}

/** A pad server that would not start, and what it said. */
export class StartFailure extends Error {
  constructor(readonly code: number, readonly lines: string[]) {
    super(lines.at(-1) ?? `the pad server exited with code ${code}`);
  }
}

/**
 * Whether a listener at `url` answers `GET api/stats` as Rustpad does;
 * with `startTime`, as the pad server started then.
 */
export async function answersAsPadServer(
  url: URL,
  startTime?: number,
): Promise<boolean> {
  try {
    const stats = await new RustpadHttpClient(url, {
      timeoutMs: PROBE_TIMEOUT_MS,
    }).getStats();
    return startTime === undefined || stats.start_time === startTime;
  } catch {
    return false;
  }
}

/** The pad server of `home` when its address answers. */
async function running(home: PadHome): Promise<Joined | undefined> {
  const address = await readAddress(home.address);
  if (address === undefined) return undefined;
  const url = new URL(address.url);
  if (!await answersAsPadServer(url, address.startTime)) return undefined;
  // Its start time is in whole seconds: a server that took the address
  // within the second a killed one started would pass for it. The lock
  // the running one holds cannot.
  const free = await tryLock(home.lock);
  if (free !== undefined) {
    free.close();
    return undefined;
  }
  const secret = await agentSecret(home.folder);
  return { url, secret, address, started: false };
}

/**
 * Join the pad server of `home`, or start it with `args` (after
 * `pad-server`) and `env` and join it.
 *
 * @throws {StartFailure} If it would not start.
 */
export async function joinOrStart(
  home: PadHome,
  listen: ListenAddress,
  args: readonly string[],
  env: Record<string, string>,
): Promise<Joined> {
  const found = await running(home);
  if (found !== undefined) return found;
  await Deno.mkdir(home.folder, { recursive: true });
  const start = await waitLock(home.startLock, START_TIMEOUT_MS);
  if (start === undefined) {
    throw new StartFailure(1, [
      `Cannot start the pad server as another process has been starting it for ${START_TIMEOUT_MS} ms (it holds ${home.startLock}): stop that process, or try again`,
    ]);
  }
  try {
    const again = await running(home);
    if (again !== undefined) return again;
    const lock = await tryLock(home.lock);
    if (lock === undefined) {
      // A pad server holds its lock but does not answer yet: one started
      // by hand a moment ago.
      return await waitForAddress(home, undefined);
    }
    // No pad server of these pads runs: what its address says is stale.
    // It stays until one writes its own, so that agents watching a killed
    // one go on starting it again after a failed start (the address gone
    // means stopped on purpose, see _embedded_start.ts).
    lock.close();
    const asked = reachable(listen.hostname, listen.port);
    if (listen.port !== 0 && await answersAsPadServer(asked)) {
      return {
        url: asked,
        secret: undefined,
        address: undefined,
        started: false,
      };
    }
    return await spawn(home, args, env);
  } finally {
    start.close();
  }
}

/** `pad-server` with `args` as a process of its own, then its address. */
async function spawn(
  home: PadHome,
  args: readonly string[],
  env: Record<string, string>,
): Promise<Joined> {
  const logged = await Deno.stat(home.log).then((s) => s.size, () => 0);
  const [command, ...head] = padServerCommand();
  const child = new Deno.Command(command!, {
    args: [...head, ...args, "--log-file", home.log],
    env,
    stdin: "null",
    stdout: "null",
    stderr: "null",
    // Its own process group: a Ctrl-C meant for the agent leaves it be.
    detached: true,
  }).spawn();
  child.unref();
  let exited: Deno.CommandStatus | undefined;
  child.status.then((status) => exited = status);
  try {
    return {
      ...await waitForAddress(home, child.pid, () => exited),
      started: true,
    };
  } catch (error) {
    if (!(error instanceof StartFailure)) throw error;
    // One started by hand took the lock first: join that one.
    if (exited?.code === RUNNING_EXIT_CODE) {
      return await waitForAddress(home, undefined);
    }
    const lines = await logLines(home.log, logged);
    if (exited === undefined) {
      try {
        child.kill("SIGTERM");
      } catch {
        // Gone meanwhile.
      }
    }
    throw new StartFailure(
      exited?.code ?? error.code,
      lines.length > 0 ? lines : error.lines,
    );
  }
}

/**
 * The pad server of `home` once its address (of process `pid`, if given)
 * answers.
 */
async function waitForAddress(
  home: PadHome,
  pid: number | undefined,
  exited: () => Deno.CommandStatus | undefined = () => undefined,
): Promise<Joined> {
  const until = performance.now() + START_TIMEOUT_MS;
  while (performance.now() < until) {
    const address = await readAddress(home.address);
    if (address !== undefined && (pid === undefined || address.pid === pid)) {
      const joined = await running(home);
      if (joined !== undefined) return joined;
    }
    const status = exited();
    if (status !== undefined) throw new StartFailure(status.code, []);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new StartFailure(1, [
    `Cannot join the pad server as it did not write its address to ${home.address} within ${START_TIMEOUT_MS} ms: see ${home.log}`,
  ]);
}

/** What the pad server wrote to `path` from byte `from` on, sans times. */
async function logLines(path: string, from: number): Promise<string[]> {
  try {
    const bytes = await Deno.readFile(path);
    return new TextDecoder().decode(bytes.subarray(from)).split("\n")
      .filter((line) => line !== "")
      .map((line) => line.replace(/^\S+ /, ""));
  } catch {
    return [];
  }
}

/**
 * The command that runs `pad-server`: this binary, when compiled; the
 * package's built entry (bundle/mod.js, see scripts/build.ts) with its
 * `pad-server`, when this module is one of its chunks; else Deno on
 * pad_server_main.ts, which loads the pad server without the MCP server.
 */
export function padServerCommand(): string[] {
  const main = new URL("./pad_server_main.ts", import.meta.url);
  // deno compile's binaries run their modules from a folder of this name.
  if (/[\\/]deno-compile-/.test(decodeURIComponent(main.pathname))) {
    return [Deno.execPath(), "pad-server"];
  }
  // The built entry's chunks lie beside it, and none is a .ts file.
  if (import.meta.url.endsWith(".js")) {
    const entry = new URL("./mod.js", import.meta.url);
    return [Deno.execPath(), "run", "-A", entry.href, "pad-server"];
  }
  return [Deno.execPath(), "run", "-A", main.href];
}
