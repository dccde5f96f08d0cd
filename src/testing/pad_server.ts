/**
 * A Rustpad-compatible pad server in memory, for tests: it answers the HTTP
 * routes and speaks the WebSocket protocol of the real Rustpad server frame
 * for frame, and it can inject faults (slow frames, dropped edits, a
 * connection closed mid-history, malformed frames).
 *
 * Run it on its own with
 * `deno run -A src/testing/pad_server.ts [--port N] [--hostname H]`: it
 * prints its URL on one line and serves until SIGINT or SIGTERM.
 *
 * @module
 */

import { parseArgs } from "node:util";
import { checkPadId } from "../pad_id.ts";
import {
  encodeMessage,
  parseClientMessage,
  type ServerMessage,
} from "../protocol.ts";
import { Outbox } from "./_outbox.ts";
import { Pad } from "./_pad.ts";
import { PadDatabase } from "./pad_database.ts";

export { PadDatabase, type PersistedPad } from "./pad_database.ts";

/** How to start a {@linkcode PadServer}. */
export interface PadServerOptions {
  /**
   * The address to listen on.
   *
   * @default {"127.0.0.1"}
   */
  hostname?: string;
  /**
   * The port to listen on; `0` picks a free one.
   *
   * @default {0}
   */
  port?: number;
  /**
   * Pads in the database when the server starts, by pad id (a missing
   * language is `null`). As on the real server they are not in memory
   * until a socket opens them: `num_documents` counts them only then,
   * `database_size` at once. Written into `database` if one is given, else
   * into a new {@linkcode PadDatabase}.
   */
  pads?: Record<string, { text: string; language?: string | null }>;
  /**
   * The persistence stand-in: pads not in memory are read from it, and
   * changed pads are snapshotted into it. Without it (and without `pads`)
   * nothing is persisted and `database_size` is 0.
   */
  database?: PadDatabase;
  /**
   * How often to snapshot pads whose revision changed into the database, in
   * milliseconds; `0` snapshots only when {@linkcode PadServer.snapshot} is
   * called. The real server waits 3 to 4 seconds.
   *
   * @default {3000}
   */
  snapshotIntervalMs?: number;
  /**
   * The `start_time` reported by `/api/stats`, in seconds since the Unix
   * epoch.
   *
   * @default {Math.floor(Date.now() / 1000)}
   */
  startTime?: number;
}

/** Which edit {@linkcode PadServer.dropNextEdit} drops, and when. */
export interface DropNextEditOptions {
  /** Only an edit on this pad; any pad if absent. */
  pad?: string;
  /**
   * `"before-apply"`: the edit is not applied. `"after-apply"`: it is
   * applied and sent to the other connections, but its sender is gone
   * before its acknowledgement.
   */
  when: "before-apply" | "after-apply";
}

/** Which connection {@linkcode PadServer.closeNextConnectMidHistory} cuts. */
export interface CloseNextConnectOptions {
  /** Only a connection to this pad; any pad if absent. */
  pad?: string;
}

/** A pad in memory and the connections open on it. */
interface PadEntry {
  readonly id: string;
  readonly pad: Pad;
  readonly connections: Set<Connection>;
  /** The revision last written to the database (0: never). */
  persistedRevision: number;
}

/** One open socket that has received its initial burst. */
interface Connection {
  readonly userId: number;
  readonly socket: WebSocket;
  readonly outbox: Outbox;
  readonly entry: PadEntry;
  /** False once hung up or closed: it takes no more messages. */
  live: boolean;
}

const TEXT_PLAIN = "text/plain; charset=utf-8";
const PAD_ROUTE = /^\/api\/(text|socket)\/([^/]+)$/;

