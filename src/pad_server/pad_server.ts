/**
 * A Rustpad-compatible pad server in memory, for tests: it answers the HTTP
 * routes and speaks the WebSocket protocol of the real Rustpad server frame
 * for frame, drops a connection that falls more than 16 messages behind the
 * pad's metadata queue as the real one does, and can inject faults (see
 * {@linkcode FaultInjector}). Every other path answers its web editor (the
 * pad of the URL's `#id`, live, with the people in it), so a person can
 * watch and type beside an agent. Pads persist into a `PadDatabase` or a
 * `SqlitePadDatabase` when one is given, and leave memory after
 * `expiryDays` without a socket opening them, as on the real server.
 *
 * Run it on its own with
 * `deno run -A src/pad_server/pad_server.ts [--port N] [--hostname H]`: it
 * prints its URL on one line and serves until SIGINT or SIGTERM.
 *
 * @module
 */

import {
  type HttpListener,
  type ServerWebSocket,
  upgradeWebSocket,
} from "../http/mod.ts";
import { padListener } from "./_listen.ts";
import { main } from "./_cli.ts";
import {
  type AccessPolicy,
  accessPolicy,
  frameAncestors,
  refuseForeign,
} from "./_guard.ts";
import { refuseUpgrade, reply, routeOf, TEXT_PLAIN } from "./_http.ts";
import { attachState, noFaults } from "./_fault_queue.ts";
import type { Room } from "./_room.ts";
import { SocketHub } from "./_socket_hub.ts";
import { FaultInjector } from "./fault_injection.ts";
import { expireRooms, persistRooms } from "./_persister.ts";
import { PadDatabase, type PadStorage } from "./pad_database.ts";
import {
  bounds,
  type PadServerBounds,
  type PadServerOptions,
  timings,
} from "./pad_server_options.ts";
import { decideSuggestion, listSuggestions } from "./_suggestion_routes.ts";
import type { SuggestionDesk } from "./suggestion_desk.ts";

export {
  PadDatabase,
  type PadStorage,
  type PersistedPad,
} from "./pad_database.ts";
export type { PadServerOptions } from "./pad_server_options.ts";
export type {
  CloseNextConnectOptions,
  DelayOptions,
  DropNextEditOptions,
  StallNextEditOptions,
} from "./faults.ts";

/** How long closing waits for responses in flight. */
const CLOSE_GRACE_MS = 1000;

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
export class PadServer extends FaultInjector implements AsyncDisposable {
  /** The base URL, such as `"http://127.0.0.1:40123"` (no trailing slash). */
  readonly url: string;
  /** The port listened on. */
  readonly port: number;
  /** Where pads persist, or `null` when nothing is persisted. */
  readonly database: PadStorage | null;

  readonly #listener: HttpListener;
  readonly #policy: AccessPolicy;
  readonly #bounds: PadServerBounds;
  readonly #log: (line: string) => void;
  readonly #startTime: number;
  readonly #snapshotTimer: ReturnType<typeof setInterval> | undefined;
  readonly #cleanupTimer: ReturnType<typeof setInterval>;
  readonly #hub: SocketHub;
  readonly #rooms: Map<string, Room>;
  readonly #suggestions: SuggestionDesk | undefined;
  #closing: Promise<void> | undefined;

