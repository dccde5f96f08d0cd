// The socket side of the pad server: it opens pads, watches each socket
// from upgrade to close, steps the connections' loops, and runs the
// delayed faults, so that closing the server can stop all of it.

import {
  ServerWebSocket,
  upgradeWebSocket,
  type WebSocketLimits,
} from "../http/mod.ts";
import { reply, TEXT_PLAIN } from "./_http.ts";
import type { Connection } from "./_connection.ts";
import type { Faults } from "./_fault_queue.ts";
import type { Gate } from "./_gate.ts";
import { Room, type RoomContext } from "./_room.ts";
import { StepScheduler } from "./_scheduler.ts";
import type { PadStorage } from "./pad_database.ts";
import { presentsAgentSecret } from "./agent_secret.ts";
import { isPadStore } from "./pad_store.ts";

/** How the hub's pads store what they apply. */
export interface HubStore {
  readonly gate: Gate;
  readonly record: RoomContext["record"];
  readonly joined: RoomContext["joined"];
}

/** Sockets, pads and timers of one pad server. */
export class SocketHub {
  readonly #rooms: Map<string, Room>;
  readonly #faults: Faults;
  readonly #random: () => number;
  readonly #store: HubStore;
  /** Every server socket not yet closed, as a promise of its `close`. */
  readonly #sockets = new Map<ServerWebSocket, Promise<void>>();
  /** Sockets not yet closed, per pad id. */
  readonly #perPad = new Map<string, number>();
  /** Per socket, its pad and when its client was last heard from. */
  readonly #heard = new Map<ServerWebSocket, { padId: string; at: number }>();
  readonly #scheduler = new StepScheduler();
  readonly #timers = new Set<ReturnType<typeof setTimeout>>();
  #stopped = false;
  /** When the last request came or the last socket closed. */
  #lastActive = performance.now();

  readonly #agentSecret: string | undefined;

  constructor(
    rooms: Map<string, Room>,
    faults: Faults,
    { seed = 1, agentSecret }: { seed?: number; agentSecret?: string },
    store: HubStore,
  ) {
    this.#rooms = rooms;
    this.#faults = faults;
    this.#random = mulberry32(seed);
    this.#agentSecret = agentSecret;
    this.#store = store;
  }

  /**
   * The pad in memory, else loaded from `database` (its log from a pad
   * store, its text from a snapshot storage), else empty.
   */
  openRoom(padId: string, database: PadStorage | null): Room {
    let room = this.#rooms.get(padId);
    if (room === undefined) {
      const stored = database === null
        ? undefined
        : isPadStore(database)
        ? database.load(padId)
        : database.get(padId);
      room = new Room(padId, stored, {
        faults: this.#faults,
        random: this.#random,
        gate: this.#store.gate,
        record: this.#store.record,
        joined: this.#store.joined,
        wake: (connection) => this.#scheduler.wake(connection),
        track: (connection, on) =>
          on
            ? this.#scheduler.add(connection)
            : this.#scheduler.delete(connection),
        later: (ms, callback) => {
          const timer = setTimeout(() => {
            this.#timers.delete(timer);
            callback();
          }, ms);
          this.#timers.add(timer);
        },
      });
      this.#rooms.set(padId, room);
    }
    return room;
  }

  /**
   * Upgrade a socket request on `padId`: refused with 400 if it is not a
   * WebSocket handshake, closed with 1013 once open if the pad is full,
   * else room made for it at the connection cap and its pad opened (as on
   * the real server, the pad exists from the upgrade request on).
   */
  upgrade(request: Request, padId: string, options: {
    limits: WebSocketLimits;
    maxSocketsPerPad: number;
    maxConnections: number;
    database: PadStorage | null;
    log: (line: string) => void;
  }): Response {
    let upgraded: { socket: ServerWebSocket; response: Response };
    try {
      upgraded = upgradeWebSocket(request, options.limits);
    } catch (error) {
      return reply(400, (error as Error).message, TEXT_PLAIN);
    }
    const { socket, response } = upgraded;
    if (this.refuseFull(socket, padId, options.maxSocketsPerPad)) {
      return response;
    }
    this.makeRoom(options.maxConnections, options.log);
    const room = this.openRoom(padId, options.database);
    room.lastAccessed = Date.now();
    this.watch(socket, room, request);
    return response;
  }

  /** Sockets open or opening on pad `padId`. */
  socketCount(padId: string): number {
    return this.#perPad.get(padId) ?? 0;
  }

  /**
   * If `most` sockets are open on `padId`, close `socket` once open with
   * 1013 (Try Again Later) and why, as a browser cannot read the body of a
   * refused upgrade; whether it was refused.
   */
  refuseFull(socket: ServerWebSocket, padId: string, most: number): boolean {
    if (this.socketCount(padId) < most) return false;
    socket.addEventListener("open", () =>
      socket.close(
        1013,
        `Cannot join the pad as ${most} sockets are open on it (RUSTPAD_EMBEDDED_MAX_SOCKETS_PER_PAD)`,
      ));
    return true;
  }

