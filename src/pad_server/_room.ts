// One pad in memory and the connections open on it: it reads their
// messages, applies faults, and broadcasts what the pad answers.

import type { ServerWebSocket } from "../http/mod.ts";
import { encodeMessage, parseClientMessage } from "../rustpad/protocol.ts";
import type { ClientMessage, ServerMessage } from "../rustpad/protocol.ts";
import { Connection } from "./_connection.ts";
import type { Faults } from "./_fault_queue.ts";
import type { Gate } from "./_gate.ts";
import { Outbox } from "./_outbox.ts";
import { Pad } from "./_pad.ts";
import type { PersistedPad } from "./pad_database.ts";
import type { LoggedOperation, StoredPad } from "./pad_store.ts";

/** How many connections forward a broadcast message in the task that sent it. */
const FORWARDS_AT_ONCE = 256;

/** What a room needs from its server. */
export interface RoomContext {
  readonly faults: Faults;
  readonly random: () => number;
  /** Step `connection`'s loop soon: it may have work. */
  wake(connection: Connection): void;
  /** Register a connection loop, or unregister it. */
  track(connection: Connection, on: boolean): void;
  /** Run `callback` after `ms`, unless the server closes first. */
  later(ms: number, callback: () => void): void;
  /** Held while operations wait for their commit: frames wait too. */
  readonly gate: Gate;
  /**
   * The pad applied `operation` (or changed its language): store it
   * before anyone hears of it.
   */
  record(room: Room, operation?: LoggedOperation): void;
  /** A connection to a stored pad took its next user id: store it too. */
  joined(room: Room): void;
}

/** What one user's connection sent that the server handled. */
export interface UserCounts {
  /** Language, ClientInfo and CursorData messages. */
  metadata: number;
  /** Edit messages (applied or not). */
  edits: number;
}

/** A pad in memory and its connections. */
export class Room {
  readonly id: string;
  readonly pad: Pad;
  readonly connections: Set<Connection> = new Set();
  /** The revision last written to the database (0: never). */
  persistedRevision = 0;
  /** The length of the pad's log in the store (0: none stored). */
  storedRevision = 0;
  /** When a socket last opened it (`Date.now()`), for expiry. */
  lastAccessed: number = Date.now();
  /** Per user id, what its connection sent that was handled. */
  readonly counts: Map<number, UserCounts> = new Map();
  readonly #context: RoomContext;
  /** Connections ended in this task, their departures not yet announced. */
  readonly #departing: Connection[] = [];
  #text: { revision: number; bytes: Uint8Array<ArrayBuffer> } | undefined;

  constructor(
    id: string,
    persisted: PersistedPad | StoredPad | undefined,
    context: RoomContext,
  ) {
    this.id = id;
    this.pad = new Pad(persisted);
    if (persisted !== undefined && "log" in persisted) {
      this.storedRevision = persisted.log.length;
    }
    this.#context = context;
  }

  /**
   * The text in UTF-8, encoded once per revision: readers polling
   * `/api/text` of a big pad cost a copy, not an encoding each.
   */
  textBytes(): Uint8Array<ArrayBuffer> {
    const revision = this.pad.revision;
    if (this.#text?.revision !== revision) {
      this.#text = { revision, bytes: new TextEncoder().encode(this.pad.text) };
    }
    return this.#text.bytes;
  }

  /**
   * Greet a new connection: `Identity`, then the initial burst; `agent`
   * marks its user as an agent.
   */
  connect(socket: ServerWebSocket, agent = false): Connection {
    const { faults } = this.#context;
    const connection = new Connection(
      this.pad.join(agent),
      new Outbox(socket, () => faults.frameDelayMs, this.#context.gate),
      {
        handle: (connection, frame) => this.#handle(connection, frame),
        lagged: (connection) => this.hangUp(connection),
      },
      this.#context.random,
      (connection) => this.#context.wake(connection),
    );
    this.counts.set(connection.userId, { metadata: 0, edits: 0 });
    // A stored pad's history outlives a restart, so its user ids must too:
    // an id handed out again would name another connection's edits.
    if (this.storedRevision > 0) this.#context.joined(this);
    connection.outbox.send(encodeMessage({ Identity: connection.userId }));
    if (faults.connectCuts.take(this.id) !== undefined) {
      this.hangUp(connection);
      return connection;
    }
    for (const frame of this.pad.welcome()) connection.outbox.send(frame);
    // Only now does it hear broadcasts and read the client's messages.
    this.connections.add(connection);
    this.#context.track(connection, true);
    return connection;
  }

  /** Close a connection with no message, as the real server hangs up. */
  hangUp(connection: Connection): void {
    if (!connection.live) return;
    this.#end(connection);
    connection.outbox.close();
  }

  /**
   * Hang up every connection now, dropping the frames they wait to send:
   * what those told of was not stored. No departure is announced: no one
   * is left to hear it.
   */
  abandon(): void {
    for (const connection of [...this.connections]) {
      connection.stop();
      this.connections.delete(connection);
      this.#context.track(connection, false);
      connection.outbox.abort();
    }
  }

  /** Hang up every connection once what it waits to send is sent. */
  hangUpAll(): void {
    for (const connection of [...this.connections]) this.hangUp(connection);
  }

  /** The client closed its socket. */
  disconnect(connection: Connection): void {
    connection.closedByClient = true;
    // A connection busy with an edit notices the close when it is done.
    if (connection.busy) return;
    connection.readRest();
    if (connection.live) this.#end(connection);
    connection.outbox.dispose();
  }

  /**
   * Send a metadata message through every connection's queue. Idle ones
   * forward it at once, as their tasks wake for it, but at most
   * {@linkcode FORWARDS_AT_ONCE} of them: on a pad with thousands of
   * sockets the rest forward it in the scheduler's turns, so one message
   * never holds the event loop for thousands of writes.
   */
  broadcastMetadata(message: ServerMessage): void {
    const frame = encodeMessage(message);
    let atOnce = FORWARDS_AT_ONCE;
    for (const connection of this.connections) {
      connection.queueMetadata(frame, atOnce-- > 0);
    }
  }

  /**
   * Apply a message no connection sent (an accepted suggestion, as user
   * `id`) and broadcast what the pad answers, as for a connection's.
   *
   * @throws {RangeError} If the pad refuses it (an edit past the bound).
   */
  applyOwn(id: number, message: ClientMessage): void {
    const answer = this.pad.receive(id, message);
    // Stored before anyone hears of it, as a connection's edit is.
    if ("Edit" in message) {
      this.#context.record(this, this.pad.lastOperation());
    } else if ("SetLanguage" in message) this.#context.record(this);
    if ("Edit" in message) this.#broadcastHistory(encodeMessage(answer));
    else this.broadcastMetadata(answer);
  }

  #end(connection: Connection): void {
    connection.stop();
    this.connections.delete(connection);
    this.#context.track(connection, false);
    // As on the real server, the user is forgotten and its departure
    // announced only once its connection is done with, here after a delay
    // if a fault asks for one.
    const delay = this.#context.faults.departureDelays.take(this.id);
    if (delay !== undefined) {
      return this.#context.later(delay.ms, () => this.#depart(connection));
    }
    // Announced in the next task, with every departure of this one: when
    // thousands of sockets close at once, each announcement then goes to
    // those still open, not to all that are closing (which is quadratic).
    this.#departing.push(connection);
    if (this.#departing.length === 1) {
      this.#context.later(0, () => this.#announceDepartures());
    }
  }

