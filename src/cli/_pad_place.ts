// Where the embedded pad server runs. An MCP client starts a process per
// session, so the port is kept from one process to the next (the editor
// URLs the tools answered with keep working): the port asked for when it is
// free; the pad server already listening there when there is one (another
// session's rustpad-mcp --embedded, or Rustpad), taking its place if it
// stops; else the next free port after it.

import { RustpadHttpClient } from "../rustpad/mod.ts";
import {
  type PadServer,
  type PadServerOptions,
  startPadServer,
} from "../pad_server/mod.ts";

/** Ports tried after the one asked for while something else holds it. */
const NEXT_PORTS = 9;
/** How long a listener on the port has to answer as a pad server. */
const PROBE_TIMEOUT_MS = 2000;
/** How often a process using another's pad server checks that it runs. */
const TAKEOVER_INTERVAL_MS = 1000;

/** Where a pad server should listen. */
export interface Address {
  readonly hostname: string;
  readonly port: number;
}

/** A pad server's options and how to let go of what they opened. */
export interface Serving {
  readonly options: PadServerOptions;
  /** Close what `options` opened (the store), once the server is done. */
  release(): void;
}

/** The URL this process's tools reach a pad server at, ending in `/`. */
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

/** Whether a listener at `url` answers `GET api/stats` as Rustpad does. */
async function answersAsPadServer(url: URL): Promise<boolean> {
  try {
    await new RustpadHttpClient(url, { timeoutMs: PROBE_TIMEOUT_MS })
      .getStats();
    return true;
  } catch {
    return false;
  }
}

/** A pad server this process serves, and how to let go of its store. */
interface Served {
  readonly server: PadServer;
  readonly release: () => void;
}

/** A pad server on `port`, or `undefined` when the port is taken. */
async function serveOn(
  hostname: string,
  port: number,
  serving: () => Serving,
): Promise<Served | undefined> {
  // A bare bind first: the pads file (held exclusively once open) opens
  // only once the port is free.
  if (port !== 0 && !portIsFree(hostname, port)) return undefined;
  const { options, release } = serving();
  try {
    return {
      server: await startPadServer({ ...options, hostname, port }),
      release,
    };
  } catch (error) {
    release();
    if (error instanceof Deno.errors.AddrInUse) return undefined;
    throw error;
  }
}

/**
 * The pad server this process serves, or the one it uses at `url` while
 * another process serves it; it takes over when that one stops.
 */
export class PadPlace implements AsyncDisposable {
  /** The base URL the tools use; the same whoever serves it. */
  readonly url: URL;
  #served: Served | undefined;
  #timer: ReturnType<typeof setInterval> | undefined;
  readonly #serving: () => Serving;

  private constructor(
    url: URL,
    served: Served | undefined,
    serving: () => Serving,
  ) {
    this.url = url;
    this.#served = served;
    this.#serving = serving;
  }

  /**
   * Serve on `address`, or use the pad server there, or serve on the next
   * free port of the {@linkcode NEXT_PORTS} after it, else on any free
   * port. `onTakeover` is told when this process starts serving in place
   * of a pad server that stopped.
   */
  static async open(
    address: Address,
    serving: () => Serving,
    onTakeover: (place: PadPlace) => void,
  ): Promise<PadPlace> {
    const { hostname, port: asked } = address;
    const last = Math.min(65535, asked + NEXT_PORTS);
    const ports = asked === 0 ? [0] : [
      ...Array.from({ length: last - asked + 1 }, (_, i) => asked + i),
      0,
    ];
    for (const port of ports) {
      const served = await serveOn(hostname, port, serving);
      if (served !== undefined) {
        const url = reachable(hostname, served.server.port);
        return new PadPlace(url, served, serving);
      }
      const url = reachable(hostname, port);
      if (await answersAsPadServer(url)) {
        const place = new PadPlace(url, undefined, serving);
        place.#watch(hostname, port, onTakeover);
        return place;
      }
    }
    throw new Deno.errors.AddrInUse(`every port from ${asked} to ${last}`);
  }

  /** The pad server this process serves, if it serves one. */
  get server(): PadServer | undefined {
    return this.#served?.server;
  }

  /** Serve on the port as soon as the pad server using it stops. */
  #watch(
    hostname: string,
    port: number,
    onTakeover: (place: PadPlace) => void,
  ): void {
    let trying = false;
    let failing = false;
    const timer = setInterval(async () => {
      if (trying) return;
      trying = true;
      try {
        // A bare bind first: the store opens only once the port is free.
        if (!portIsFree(hostname, port)) return;
        const served = await serveOn(hostname, port, this.#serving);
        if (served === undefined) return;
        clearInterval(timer);
        this.#served = served;
        onTakeover(this);
      } catch (error) {
        // Said once, not every second it goes on.
        if (failing) return;
        failing = true;
        console.error(
          `rustpad-mcp: Cannot serve the pads at ${this.url.href} in place of the pad server that stopped: ${
            (error as Error).message
          }; trying again in ${TAKEOVER_INTERVAL_MS} ms`,
        );
      } finally {
        trying = false;
      }
    }, TAKEOVER_INTERVAL_MS);
    Deno.unrefTimer(timer);
    this.#timer = timer;
  }

  /** Stop watching, write what changed, stop serving. */
  async [Symbol.asyncDispose](): Promise<void> {
    clearInterval(this.#timer);
    const served = this.#served;
    if (served === undefined) return;
    this.#served = undefined;
    // Unlike the real server, write what changed since the last snapshot:
    // a person's last words are not lost to Ctrl-C.
    served.server.snapshot();
    const { unstored } = await served.server.close();
    served.release();
    if (unstored.length === 0) return;
    // Loud: the process then exits non-zero, naming them.
    Deno.exitCode = 1;
    console.error(
      `rustpad-mcp: Cannot stop with every pad stored as the last write of ${unstored.length} failed: ${
        unstored.map((failure) => failure.padId).join(", ")
      } (${unstored.map((failure) => failure.reason).join("; ")})`,
    );
  }
}

function portIsFree(hostname: string, port: number): boolean {
  try {
    Deno.listen({ hostname, port }).close();
    return true;
  } catch (error) {
    if (error instanceof Deno.errors.AddrInUse) return false;
    throw error;
  }
}
