// Running mod.ts as the command line, for the tests of the command line.

import { freePort } from "../_free_port.ts";

/** `mod.ts`, as a path a child process can run. */
export const MOD: string = new URL("../../mod.ts", import.meta.url).pathname;

/** Run `mod.ts` with `args` and `env` and stdin closed; its exit and output. */
export async function runMod(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", MOD, ...args],
    env: { NO_COLOR: "1", ...env },
    stdin: "null",
  }).output();
  const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
  return {
    code: output.code,
    stdout: decode(output.stdout),
    stderr: decode(output.stderr),
  };
}

/**
 * A home of its own for an `--embedded` child, so it never reads or writes
 * the real user's data directory or port 3030: `env` sets HOME and
 * XDG_DATA_HOME to a temporary folder and RUSTPAD_EMBEDDED_LISTEN to a port
 * free a moment ago, which no other test is handed while a pad server
 * killed there is started again (see `freePort`), and keeps Deno's cache
 * where it was (it lives under HOME by default); `padsFile` is where the
 * default pads file lands.
 * Disposing it stops the pad servers started in it (they outlive the
 * agents that started them), then removes it.
 */
export interface ScratchHome extends AsyncDisposable {
  readonly dir: string;
  readonly port: number;
  readonly padsFile: string;
  readonly env: Record<string, string>;
  /**
   * SIGTERM every pad server running in it (found by their address files
   * and held locks) and wait until each has written its pads and exited;
   * their pids.
   */
  stopPadServers(): Promise<number[]>;
}

/** A {@linkcode ScratchHome}; removed on dispose. */
export async function scratchHome(): Promise<ScratchHome> {
  denoDir ??= await findDenoDir();
  const dir = await Deno.makeTempDir({ prefix: "rustpad-mcp-home-" });
  const port = freePort();
  return {
    dir,
    port,
    padsFile: `${dir}/data/rustpad-mcp/pads.sqlite`,
    env: {
      HOME: dir,
      XDG_DATA_HOME: `${dir}/data`,
      RUSTPAD_EMBEDDED_LISTEN: `127.0.0.1:${port}`,
      DENO_DIR: denoDir,
    },
    stopPadServers: () => stopPadServers(dir),
    async [Symbol.asyncDispose]() {
      await stopPadServers(dir);
      await Deno.remove(dir, { recursive: true });
    },
  };
}

/** The address files under `dir`, at any depth. */
async function addressFiles(dir: string): Promise<string[]> {
  const found: string[] = [];
  for await (const entry of Deno.readDir(dir)) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory) found.push(...await addressFiles(path));
    else if (entry.name.endsWith(".server.json")) found.push(path);
  }
  return found;
}

/** Whether a process holds the lock at `path`. */
export async function lockHeld(path: string): Promise<boolean> {
  using file = await Deno.open(path, { read: true, write: true }).catch(
    () => undefined,
  );
  if (file === undefined) return false;
  if (!await file.tryLock(true)) return true;
  await file.unlock();
  return false;
}

/** See {@linkcode ScratchHome.stopPadServers}. */
export async function stopPadServers(dir: string): Promise<number[]> {
  const stopped: number[] = [];
  for (const address of await addressFiles(dir)) {
    const lock = address.replace(/\.server\.json$/, ".server.lock");
    let pid: number;
    try {
      pid = JSON.parse(await Deno.readTextFile(address)).pid;
    } catch {
      continue;
    }
    // A killed server's address stays behind, and its pid may be another's.
    if (!await lockHeld(lock)) continue;
    Deno.kill(pid, "SIGTERM");
    stopped.push(pid);
    for (let i = 0; i < 1000 && await lockHeld(lock); i++) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }
  return stopped;
}

let denoDir: string | undefined;

async function findDenoDir(): Promise<string> {
  const set = Deno.env.get("DENO_DIR");
  if (set !== undefined) return set;
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json"],
    env: { NO_COLOR: "1" },
    stderr: "null",
  }).output();
  return JSON.parse(new TextDecoder().decode(output.stdout)).denoDir;
}
