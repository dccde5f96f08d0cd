// How a pad server keeps what its pads apply: with a pad store, every
// operation goes through the journal (stored before anyone hears of it);
// with a snapshot storage, changed pads are written at each snapshot, as
// the real server does; without a database, nothing is kept.

import { Gate } from "./_gate.ts";
import { Journal } from "./_journal.ts";
import { expireRooms, persistRooms } from "./_persister.ts";
import type { Room } from "./_room.ts";
import type { PadStorage } from "./pad_database.ts";
import {
  isPadStore,
  type LoggedOperation,
  type StoreFailure,
} from "./pad_store.ts";

/** The pad server's side of its database. */
export class StoreKeeper {
  /** Held while operations wait for their commit. */
  readonly gate: Gate = new Gate();
  readonly #database: PadStorage | null;
  readonly #rooms: Map<string, Room>;
  readonly #log: (line: string) => void;
  readonly #journal: Journal | undefined;
  readonly #timers: ReturnType<typeof setInterval>[] = [];

  constructor(
    database: PadStorage | null,
    rooms: Map<string, Room>,
    log: (line: string) => void,
    maxLog: number,
  ) {
    this.#database = database;
    this.#rooms = rooms;
    this.#log = log;
    this.#journal = database !== null && isPadStore(database)
      ? new Journal(database, this.gate, {
        drop: (room) => {
          if (rooms.get(room.id) === room) rooms.delete(room.id);
        },
        log,
      }, maxLog)
      : undefined;
  }

  /** The snapshot storage changed pads are written to, if any. */
  get snapshotted(): PadStorage | null {
    return this.#journal === undefined ? this.#database : null;
  }

  /** `room` applied `operation` or changed its language. */
  record(room: Room, operation?: LoggedOperation): void {
    this.#journal?.record(room, operation);
  }

  /** A connection to `room` took its next user id. */
  joined(room: Room): void {
    this.#journal?.joined(room);
  }

  /**
   * Snapshot every `interval` ms (a snapshot storage; 0: never), and look
   * for pads idle `maxIdleMs` every `cleanupMs`, letting them go.
   */
  startTimers(
    { interval, maxIdleMs, cleanupMs }: {
      interval: number;
      maxIdleMs: number;
      cleanupMs: number;
    },
  ): void {
    // A pad store has every operation already: nothing to snapshot.
    const snapshotted = this.snapshotted;
    if (snapshotted !== null && interval > 0) {
      this.#timers.push(setInterval(() => this.snapshot(), interval));
    }
    const expire = () => {
      try {
        expireRooms(this.#rooms, snapshotted, maxIdleMs, Date.now());
      } catch (error) {
        this.#log(`rustpad-mcp: pad server: ${(error as Error).message}`);
      }
    };
    // setInterval takes at most 2^31-1 ms.
    this.#timers.push(setInterval(expire, Math.min(cleanupMs, 2 ** 31 - 1)));
  }

  /** Stop the timers and commit what the current turn applied. */
  stop(): void {
    for (const timer of this.#timers) clearInterval(timer);
    this.#journal?.flush();
  }

  /** Commit what is pending, or snapshot changed pads; whether all kept. */
  snapshot(): boolean {
    if (this.#journal !== undefined) {
      this.#journal.flush();
      return this.#journal.unstored.length === 0;
    }
    if (this.#database === null) return true;
    const failures = persistRooms(this.#rooms.values(), this.#database);
    for (const { reason } of failures) {
      this.#log(
        `rustpad-mcp: pad server: ${reason}; it is retried at the next snapshot`,
      );
    }
    return failures.length === 0;
  }

  /** The pads not kept now, and why. */
  get unstored(): StoreFailure[] {
    if (this.#journal !== undefined) return this.#journal.unstored;
    if (this.#database === null) return [];
    return [...this.#rooms.values()]
      .filter((room) => room.pad.revision > room.persistedRevision)
      .map((room) => ({
        padId: room.id,
        reason:
          `Cannot keep pad ${room.id} as its revision ${room.pad.revision} was never snapshotted: the last snapshot holds revision ${room.persistedRevision}`,
      }));
  }
}
