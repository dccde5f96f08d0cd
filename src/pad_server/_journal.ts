// Group commit: every operation a pad applies is written to the store
// before anyone hears of it. The first operation of a turn of the event
// loop holds the gate (every outbox waits) and queues a microtask; what
// arrives meanwhile joins it, and the microtask writes it all in one
// transaction, then opens the gate. A pad whose write fails drops what it
// applied and was not stored: its sockets are hung up with their waiting
// frames unsent (no one heard of those operations), and it leaves memory,
// so the next socket reads back what is stored. A pad whose log passed
// `maxLog` operations starts over at revision 1, its text as one insert,
// and its sockets are hung up so clients see the restart. A new connection
// to a stored pad is committed too, with the pad's next user id, before its
// `Identity` goes out; if that alone fails, the pad goes on.

import type { Gate } from "./_gate.ts";
import type { Room } from "./_room.ts";
import {
  type LoggedOperation,
  type PadStore,
  type PadWrite,
  restartLog,
  type StoreFailure,
} from "./pad_store.ts";

/** What the journal asks of its server. */
export interface JournalHost {
  /** `room` no longer stands for what is stored: let it go. */
  drop(room: Room): void;
  /** Say a line about the store. */
  log(line: string): void;
}

/** The pending operations of every pad, committed once per turn. */
export class Journal {
  readonly #store: PadStore;
  readonly #gate: Gate;
  readonly #host: JournalHost;
  readonly #maxLog: number;
  readonly #pending = new Map<Room, LoggedOperation[]>();
  /** Pending pads that applied something: an operation or a language. */
  readonly #applied = new Set<Room>();
  /** Pads whose last write failed, and why. */
  readonly #unstored = new Map<string, string>();
  #scheduled = false;

  constructor(store: PadStore, gate: Gate, host: JournalHost, maxLog: number) {
    this.#store = store;
    this.#gate = gate;
    this.#host = host;
    this.#maxLog = maxLog;
  }

  /** Pads whose last write failed, with why, oldest failure first. */
  get unstored(): StoreFailure[] {
    return [...this.#unstored].map(([padId, reason]) => ({ padId, reason }));
  }

  /** `room` applied `operation`, or changed its language: store it. */
  record(room: Room, operation?: LoggedOperation): void {
    this.#applied.add(room);
    this.#pend(room, operation);
  }

  /**
   * A connection to `room` took its next user id: store that, so that no
   * id of a stored pad's history is handed out again after a SIGKILL.
   */
  joined(room: Room): void {
    this.#pend(room);
  }

  #pend(room: Room, operation?: LoggedOperation): void {
    let operations = this.#pending.get(room);
    if (operations === undefined) {
      operations = [];
      this.#pending.set(room, operations);
    }
    if (operation !== undefined) operations.push(operation);
    this.#gate.hold();
    if (this.#scheduled) return;
    this.#scheduled = true;
    queueMicrotask(() => this.flush());
  }

  /** Commit what is pending now, then let the frames waiting for it go. */
  flush(): void {
    this.#scheduled = false;
    const rooms = [...this.#pending];
    const applied = new Set(this.#applied);
    this.#pending.clear();
    this.#applied.clear();
    const writes: PadWrite[] = rooms.map(([room, operations]) => ({
      padId: room.id,
      from: room.storedRevision,
      operations,
      language: room.pad.language,
      nextUserId: room.pad.nextUserId,
    }));
    const failed = new Map(
      this.#write(writes).map((failure) => [failure.padId, failure.reason]),
    );
    const stored: Room[] = [];
    for (const [room, operations] of rooms) {
      const reason = failed.get(room.id);
      if (reason === undefined) {
        room.storedRevision += operations.length;
        this.#unstored.delete(room.id);
        stored.push(room);
        continue;
      }
      if (!applied.has(room)) {
        // Only joins: nothing to drop, and the next write stores the id.
        this.#host.log(
          `rustpad-mcp: pad server: ${reason}; a new connection's user id was not stored yet`,
        );
        continue;
      }
      this.#unstored.delete(room.id);
      this.#unstored.set(room.id, reason);
      this.#host.log(
        `rustpad-mcp: pad server: ${reason}; its ${operations.length} newest operations were not acknowledged, and its sockets were closed so its clients reload what is stored`,
      );
      room.abandon();
      this.#host.drop(room);
    }
    this.#gate.open();
    for (const room of stored) {
      if (room.storedRevision > this.#maxLog) this.#compact(room);
    }
  }

  #write(writes: PadWrite[]): StoreFailure[] {
    if (writes.length === 0) return [];
    try {
      return this.#store.write(writes);
    } catch (error) {
      const reason = (error as Error).message;
      return writes.map(({ padId }) => ({ padId, reason }));
    }
  }

  /** Start `room`'s log over at revision 1 and hang up its sockets. */
  #compact(room: Room): void {
    const revisions = room.storedRevision;
    const failure = this.#write([{
      padId: room.id,
      from: 0,
      operations: restartLog(room.pad.text),
      language: room.pad.language,
      nextUserId: room.pad.nextUserId,
    }])[0];
    // Not compacted: the log goes on, and the next write tries again.
    if (failure !== undefined) return this.#host.log(failure.reason);
    this.#host.log(
      `rustpad-mcp: pad server: pad ${room.id} passed ${this.#maxLog} operations (at revision ${revisions}): it starts over at revision 1 with its text as one insert, and its sockets were closed so clients see the restart`,
    );
    room.hangUpAll();
    this.#host.drop(room);
  }
}
