// Writing pads to the database and letting idle ones go, as the real
// server's persister and cleaner tasks do.

import type { Room } from "./_room.ts";
import type { PadStorage } from "./pad_database.ts";

/**
 * Write `room` if its revision grew since it was last written; a language
 * change alone does not count, as on the real server.
 */
export function persistRoom(room: Room, database: PadStorage): void {
  const revision = room.pad.revision;
  if (revision <= room.persistedRevision) return;
  database.set(room.id, room.pad.toPersisted());
  room.persistedRevision = revision;
}

/**
 * Drop from memory every pad no socket opened for `maxIdleMs`: it is
 * written one last time (the real persister's loop stores once more after
 * its pad is killed) and its sockets are closed.
 *
 * @returns The ids of the pads dropped.
 */
export function expireRooms(
  rooms: Map<string, Room>,
  database: PadStorage | null,
  maxIdleMs: number,
  now: number,
): string[] {
  const expired: string[] = [];
  for (const [id, room] of rooms) {
    if (now - room.lastAccessed <= maxIdleMs) continue;
    if (database !== null) persistRoom(room, database);
    for (const connection of [...room.connections]) room.hangUp(connection);
    rooms.delete(id);
    expired.push(id);
  }
  return expired;
}