/**
 * A running pad server; start one with {@linkcode startPadServer}.
 *
 * @example Edit a pad over a socket and read it over HTTP
 * ```ts
 * import { startPadServer } from "@rustpad-mcp/server/testing";
 * import assert from "node:assert/strict";
 *
 * const server = await startPadServer();
 * const socket = new WebSocket(`${server.url}/api/socket/notes`);
 * const frames: string[] = [];
 * socket.onmessage = (event) => {
 *   frames.push(event.data);
 *   if (frames.length === 1) {
 *     socket.send('{"Edit":{"revision":0,"operation":["hello"]}}');
 *   } else socket.close();
 * };
 * await new Promise((resolve) => socket.onclose = resolve);
 * assert.deepEqual(frames, [
 *   '{"Identity":0}',
 *   '{"History":{"start":0,"operations":[{"id":0,"operation":["hello"]}]}}',
 * ]);
 * const response = await fetch(`${server.url}/api/text/notes`);
 * assert.equal(await response.text(), "hello");
 * await server.close();
 * ```
 */
export class PadServer implements AsyncDisposable {
  /** The base URL, such as `"http://127.0.0.1:40123"` (no trailing slash). */
  readonly url: string;
  /** The port listened on. */
  readonly port: number;
  /** The persistence stand-in, or `null` when nothing is persisted. */
  readonly database: PadDatabase | null;

  readonly #http: Deno.HttpServer<Deno.NetAddr>;
  readonly #startTime: number;
  readonly #pads = new Map<string, PadEntry>();
  /** Every server socket not yet closed, as a promise of its `close`. */
  readonly #sockets = new Map<WebSocket, Promise<void>>();
  readonly #snapshotTimer: ReturnType<typeof setInterval> | undefined;
  #frameDelayMs = 0;
  readonly #editDrops: DropNextEditOptions[] = [];
  readonly #connectCuts: CloseNextConnectOptions[] = [];
  #closing: Promise<void> | undefined;

