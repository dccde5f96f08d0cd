// The HTTP server's own accept loop. Deno.serve (2.9) never closes a
// connection that stops halfway through its head, and its listener ends the
// server on the first accept error, such as EMFILE at the file limit;
// node:http honours headersTimeout and the like, but its accept loop stops
// for good after EMFILE. So the server accepts TCP itself (Deno.listen,
// whose accept fails and then works again), counts connections (closing
// those past the cap at once), survives accept errors with a backoff, and
// serves each connection with deadlines (_connection.ts).

import { ByteBudget } from "./_budget.ts";
import { type ConnectionOptions, Http1Connection } from "./_connection.ts";

/** Bounds and hooks of {@linkcode HttpListener}. */
export interface HttpListenerOptions extends
  Omit<
    ConnectionOptions,
    "budget" | "fallbackHost" | "refusals" | "onDrop" | "requestTimeoutVariable"
  > {
  /** The variable that sets `requestTimeoutMs`, named in refusals. */
  readonly requestTimeoutVariable?: string;
  readonly hostname: string;
  readonly port: number;
  /** The most open connections; more are closed as soon as accepted. */
  readonly maxConnections: number;
  /** The most request-body bytes read at once, over all connections. */
  readonly maxBodyBytesInFlight: number;
  readonly log: (line: string) => void;
  /** The variable that sets `maxConnections`, named in log lines. */
  readonly maxConnectionsVariable?: string;
  /**
   * At the cap, close the connection idle longest (no request in flight)
   * to serve the new one, rather than close the new one: a flood of idle
   * connections then cannot lock out a client that sends its request.
   */
  readonly shedIdle?: boolean;
}

/** How often a repeated accept error or refusal is logged, at most. */
const LOG_EVERY_MS = 10_000;
const MIN_BACKOFF_MS = 50;
const MAX_BACKOFF_MS = 1000;

/**
 * The soft limit on open files (`ulimit -n`), read from /proc on Linux;
 * undefined where it cannot be read or is unlimited.
 */
export function openFileLimit(): number | undefined {
  const path = "/proc/self/limits";
  try {
    // Never prompt for it: without read permission, just do without.
    if (
      Deno.permissions.querySync({ name: "read", path }).state !== "granted"
    ) {
      return undefined;
    }
    const limits = Deno.readTextFileSync(path);
    const match = /^Max open files\s+(\d+)/m.exec(limits);
    return match?.[1] === undefined ? undefined : Number(match[1]);
  } catch {
    return undefined;
  }
}

/** A line logged at most once per LOG_EVERY_MS, counting the rest. */
class QuietLog {
  readonly #log: (line: string) => void;
  #last = -Infinity;
  #since = 0;

  constructor(log: (line: string) => void) {
    this.#log = log;
  }

  note(line: () => string): void {
    this.#since++;
    const now = performance.now();
    if (now - this.#last < LOG_EVERY_MS) return;
    const more = this.#since > 1
      ? ` (${this.#since} times since the last such line)`
      : "";
    this.#last = now;
    this.#since = 0;
    this.#log(`${line()}${more}`);
  }
}

/** A TCP listener serving HTTP/1.1 connections within bounds. */
export class HttpListener {
  /** The bound address. */
  readonly addr: Deno.NetAddr;
  /** The cap in force: the configured one, or lower at a low file limit. */
  readonly maxConnections: number;
  readonly #listener: Deno.TcpListener;
  readonly #variable: string;
  readonly #options: ConnectionOptions;
  readonly #connections = new Set<Http1Connection>();
  readonly #acceptErrors: QuietLog;
  readonly #refusals: QuietLog;
  readonly #drops: QuietLog;
  #accepting: Promise<void> | undefined;
  #stopped = false;
  #wake: (() => void) | undefined;

