// What the shared pad server tests ask of a scratch home: its pad server's
// files and pid, a pad's text over HTTP, and a patient wait.

import { waitFor } from "../_wait.ts";
import type { ScratchHome } from "./_run.ts";

/** Wait until `condition` holds, for up to `ms` (a process starts slowly). */
export function until(
  condition: () => boolean | Promise<boolean>,
  what: string,
  ms = 15_000,
): Promise<void> {
  return waitFor(condition, what, ms);
}

/** The default pad server's files in `home`. */
export function files(home: ScratchHome) {
  const stem = home.padsFile.replace(/\.sqlite$/, "");
  return {
    address: `${stem}.server.json`,
    lock: `${stem}.server.lock`,
    log: `${stem}.server.log`,
  };
}

/** The pid in the pad server's address file. */
export async function serverPid(home: ScratchHome): Promise<number> {
  return JSON.parse(await Deno.readTextFile(files(home).address)).pid;
}

/** The text of pad `pad` on the pad server at `url`. */
export async function text(url: string, pad: string): Promise<string> {
  return await (await fetch(`${url}api/text/${pad}`)).text();
}
