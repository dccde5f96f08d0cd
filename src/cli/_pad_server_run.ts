// Two pieces of the pad server process: listening on the port asked for or
// near it, and where its lines go.

import type { ListenAddress } from "../config/listen.ts";
import {
  type PadServer,
  type PadServerOptions,
  startPadServer,
} from "../pad_server/mod.ts";

/** Ports tried after the one asked for while something else holds it. */
const NEXT_PORTS = 9;
/** A log file past this many bytes starts over. */
const MAX_LOG_BYTES = 1 << 20;

/**
 * A pad server on `listen`; with `fallback`, on the first free port of the
 * {@linkcode NEXT_PORTS} after it, else on any free port.
 *
 * @throws {Deno.errors.AddrInUse} If the port (and, with `fallback`,
 * every port tried) is taken.
 */
export async function listenNear(
  listen: ListenAddress,
  fallback: boolean,
  options: PadServerOptions,
): Promise<PadServer> {
  const { hostname, port: asked } = listen;
  const last = Math.min(65535, asked + NEXT_PORTS);
  const ports = asked === 0 || !fallback ? [asked] : [
    ...Array.from({ length: last - asked + 1 }, (_, i) => asked + i),
    0,
  ];
  let taken: unknown;
  for (const port of ports) {
    try {
      return await startPadServer({ ...options, hostname, port });
    } catch (error) {
      if (!(error instanceof Deno.errors.AddrInUse)) throw error;
      taken = error;
    }
  }
  throw taken;
}

/**
 * A `log` that appends each line to `path` (started over past
 * {@linkcode MAX_LOG_BYTES}), or writes it to stderr without a path. A
 * line that cannot be written is dropped: the server goes on without it.
 */
export function logTo(path: string | undefined): (line: string) => void {
  if (path === undefined) return (line) => console.error(line);
  const encoder = new TextEncoder();
  let file: Deno.FsFile | undefined;
  let size = 0;
  return (line) => {
    try {
      if (file === undefined || size > MAX_LOG_BYTES) {
        file?.close();
        file = Deno.openSync(path, {
          write: true,
          create: true,
          append: size === 0,
          truncate: size > 0,
          mode: 0o600,
        });
        size = file.statSync().size;
      }
      const bytes = encoder.encode(`${new Date().toISOString()} ${line}\n`);
      for (let at = 0; at < bytes.length;) {
        at += file.writeSync(bytes.subarray(at));
      }
      size += bytes.length;
    } catch {
      // Nowhere left to say it.
    }
  };
}