  /**
   * Bind; {@linkcode start} begins accepting.
   *
   * @throws What `Deno.listen` throws: the host does not resolve, the
   * address is in use or not this machine's.
   */
  constructor(options: HttpListenerOptions) {
    this.#listener = Deno.listen({
      hostname: options.hostname,
      port: options.port,
      transport: "tcp",
    });
    this.addr = this.#listener.addr;
    this.#variable = options.maxConnectionsVariable ??
      "RUSTPAD_MCP_MAX_CONNECTIONS";
    const limit = openFileLimit();
    // Leave a quarter of the descriptors for pad sockets, upstream HTTP
    // and the runtime, so a flood of connections cannot starve them.
    const fit = limit === undefined
      ? Infinity
      : Math.max(1, Math.floor(limit * 3 / 4));
    this.maxConnections = Math.min(options.maxConnections, fit);
    if (this.maxConnections < options.maxConnections) {
      options.log(
        `rustpad-mcp: serving at most ${this.maxConnections} connections, not ${this.#variable}=${options.maxConnections}, as the process may open only ${limit} files: raise ulimit -n to allow more`,
      );
    }
    const host = this.addr.hostname.includes(":")
      ? `[${this.addr.hostname}]`
      : this.addr.hostname;
    this.#options = {
      ...options,
      budget: new ByteBudget(options.maxBodyBytesInFlight),
      refusals: new Map(),
      onDrop: (why) =>
        this.#drops.note(() => `rustpad-mcp: Closed a connection as ${why}`),
      fallbackHost: `${host}:${this.addr.port}`,
      requestTimeoutVariable: options.requestTimeoutVariable ??
        "RUSTPAD_MCP_REQUEST_TIMEOUT_MS",
    };
    this.#acceptErrors = new QuietLog(options.log);
    this.#refusals = new QuietLog(options.log);
    this.#drops = new QuietLog(options.log);
  }

  /** Begin accepting connections. */
  start(): void {
    if (!this.#stopped) this.#accepting ??= this.#acceptLoop();
  }

  /** Connections open now. */
  get connectionCount(): number {
    return this.#connections.size;
  }

  async #acceptLoop(): Promise<void> {
    let backoff = MIN_BACKOFF_MS;
    while (!this.#stopped) {
      let conn: Deno.TcpConn;
      try {
        conn = await this.#listener.accept();
      } catch (error) {
        if (this.#stopped) return;
        // EMFILE and the like: the connection waits in the kernel's queue
        // until a descriptor is free. Never give up listening.
        this.#acceptErrors.note(() =>
          `rustpad-mcp: Cannot accept a connection as ${
            (error as Error).message
          }: retrying (${this.#connections.size} connections open)`
        );
        await this.#sleep(backoff);
        backoff = Math.min(backoff * 2, MAX_BACKOFF_MS);
        continue;
      }
      backoff = MIN_BACKOFF_MS;
      if (
        this.#connections.size >= this.maxConnections && !this.#shedIdle()
      ) {
        try {
          conn.close();
        } catch {
          // Already gone.
        }
        this.#refusals.note(() =>
          `rustpad-mcp: Cannot serve a new connection as ${this.maxConnections} are open (${this.#variable}): closed it`
        );
        continue;
      }
      try {
        conn.setNoDelay(true);
      } catch {
        // Not fatal: only latency.
      }
      const connection = new Http1Connection(conn, this.#options);
      this.#connections.add(connection);
      void connection.done.then(() => this.#connections.delete(connection));
    }
  }

  /** Close the oldest idle connection if shedding; whether one was. */
  #shedIdle(): boolean {
    if (!this.#options.shedIdle) return false;
    for (const connection of this.#connections) {
      if (!connection.idle) continue;
      connection.close();
      // Counted out now: its `done` settles later.
      this.#connections.delete(connection);
      this.#refusals.note(() =>
        `rustpad-mcp: Closed the connection idle longest as ${this.maxConnections} are open (${this.#variable}): serving a new one`
      );
      return true;
    }
    return false;
  }

  async #sleep(ms: number): Promise<void> {
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      this.#wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });
    this.#wake = undefined;
  }

  /**
   * Stop accepting, close idle connections, let responses in progress end
   * for up to `graceMs`, then close the rest. Resolves once all are closed.
   */
  async close(graceMs: number): Promise<void> {
    if (!this.#stopped) {
      this.#stopped = true;
      try {
        this.#listener.close();
      } catch {
        // Already closed.
      }
      this.#wake?.();
    }
    await this.#accepting;
    const open = [...this.#connections];
    for (const connection of open) connection.drain();
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([
      Promise.all(open.map((connection) => connection.done)),
      new Promise<void>((resolve) => timer = setTimeout(resolve, graceMs)),
    ]);
    clearTimeout(timer);
    for (const connection of open) connection.close();
    await Promise.all(open.map((connection) => connection.done));
  }
}

/** `Deno.listen`'s failure as the error to report, naming the address. */
export function listenError(
  error: unknown,
  hostname: string,
  port: number,
): unknown {
  const message = error instanceof Error ? error.message : String(error);
  if (
    /failed to lookup address|not known|no address associated/i.test(message)
  ) {
    return new RangeError(
      `Cannot listen on ${hostname}:${port} as the host name does not resolve: use an address such as 127.0.0.1 or 0.0.0.0, or a name this machine resolves`,
    );
  }
  if (error instanceof Deno.errors.AddrNotAvailable) {
    return new RangeError(
      `Cannot listen on ${hostname}:${port} as it is not an address of this machine: use 127.0.0.1, 0.0.0.0 or one of its own addresses`,
    );
  }
  return error;
}