  /**
   * Start listening at once. {@linkcode startPadServer} does the same.
   *
   * @param options Where to listen, what is persisted.
   * @throws {RangeError} If `snapshotIntervalMs` is negative or not finite.
   * @throws {TypeError} If a pad id in `pads` is not a valid pad id.
   * @throws {Deno.errors.AddrInUse} If the port is taken.
   */
  constructor(options: PadServerOptions = {}) {
    const interval = options.snapshotIntervalMs ?? 3000;
    if (!Number.isFinite(interval) || interval < 0) {
      throw new RangeError(
        `Cannot snapshot pads as the interval is not a non-negative number of milliseconds: current value is ${interval}`,
      );
    }
    let database = options.database ?? null;
    if (options.pads !== undefined) {
      database ??= new PadDatabase();
      for (const [padId, pad] of Object.entries(options.pads)) {
        database.set(padId, { text: pad.text, language: pad.language ?? null });
      }
    }
    this.database = database;
    this.#startTime = options.startTime ?? Math.floor(Date.now() / 1000);
    this.#http = Deno.serve({
      hostname: options.hostname ?? "127.0.0.1",
      port: options.port ?? 0,
      onListen() {},
    }, (request) => this.#route(request));
    const { hostname, port } = this.#http.addr;
    this.port = port;
    this.url = `http://${
      hostname.includes(":") ? `[${hostname}]` : hostname
    }:${port}`;
    if (database !== null && interval > 0) {
      this.#snapshotTimer = setInterval(() => this.snapshot(), interval);
    }
  }

  /**
   * The current text of a pad: from memory, else from the database, else
   * `""`, as `GET /api/text/{id}` answers.
   *
   * @param padId The pad id.
   * @returns The text.
   *
   * @example
   * ```ts
   * import { startPadServer } from "@rustpad-mcp/server/testing";
   * import assert from "node:assert/strict";
   *
   * const server = await startPadServer({ pads: { a: { text: "hi" } } });
   * assert.equal(server.text("a"), "hi");
   * assert.equal(server.text("never-opened"), "");
   * await server.close();
   * ```
   */
  text(padId: string): string {
    return this.#pads.get(padId)?.pad.text ?? this.database?.get(padId)?.text ??
      "";
  }

  /**
   * Persist now, as the real server does every few seconds: every pad in
   * memory whose revision grew since it was last persisted is written to
   * the database (text and language). As on the real server, a language
   * change alone does not count. Does nothing without a database.
   *
   * @example
   * ```ts
   * import { PadDatabase, startPadServer } from "@rustpad-mcp/server/testing";
   * import assert from "node:assert/strict";
   *
   * const database = new PadDatabase();
   * const server = await startPadServer({ database });
   * const socket = new WebSocket(`${server.url}/api/socket/a`);
   * socket.onmessage = (event) => {
   *   if (event.data === '{"Identity":0}') {
   *     socket.send('{"Edit":{"revision":0,"operation":["saved"]}}');
   *   } else socket.close();
   * };
   * await new Promise((resolve) => socket.onclose = resolve);
   * server.snapshot();
   * assert.deepEqual(database.get("a"), { text: "saved", language: null });
   * await server.close();
   * ```
   */
  snapshot(): void {
    if (this.database === null) return;
    for (const entry of this.#pads.values()) {
      const revision = entry.pad.revision;
      if (revision > entry.persistedRevision) {
        this.database.set(entry.id, entry.pad.toPersisted());
        entry.persistedRevision = revision;
      }
    }
  }

  /**
   * Hold back every frame the server writes from now on by `ms`
   * milliseconds, keeping their order (a hang-up waits its turn too).
   * `0` stops delaying new frames.
   *
   * @param ms The delay in milliseconds.
   * @throws {RangeError} If `ms` is negative or not finite.
   *
   * @example
   * ```ts
   * import { startPadServer } from "@rustpad-mcp/server/testing";
   * import assert from "node:assert/strict";
   *
   * const server = await startPadServer();
   * server.setFrameDelay(50);
   * const started = performance.now();
   * const socket = new WebSocket(`${server.url}/api/socket/a`);
   * await new Promise((resolve) => socket.onmessage = resolve);
   * assert.ok(performance.now() - started >= 45);
   * socket.close();
   * await new Promise((resolve) => socket.onclose = resolve);
   * await server.close();
   * ```
   */
  setFrameDelay(ms: number): void {
    if (!Number.isFinite(ms) || ms < 0) {
      throw new RangeError(
        `Cannot delay frames as the delay is not a non-negative number of milliseconds: current value is ${ms}`,
      );
    }
    this.#frameDelayMs = ms;
  }

  /**
   * Make the next `Edit` received (on `options.pad`, or any pad) close its
   * sender's socket with no message. With `"before-apply"` the edit is not
   * applied; with `"after-apply"` it is applied, appended to the history and
   * sent to the pad's other connections, and the sender's socket is closed
   * before it receives its acknowledgement. Either way the others then
   * receive `UserInfo` with `info: null` for the sender. Several calls queue
   * up, one edit each.
   *
   * @param options Which pad, and when to drop.
   *
   * @example
   * ```ts
   * import { startPadServer } from "@rustpad-mcp/server/testing";
   * import assert from "node:assert/strict";
   *
   * const server = await startPadServer();
   * server.dropNextEdit({ when: "after-apply" });
   * const socket = new WebSocket(`${server.url}/api/socket/a`);
   * socket.onmessage = () => socket.send('{"Edit":{"revision":0,"operation":["x"]}}');
   * await new Promise((resolve) => socket.onclose = resolve);
   * assert.equal(server.text("a"), "x");
   * await server.close();
   * ```
   */
  dropNextEdit(options: DropNextEditOptions): void {
    this.#editDrops.push({ ...options });
  }

  /**
   * Make the next connection (to `options.pad`, or any pad) receive its
   * `Identity` and then be closed where its `History` would come. The pad's
   * other connections receive `UserInfo` with `info: null` for it. Several
   * calls queue up, one connection each.
   *
   * @param options Which pad.
   *
   * @example
   * ```ts
   * import { startPadServer } from "@rustpad-mcp/server/testing";
   * import assert from "node:assert/strict";
   *
   * const server = await startPadServer({ pads: { a: { text: "hi" } } });
   * server.closeNextConnectMidHistory({ pad: "a" });
   * const socket = new WebSocket(`${server.url}/api/socket/a`);
   * const frames: string[] = [];
   * socket.onmessage = (event) => frames.push(event.data);
   * await new Promise((resolve) => socket.onclose = resolve);
   * assert.deepEqual(frames, ['{"Identity":0}']);
   * await server.close();
   * ```
   */
  closeNextConnectMidHistory(options: CloseNextConnectOptions = {}): void {
    this.#connectCuts.push({ ...options });
  }

  /**
   * Write `frame`, as it is, to every open connection of a pad: a way to
   * test a client against frames the real server never sends.
   *
   * @param padId The pad id; nothing is sent if no socket is open on it.
   * @param frame The text frame.
   *
   * @example
   * ```ts
   * import { startPadServer } from "@rustpad-mcp/server/testing";
   * import assert from "node:assert/strict";
   *
   * const server = await startPadServer();
   * const socket = new WebSocket(`${server.url}/api/socket/a`);
   * const frames: string[] = [];
   * socket.onmessage = (event) => {
   *   frames.push(event.data);
   *   if (frames.length === 1) server.sendRaw("a", "{oops");
   *   else socket.close();
   * };
   * await new Promise((resolve) => socket.onclose = resolve);
   * assert.deepEqual(frames, ['{"Identity":0}', "{oops"]);
   * await server.close();
   * ```
   */
  sendRaw(padId: string, frame: string): void {
    for (const connection of this.#pads.get(padId)?.connections ?? []) {
      connection.outbox.send(frame);
    }
  }

  /**
   * Stop everything: close every socket and wait for it, stop the snapshot
   * timer and delayed frames, and stop listening. Nothing is snapshotted on
   * the way out, as with the real server. Calling it again returns the same
   * promise.
   *
   * @returns A promise that resolves once nothing is left running.
   *
   * @example
   * ```ts
   * import { startPadServer } from "@rustpad-mcp/server/testing";
   *
   * const server = await startPadServer();
   * await server.close();
   * ```
   */
  close(): Promise<void> {
    this.#closing ??= this.#shutDown();
    return this.#closing;
  }

  /**
   * {@linkcode PadServer.close}, for `await using`.
   *
   * @returns A promise that resolves once nothing is left running.
   *
   * @example
   * ```ts
   * import { startPadServer } from "@rustpad-mcp/server/testing";
   * import assert from "node:assert/strict";
   *
   * {
   *   await using server = await startPadServer();
   *   assert.ok(server.port > 0);
   * } // closed here
   * ```
   */
  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }

  async #shutDown(): Promise<void> {
    clearInterval(this.#snapshotTimer);
    for (const { connections } of this.#pads.values()) {
      for (const connection of connections) {
        connection.live = false;
        connection.outbox.dispose();
      }
      connections.clear();
    }
    await this.#closeSockets();
    await this.#http.shutdown();
    await this.#closeSockets();
  }

  async #closeSockets(): Promise<void> {
    while (this.#sockets.size > 0) {
      for (const socket of this.#sockets.keys()) {
        // A socket still connecting is closed by its `open` listener.
        if (socket.readyState === WebSocket.OPEN) socket.close();
      }
      await Promise.all(this.#sockets.values());
    }
  }

  #route(request: Request): Response {
    const { pathname } = new URL(request.url);
    if (request.method === "GET") {
      if (pathname === "/api/stats") return this.#stats();
      const match = PAD_ROUTE.exec(pathname);
      const padId = match?.[2] === undefined ? undefined : decode(match[2]);
      if (padId !== undefined) {
        return match?.[1] === "text"
          ? reply(200, this.text(padId), TEXT_PLAIN)
          : this.#upgrade(request, padId);
      }
    }
    return reply(404, "Not found", TEXT_PLAIN);
  }

  #stats(): Response {
    const body = JSON.stringify({
      start_time: this.#startTime,
      num_documents: this.#pads.size,
      database_size: this.database?.size ?? 0,
    });
    return reply(200, body, "application/json");
  }

  #upgrade(request: Request, padId: string): Response {
    try {
      checkPadId(padId);
    } catch (error) {
      return reply(400, (error as Error).message, TEXT_PLAIN);
    }
    const upgradeHeader = request.headers.get("upgrade");
    if (upgradeHeader?.toLowerCase() !== "websocket") {
      return reply(
        400,
        `Cannot open a pad socket as the request is not a WebSocket upgrade: current upgrade header is ${
          JSON.stringify(upgradeHeader)
        }`,
        TEXT_PLAIN,
      );
    }
    if (this.#closing !== undefined) {
      return reply(
        503,
        "Cannot open a pad socket as the server is shutting down: current state is closing",
        TEXT_PLAIN,
      );
    }
    let upgrade: { socket: WebSocket; response: Response };
    try {
      upgrade = Deno.upgradeWebSocket(request);
    } catch (error) {
      return reply(400, (error as Error).message, TEXT_PLAIN);
    }
    // As on the real server, the pad exists from the upgrade request on.
    this.#watch(upgrade.socket, this.#openPad(padId));
    return upgrade.response;
  }

  #openPad(padId: string): PadEntry {
    let entry = this.#pads.get(padId);
    if (entry === undefined) {
      entry = {
        id: padId,
        pad: new Pad(this.database?.get(padId)),
        connections: new Set(),
        persistedRevision: 0,
      };
      this.#pads.set(padId, entry);
    }
    return entry;
  }

  #watch(socket: WebSocket, entry: PadEntry): void {
    let connection: Connection | undefined;
    const { promise, resolve } = Promise.withResolvers<void>();
    this.#sockets.set(socket, promise);
    socket.addEventListener("open", () => {
      if (this.#closing !== undefined) socket.close();
      else connection = this.#connect(socket, entry);
    });
    socket.addEventListener("message", (event) => {
      if (connection !== undefined) this.#receive(connection, event.data);
    });
    socket.addEventListener("close", () => {
      if (connection !== undefined) this.#disconnect(connection);
      this.#sockets.delete(socket);
      resolve();
    });
  }

  /** Greet a new connection: `Identity`, then the initial burst. */
  #connect(socket: WebSocket, entry: PadEntry): Connection {
    const connection: Connection = {
      userId: entry.pad.join(),
      socket,
      outbox: new Outbox(socket, () => this.#frameDelayMs),
      entry,
      live: true,
    };
    send(connection, { Identity: connection.userId });
    if (takeFault(this.#connectCuts, entry.id) !== undefined) {
      this.#hangUp(connection);
      return connection;
    }
    for (const message of entry.pad.welcome()) send(connection, message);
    // Only now does it hear broadcasts and read the client's messages.
    entry.connections.add(connection);
    return connection;
  }

  #receive(connection: Connection, data: unknown): void {
    if (!connection.live || typeof data !== "string") return;
    const { entry } = connection;
    let message;
    try {
      message = parseClientMessage(data);
    } catch {
      return this.#hangUp(connection);
    }
    const drop = "Edit" in message
      ? takeFault(this.#editDrops, entry.id)?.when
      : undefined;
    if (drop === "before-apply") return this.#hangUp(connection);
    let answer: ServerMessage;
    try {
      answer = entry.pad.receive(connection.userId, message);
    } catch (error) {
      if (error instanceof RangeError) return this.#hangUp(connection);
      throw error;
    }
    if (drop === "after-apply") {
      entry.connections.delete(connection);
      broadcast(entry, answer);
      return this.#hangUp(connection);
    }
    broadcast(entry, answer);
  }

  /** Close a connection with no message, as the real server hangs up. */
  #hangUp(connection: Connection): void {
    if (!connection.live) return;
    connection.live = false;
    connection.entry.connections.delete(connection);
    connection.outbox.close();
    broadcast(connection.entry, connection.entry.pad.leave(connection.userId));
  }

  #disconnect(connection: Connection): void {
    connection.outbox.dispose();
    if (!connection.live) return;
    connection.live = false;
    connection.entry.connections.delete(connection);
    broadcast(connection.entry, connection.entry.pad.leave(connection.userId));
  }
}

