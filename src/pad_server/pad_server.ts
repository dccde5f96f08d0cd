/**
 * A Rustpad-compatible pad server: the real server's HTTP routes and
 * WebSocket protocol frame for frame (its 16-message metadata queue too),
 * injected faults (see {@linkcode FaultInjector}), and a live web editor at
 * every other path. With a pad store (`SqlitePadDatabase`,
 * `MemoryPadStore`) every operation is stored before anyone hears of it;
 * with a `PadDatabase`, pads are snapshotted as on the real server.
 *
 * Run it on its own in memory with `deno run -A src/pad_server/pad_server.ts`
 * (`--help`), or as the pads' home with `rustpad-mcp pad-server`.
 *
 * @module
 */

import type { HttpListener } from "../http/mod.ts";
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
import { StoreKeeper } from "./_store_keeper.ts";
import { PadDatabase, type PadStorage } from "./pad_database.ts";
import type { StoreFailure } from "./pad_store.ts";
import {
  bounds,
  type CloseReport,
  type PadServerBounds,
  type PadServerOptions,
  timings,
} from "./pad_server_options.ts";
import { SuggestionStreams } from "./_suggestion_routes.ts";
import type { SuggestionDesk } from "./suggestion_desk.ts";
import { AgentApi } from "./_agent_api.ts";

export {
  PadDatabase,
  type PadStorage,
  type PersistedPad,
} from "./pad_database.ts";
export type { CloseReport, PadServerOptions } from "./pad_server_options.ts";
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
  readonly #hub: SocketHub;
  readonly #rooms: Map<string, Room>;
  readonly #suggestions: SuggestionDesk | undefined;
  readonly #agents: AgentApi | undefined;
  readonly #streams = new SuggestionStreams();
  readonly #keeper: StoreKeeper;
  #closing: Promise<CloseReport> | undefined;

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
    this.#startTime = options.startTime ?? Math.floor(Date.now() / 1000);
    const state = { faults: noFaults(), rooms: new Map<string, Room>() };
    attachState(this, state);
    this.#rooms = state.rooms;
    this.#agents = AgentApi.of(options, state.rooms);
    this.#suggestions = this.#agents?.desk ?? options.suggestions;
    this.#policy = accessPolicy(options.publicHost, options.allowedOrigins);
    this.#bounds = bounds(options);
    const log = options.log ?? ((line: string) => console.error(line));
    this.#log = log;
    const keeper = new StoreKeeper(
      database,
      state.rooms,
      log,
      this.#bounds.maxLogOperations,
    );
    this.#keeper = keeper;
    this.#hub = new SocketHub(state.rooms, state.faults, options, {
      gate: keeper.gate,
      record: (room, operation) => keeper.record(room, operation),
      joined: (room) => keeper.joined(room),
    });
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
    keeper.startTimers({ interval, maxIdleMs, cleanupMs });
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
   * Persist now. With a snapshot storage (a `PadDatabase`), as the real
   * server does every few seconds: every pad in memory whose revision grew
   * since it was last persisted is written (text and language; a language
   * change alone does not count); pads whose write fails are logged and
   * written at the next snapshot, the others are written all the same.
   * With a pad store (a `SqlitePadDatabase`, a `MemoryPadStore`), every
   * operation is stored before it is acknowledged: this commits what the
   * current turn applied. Does nothing without a database.
   *
   * @returns `false` if a pad is not stored, else `true`.
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
    return this.#keeper.snapshot();
  }

  /** Milliseconds since the last request or socket; 0 while one is open. */
  idleMs(): number {
    return this.#hub.idleMs();
  }

  /**
   * The pads not stored now, with why: those whose last write failed (a
   * pad store), or whose revision grew since their last snapshot (a
   * snapshot storage). Empty without a database.
   *
   * @example
   * ```ts
   * import { MemoryPadStore, startPadServer } from "@rustpad-mcp/server/pad-server";
   * import assert from "node:assert/strict";
   *
   * await using server = await startPadServer({ database: new MemoryPadStore() });
   * assert.deepEqual(server.unstored, []);
   * ```
   */
  get unstored(): StoreFailure[] {
    return this.#keeper.unstored;
  }

  /**
   * Stop everything: commit what is pending, close every socket and wait
   * for it, stop the snapshot timer and delayed frames, and stop
   * listening. With a snapshot storage nothing is snapshotted on the way
   * out, as with the real server: call {@linkcode PadServer.snapshot}
   * first. Calling it again returns the same promise.
   *
   * @returns What was left unstored (see {@linkcode PadServer.unstored}),
   * once nothing is left running.
   *
   * @example
   * ```ts
   * import { startPadServer } from "@rustpad-mcp/server/testing";
   * import assert from "node:assert/strict";
   *
   * const server = await startPadServer();
   * assert.deepEqual((await server.close()).unstored, []);
   * ```
   */
  close(): Promise<CloseReport> {
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
  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }

  async #shutDown(): Promise<CloseReport> {
    this.#agents?.close();
    this.#keeper.stop();
    this.#hub.stop();
    await this.#hub.closeSockets();
    await this.#listener.close(CLOSE_GRACE_MS);
    await this.#hub.closeSockets();
    return { unstored: this.unstored };
  }

  async #serve(request: Request): Promise<Response> {
    this.#hub.touch();
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
    const ours = this.#agents?.serve(request) ??
      this.#streams.serve(
        request,
        this.#suggestions,
        (padId, userId) => this.#rooms.get(padId)?.pad.nameOf(userId),
      );
    if (ours !== undefined) return ours;
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
      default:
        return reply(404, "Not found", TEXT_PLAIN);
    }
  }

  #upgrade(request: Request, padId: string): Response {
    const refusal = refuseUpgrade(request, padId, this.#closing !== undefined);
    return refusal ?? this.#hub.upgrade(request, padId, {
      limits: this.#bounds.socketLimits,
      maxSocketsPerPad: this.#bounds.maxSocketsPerPad,
      maxConnections: this.#listener.maxConnections,
      database: this.database,
      log: this.#log,
    });
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