  /** A request came: the server is not idle. */
  touch(): void {
    this.#lastActive = performance.now();
  }

  /** Milliseconds since the last request or socket; 0 while one is open. */
  idleMs(): number {
    if (this.#sockets.size > 0) return 0;
    return Math.max(0, performance.now() - this.#lastActive);
  }

  /** Sockets open or opening on every pad. */
  get socketTotal(): number {
    return this.#sockets.size;
  }

  /**
   * Sockets may fill the connection cap `cap` but for a reserve (a
   * sixteenth, at least two: one for a socket still closing), so an HTTP
   * request (`/api/stats`, a newcomer's upgrade) always finds a
   * connection; a newcomer's socket past that takes the place of the
   * socket that loses least (see {@linkcode SocketHub.shed}).
   */
  makeRoom(cap: number, log: (line: string) => void): void {
    const sockets = Math.max(1, cap - Math.max(2, Math.ceil(cap / 16)));
    if (this.socketTotal < sockets) return;
    // A close reason holds at most 123 bytes.
    const padId = this.shed(
      "Cannot stay open as the pad server is at its connection cap: this socket was idle longest on the busiest pad",
    );
    if (padId === undefined) return;
    log(
      `rustpad-mcp: pad server: closed the socket heard from longest ago on pad ${padId}, the busiest, to let a newcomer in as ${cap} connections are open (RUSTPAD_EMBEDDED_MAX_CONNECTIONS)`,
    );
  }

  /**
   * Make room for a newcomer: close the socket whose client was heard
   * from longest ago on the pad with the most sockets, with 1013 (Try
   * Again Later). A crowded pad's idle watcher loses least: a person
   * typing, or alone on a pad, keeps their socket.
   *
   * @returns The pad id of the socket closed, or `undefined` if none is
   * open.
   */
  shed(reason: string): string | undefined {
    let busiest: string | undefined;
    for (const [padId, count] of this.#perPad) {
      if (busiest === undefined || count > this.socketCount(busiest)) {
        busiest = padId;
      }
    }
    let chosen: ServerWebSocket | undefined;
    let oldest = Infinity;
    for (const [socket, { padId, at }] of this.#heard) {
      if (padId !== busiest || at >= oldest) continue;
      if (socket.readyState !== ServerWebSocket.OPEN) continue;
      chosen = socket;
      oldest = at;
    }
    if (chosen === undefined) return undefined;
    this.#heard.delete(chosen);
    chosen.close(1013, reason);
    return busiest;
  }

  /**
   * Follow a socket of `room` from its `upgrade` request to its close; its
   * user is an agent if the request presents the agent secret.
   */
  watch(socket: ServerWebSocket, room: Room, upgrade: Request): void {
    const agent = presentsAgentSecret(upgrade, this.#agentSecret);
    let connection: Connection | undefined;
    const { promise, resolve } = Promise.withResolvers<void>();
    this.#sockets.set(socket, promise);
    this.#heard.set(socket, { padId: room.id, at: performance.now() });
    this.#perPad.set(room.id, this.socketCount(room.id) + 1);
    socket.addEventListener("open", () => {
      if (this.#stopped) socket.close();
      else connection = room.connect(socket, agent);
    });
    socket.onmessage = ({ data }) => {
      const heard = this.#heard.get(socket);
      if (heard !== undefined) heard.at = performance.now();
      // Binary frames are ignored, as on the real server.
      if (typeof data === "string") connection?.receive(data);
    };
    socket.addEventListener("close", () => {
      if (connection !== undefined) room.disconnect(connection);
      this.#sockets.delete(socket);
      this.#heard.delete(socket);
      const left = this.socketCount(room.id) - 1;
      if (left > 0) this.#perPad.set(room.id, left);
      else this.#perPad.delete(room.id);
      this.touch();
      resolve();
    });
  }

  /** Stop every loop and timer; connections take no more messages. */
  stop(): void {
    this.#stopped = true;
    this.#scheduler.close();
    for (const timer of this.#timers) clearTimeout(timer);
    this.#timers.clear();
    for (const { connections } of this.#rooms.values()) {
      for (const connection of connections) {
        connection.stop();
        connection.outbox.dispose();
      }
      connections.clear();
    }
  }

  /** Close every socket and wait until each is closed. */
  async closeSockets(): Promise<void> {
    while (this.#sockets.size > 0) {
      for (const socket of this.#sockets.keys()) {
        // A socket still connecting is closed by its `open` listener.
        if (socket.readyState === ServerWebSocket.OPEN) socket.close();
      }
      await Promise.all(this.#sockets.values());
    }
  }
}

/** A small seeded generator of numbers in [0, 1). */
function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