/**
 * Start a Rustpad-compatible pad server in memory.
 *
 * @param options Where to listen, what is persisted; by default
 * `127.0.0.1` on a free port, without persistence.
 * @returns The running server; {@linkcode PadServer.close} it when done.
 * @throws {RangeError} If `snapshotIntervalMs` is negative or not finite.
 * @throws {TypeError} If a pad id in `pads` is not a valid pad id.
 *
 * @example A pad restored from the database
 * ```ts
 * import { startPadServer } from "@rustpad-mcp/server/testing";
 * import assert from "node:assert/strict";
 *
 * const server = await startPadServer({ pads: { a: { text: "hi" } } });
 * const stats = await fetch(`${server.url}/api/stats`);
 * assert.deepEqual((await stats.json()).database_size, 1);
 * await server.close();
 * ```
 */
export function startPadServer(
  options: PadServerOptions = {},
): Promise<PadServer> {
  try {
    return Promise.resolve(new PadServer(options));
  } catch (error) {
    return Promise.reject(error);
  }
}

function send(connection: Connection, message: ServerMessage): void {
  connection.outbox.send(encodeMessage(message));
}

function broadcast(entry: PadEntry, message: ServerMessage): void {
  const frame = encodeMessage(message);
  for (const connection of entry.connections) connection.outbox.send(frame);
}

