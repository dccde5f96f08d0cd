// Where a pad server process of its own keeps what others find it by, beside
// its pads file (or, for pads in memory, in the data directory):
//
//   <stem>.server.lock   held (flock) by the running pad server for its life;
//                        the system lets go of it when the process dies, so a
//                        killed server's lock is free to take
//   <stem>.start.lock    held by a process while it starts one, so two
//                        racing to start it end with one
//   <stem>.server.json   its address: {"url","pid","pads","idleSeconds",
//                        "startTime"}
//   <stem>.server.log    what it says (it has no terminal)
//   agent.secret         the secret agents present (see agent_secret.ts)
//
// The stem is the pads file's name without its extension ("pads" for
// pads.sqlite), or "memory" for pads in memory only.

/** A pad server's files. */
export interface PadHome {
  readonly folder: string;
  readonly lock: string;
  readonly startLock: string;
  readonly address: string;
  readonly log: string;
}

/** What `<stem>.server.json` holds. */
export interface ServerAddress {
  /** The base URL, ending in `/`. */
  readonly url: string;
  readonly pid: number;
  /** The pads file, or `null` for pads in memory. */
  readonly pads: string | null;
  readonly idleSeconds: number;
  /**
   * Its `/api/stats` `start_time`: a pad server answering on the URL with
   * another is not this one (the agent secret is shown to this one only).
   */
  readonly startTime: number;
}

/**
 * The files of the pad server of `padsFile` (or of pads in memory, in
 * `dataFolder`); `undefined` when pads are in memory and there is no data
 * directory.
 */
export function padHome(
  padsFile: string | undefined,
  dataFolder: string | undefined,
): PadHome | undefined {
  let folder: string;
  let stem: string;
  if (padsFile !== undefined) {
    const cut = Math.max(padsFile.lastIndexOf("/"), padsFile.lastIndexOf("\\"));
    folder = cut < 0 ? "." : cut === 0 ? "/" : padsFile.slice(0, cut);
    const name = padsFile.slice(cut + 1);
    stem = name.replace(/\.[^.]*$/, "") || name;
  } else if (dataFolder !== undefined) {
    folder = dataFolder;
    stem = "memory";
  } else {
    return undefined;
  }
  const at = (suffix: string) => `${folder}/${stem}.${suffix}`;
  return {
    folder,
    lock: at("server.lock"),
    startLock: at("start.lock"),
    address: at("server.json"),
    log: at("server.log"),
  };
}

/** The address in `path`, or `undefined` if none or unreadable. */
export async function readAddress(
  path: string,
): Promise<ServerAddress | undefined> {
  try {
    const value = JSON.parse(await Deno.readTextFile(path));
    if (
      typeof value?.url === "string" && Number.isSafeInteger(value.pid) &&
      (typeof value.pads === "string" || value.pads === null) &&
      Number.isSafeInteger(value.idleSeconds) &&
      Number.isSafeInteger(value.startTime)
    ) return value as ServerAddress;
  } catch {
    // Missing, or half written by a server killed as it wrote it.
  }
  return undefined;
}

/** Write `address` to `path` whole: aside, then renamed into place. */
export async function writeAddress(
  path: string,
  address: ServerAddress,
): Promise<void> {
  const aside = `${path}.${Deno.pid}.tmp`;
  await Deno.writeTextFile(aside, `${JSON.stringify(address)}\n`);
  await Deno.rename(aside, path);
}

/**
 * An exclusive lock on `path` (made if missing), or `undefined` when
 * another process holds it. Closing the file lets go of it, as the
 * process's end does.
 */
export async function tryLock(path: string): Promise<Deno.FsFile | undefined> {
  const file = await Deno.open(path, { read: true, write: true, create: true });
  if (await file.tryLock(true)) return file;
  file.close();
  return undefined;
}

/**
 * The lock on `path`, waited for up to `timeoutMs` (another process may
 * hold it while it starts a pad server).
 */
export async function waitLock(
  path: string,
  timeoutMs: number,
): Promise<Deno.FsFile | undefined> {
  const until = performance.now() + timeoutMs;
  for (;;) {
    const file = await tryLock(path);
    if (file !== undefined || performance.now() > until) return file;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