  /**
   * Start listening at once. {@linkcode startPadServer} does the same.
   *
   * @param options Where to listen, what is persisted.
   * @throws {RangeError} If `snapshotIntervalMs` is negative or not
   * finite, or `expiryDays` or `cleanupIntervalMs` not positive.
   * @throws {TypeError} If a pad id in `pads` is not a valid pad id.
   * @throws {Deno.errors.AddrInUse} If the port is taken.
   */
  constructor(options: PadServerOptions = {}) {
    super();
    const { interval, maxIdleMs, cleanupMs } = timings(options);
    let database = options.database ?? null;
    if (options.pads !== undefined) {
      database ??= new PadDatabase();
      for (const [padId, pad] of Object.entries(options.pads)) {
        database.set(padId, { text: pad.text, language: pad.language ?? null });
      }
    }
    this.database = database;
    this.#suggestions = options.suggestions;
    this.#startTime = options.startTime ?? Math.floor(Date.now() / 1000);
    const state = { faults: noFaults(), rooms: new Map<string, Room>() };
    attachState(this, state);
    this.#rooms = state.rooms;
    this.#hub = new SocketHub(state.rooms, state.faults, options.seed ?? 1);
    this.#policy = accessPolicy(options.publicHost, options.allowedOrigins);
    this.#bounds = bounds(options);
    const log = options.log ?? ((line: string) => console.error(line));
    this.#log = log;
    this.#listener = padListener(
      options,
      this.#bounds,
      log,
      (request) => this.#serve(request),
    );
    this.#listener.start();
    const { hostname, port } = this.#listener.addr;
    this.port = port;
    this.url = `http://${
      hostname.includes(":") ? `[${hostname}]` : hostname
    }:${port}`;
    if (database !== null && interval > 0) {
      this.#snapshotTimer = setInterval(() => this.snapshot(), interval);
    }
    this.#cleanupTimer = setInterval(
      () =>
        this.#logFailure(() =>
          expireRooms(this.#rooms, database, maxIdleMs, Date.now())
        ),
      // setInterval takes at most 2^31-1 ms.
      Math.min(cleanupMs, 2 ** 31 - 1),
    );
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
    return this.#rooms.get(padId)?.pad.text ??
      this.database?.get(padId)?.text ??
      "";
  }

  /**
   * Persist now, as the real server does every few seconds: every pad in
   * memory whose revision grew since it was last persisted is written to
   * the database (text and language). As on the real server, a language
   * change alone does not count. Does nothing without a database. All go
   * in one transaction; if it fails (another process holds the file
   * locked), the failure is logged and the same pads, with what changed
   * meanwhile, are written at the next snapshot.
   *
   * @returns `false` if the write failed, else `true`.
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
  snapshot(): boolean {
    const database = this.database;
    if (database === null) return true;
    return this.#logFailure(() => persistRooms(this.#rooms.values(), database));
  }

  /** Run `task`; log its failure, never throw it (a timer calls it). */
  #logFailure(task: () => unknown): boolean {
    try {
      task();
      return true;
    } catch (error) {
      this.#log(`rustpad-mcp: pad server: ${(error as Error).message}`);
      return false;
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
    clearInterval(this.#cleanupTimer);
    this.#hub.stop();
    await this.#hub.closeSockets();
    await this.#listener.close(CLOSE_GRACE_MS);
    await this.#hub.closeSockets();
  }

  async #serve(request: Request): Promise<Response> {
    try {
      return refuseForeign(request, this.#policy) ??
        await this.#route(request);
    } catch (error) {
      return reply(
        500,
        `Cannot serve the request as the pad server failed: ${
          (error as Error).message
        }`,
        TEXT_PLAIN,
      );
    }
  }

  /** The editor page or one of its scripts, its bundle loaded at first. */
  async #editor(request: Request, pathname: string): Promise<Response> {
    const { editorResponse } = await import("./_editor_response.ts");
    return editorResponse(request, pathname, frameAncestors(this.#policy));
  }

  #route(request: Request): Response | Promise<Response> {
    const route = routeOf(request);
    switch (route.kind) {
      case "stats":
        return reply(
          200,
          JSON.stringify({
            start_time: this.#startTime,
            num_documents: this.#rooms.size,
            database_size: this.database?.size ?? 0,
          }),
          "application/json",
        );
      case "text":
        return reply(
          200,
          this.#rooms.get(route.padId)?.textBytes() ?? this.text(route.padId),
          TEXT_PLAIN,
        );
      case "socket":
        return this.#upgrade(request, route.padId);
      case "editor":
        return this.#editor(request, route.pathname);
      case "suggestions":
        return listSuggestions(this.#suggestions, route.padId);
      case "decide":
        return decideSuggestion(
          request,
          this.#suggestions,
          route.padId,
          route.suggestionId,
        );
      default:
        return reply(404, "Not found", TEXT_PLAIN);
    }
  }

  #upgrade(request: Request, padId: string): Response {
    const refusal = refuseUpgrade(request, padId, this.#closing !== undefined);
    if (refusal !== undefined) return refusal;
    let upgrade: { socket: ServerWebSocket; response: Response };
    try {
      upgrade = upgradeWebSocket(request, this.#bounds.socketLimits);
    } catch (error) {
      return reply(400, (error as Error).message, TEXT_PLAIN);
    }
    const { socket, response } = upgrade;
    if (this.#hub.refuseFull(socket, padId, this.#bounds.maxSocketsPerPad)) {
      return response;
    }
    // As on the real server, the pad exists from the upgrade request on.
    const room = this.#hub.openRoom(padId, this.database);
    room.lastAccessed = Date.now();
    this.#hub.watch(socket, room);
    return response;
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

if (import.meta.main) Deno.exitCode = await main(Deno.args, startPadServer);