/** Remove and return the first fault that applies to `padId`. */
function takeFault<T extends { pad?: string }>(
  faults: T[],
  padId: string,
): T | undefined {
  const index = faults.findIndex((fault) =>
    fault.pad === undefined || fault.pad === padId
  );
  return index === -1 ? undefined : faults.splice(index, 1)[0];
}

function decode(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

function reply(status: number, body: string, contentType: string): Response {
  return new Response(body, {
    status,
    headers: { "content-type": contentType },
  });
}

const USAGE =
  `Usage: deno run -A src/testing/pad_server.ts [--port N] [--hostname H]

Serve a Rustpad-compatible pad server in memory, without persistence. Prints
its URL on one line, then serves until SIGINT or SIGTERM.

Options:
  --port N        port to listen on; 0 picks a free one (default: 0)
  --hostname H    address to listen on (default: 127.0.0.1)
  -h, --help      print this help`;

/** The command line: returns the exit code. */
async function main(args: string[]): Promise<number> {
  let values: { port?: string; hostname?: string; help?: boolean };
  try {
    ({ values } = parseArgs({
      args,
      options: {
        port: { type: "string", short: "p" },
        hostname: { type: "string" },
        help: { type: "boolean", short: "h" },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    console.error(`error: ${(error as Error).message}\n\n${USAGE}`);
    return 2;
  }
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  const port = Number(values.port ?? "0");
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    console.error(
      `error: Cannot listen as the port is not an integer from 0 to 65535: current value is ${
        JSON.stringify(values.port)
      }`,
    );
    return 2;
  }
  const server = await startPadServer({
    port,
    ...(values.hostname === undefined ? {} : { hostname: values.hostname }),
  });
  console.log(server.url);
  const signals: Deno.Signal[] = Deno.build.os === "windows"
    ? ["SIGINT", "SIGBREAK"]
    : ["SIGINT", "SIGTERM"];
  const { promise, resolve } = Promise.withResolvers<void>();
  const stop = () => resolve();
  for (const signal of signals) Deno.addSignalListener(signal, stop);
  await promise;
  for (const signal of signals) Deno.removeSignalListener(signal, stop);
  await server.close();
  return 0;
}

if (import.meta.main) Deno.exitCode = await main(Deno.args);