  #depart(connection: Connection): void {
    this.broadcastMetadata(this.pad.leave(connection.userId));
  }

  /**
   * One departure is forwarded at once, as ever. Several at once are
   * queued as one burst, as the real server's broadcast channel takes them
   * before its receivers run: past its 16 messages every connection has
   * lagged and is dropped, so a crowd leaving costs what its own
   * departures cost, not their number times the connections left.
   */
  #announceDepartures(): void {
    const gone = this.#departing.splice(0);
    if (gone.length === 1) return this.#depart(gone[0]!);
    const frames = gone.map((connection) =>
      encodeMessage(this.pad.leave(connection.userId))
    );
    for (const other of this.connections) {
      for (const frame of frames) {
        other.queueMetadata(frame, false);
        // Lagged: it takes no more, so the rest need not be offered.
        if (other.lagged) break;
      }
    }
  }

  #handle(connection: Connection, data: string): void {
    const { faults } = this.#context;
    let message;
    try {
      message = parseClientMessage(data);
    } catch {
      return this.hangUp(connection);
    }
    const counts = this.counts.get(connection.userId)!;
    if (!("Edit" in message)) {
      counts.metadata++;
      const answer = this.#answer(connection, message);
      if (answer) this.broadcastMetadata(answer);
      return;
    }
    counts.edits++;
    if (faults.editStalls.take(this.id) !== undefined) {
      // It never reads this frame or any after it.
      connection.stalled = true;
      return;
    }
    const slow = faults.editSlows.take(this.id);
    if (slow !== undefined) {
      // Busy with this edit: it reads nothing else, not even its client's
      // close, until the edit is applied.
      connection.busy = true;
      this.#context.later(slow.ms, () => {
        connection.busy = false;
        if (!connection.live) return;
        this.#applyEdit(connection, message);
        if (connection.closedByClient) this.disconnect(connection);
        else this.#context.wake(connection);
      });
      return;
    }
    this.#applyEdit(connection, message);
  }

  #applyEdit(
    connection: Connection,
    message: Extract<ClientMessage, { Edit: unknown }>,
  ): void {
    const { faults } = this.#context;
    const drop = faults.editDrops.take(this.id)?.when;
    if (drop === "before-apply") return this.hangUp(connection);
    const answer = this.#answer(connection, message);
    if (!answer) return;
    const frame = encodeMessage(answer);
    if (drop === "after-apply") {
      this.connections.delete(connection);
      this.#broadcastHistory(frame);
      return this.hangUp(connection);
    }
    const ackDelay = faults.ackDelays.take(this.id);
    const historyDelay = faults.historyDelays.take(this.id);
    for (const other of this.connections) {
      if (other === connection && ackDelay !== undefined) {
        // A slow network to the sender: everything after waits behind it,
        // and nothing it had held back before overtakes it.
        other.sendHistory(frame, ackDelay.ms);
        continue;
      }
      if (other !== connection && historyDelay !== undefined) {
        other.holdHistory(historyDelay.ms);
      }
      other.sendHistory(frame);
    }
  }

  /** What the pad answers, or nothing after hanging up on a refused message. */
  #answer(
    connection: Connection,
    message: ClientMessage,
  ): ServerMessage | undefined {
    try {
      const answer = this.pad.receive(connection.userId, message);
      if ("Edit" in message) {
        this.#context.record(this, this.pad.lastOperation());
      } else if ("SetLanguage" in message) this.#context.record(this);
      return answer;
    } catch (error) {
      if (error instanceof RangeError) return void this.hangUp(connection);
      throw error;
    }
  }

  #broadcastHistory(frame: string): void {
    for (const connection of this.connections) connection.sendHistory(frame);
  }
}
