// Writing pads to a snapshot storage and letting idle ones go, as the real
// server's persister and cleaner tasks do. Unlike the real server, every
// changed pad of a snapshot goes in one `setAll` (one fsync, not one per
// pad); if that fails, each pad is written alone, so a pad that fits is
// written even when another does not. A pad counts as written only once
// its write succeeded; the others are written at the next snapshot.

import type { Room } from "./_room.ts";
import type { PadStorage, PersistedPad } from "./pad_database.ts";
import type { StoreFailure } from "./pad_store.ts";

/**
 * Write every room whose revision grew since it was last written; a
 * language change alone does not count, as on the real server.
 *
 * @returns The pads not written, and why.
 */
export function persistRooms(
  rooms: Iterable<Room>,
  database: PadStorage,
): StoreFailure[] {
  const changed: { room: Room; revision: number }[] = [];
  const pads: [string, PersistedPad][] = [];
  for (const room of rooms) {
    const revision = room.pad.revision;
    if (revision <= room.persistedRevision) continue;
    changed.push({ room, revision });
    pads.push([room.id, room.pad.toPersisted()]);
  }
  if (pads.length === 0) return [];
  try {
    if (database.setAll === undefined) throw new Error("one at a time");
    database.setAll(pads);
    for (const { room, revision } of changed) {
      room.persistedRevision = revision;
    }
    return [];
  } catch {
    // Each pad alone, below.
  }
  const failures: StoreFailure[] = [];
  for (const [index, { room, revision }] of changed.entries()) {
    try {
      database.set(room.id, pads[index]![1]);
      room.persistedRevision = revision;
    } catch (error) {
      failures.push({ padId: room.id, reason: (error as Error).message });
    }
  }
  return failures;
}

/**
 * Drop from memory every pad no socket opened for `maxIdleMs`: it is
 * written one last time (the real persister's loop stores once more after
 * its pad is killed) and its sockets are closed. If that write fails, the
 * pads stay in memory until a later look.
 *
 * @returns The ids of the pads dropped.
 */
export function expireRooms(
  rooms: Map<string, Room>,
  database: PadStorage | null,
  maxIdleMs: number,
  now: number,
): string[] {
  let expired = [...rooms.values()].filter((room) =>
    now - room.lastAccessed > maxIdleMs
  );
  if (database !== null) {
    const failed = new Set(
      persistRooms(expired, database).map((failure) => failure.padId),
    );
    expired = expired.filter((room) => !failed.has(room.id));
  }
  for (const room of expired) {
    for (const connection of [...room.connections]) room.hangUp(connection);
    rooms.delete(room.id);
  }
  return expired.map((room) => room.id);
}
