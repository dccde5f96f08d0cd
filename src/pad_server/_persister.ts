// Writing pads to the database and letting idle ones go, as the real
// server's persister and cleaner tasks do. Unlike the real server, every
// changed pad of a snapshot goes in one transaction (one fsync, not one per
// pad), and a failed snapshot is retried whole at the next one: a pad
// counts as written only once its transaction committed.

import type { Room } from "./_room.ts";
import type { PadStorage, PersistedPad } from "./pad_database.ts";

/**
 * Write every room whose revision grew since it was last written; a
 * language change alone does not count, as on the real server.
 *
 * @throws What the database throws; then no room counts as written.
 */
export function persistRooms(
  rooms: Iterable<Room>,
  database: PadStorage,
): void {
  const changed: { room: Room; revision: number }[] = [];
  const pads: [string, PersistedPad][] = [];
  for (const room of rooms) {
    const revision = room.pad.revision;
    if (revision <= room.persistedRevision) continue;
    changed.push({ room, revision });
    pads.push([room.id, room.pad.toPersisted()]);
  }
  if (pads.length === 0) return;
  if (database.setAll !== undefined) database.setAll(pads);
  else for (const [id, pad] of pads) database.set(id, pad);
  for (const { room, revision } of changed) room.persistedRevision = revision;
}

/**
 * Drop from memory every pad no socket opened for `maxIdleMs`: it is
 * written one last time (the real persister's loop stores once more after
 * its pad is killed) and its sockets are closed. If that write fails, the
 * pads stay in memory until a later look.
 *
 * @returns The ids of the pads dropped.
 * @throws What the database throws; then no pad was dropped.
 */
export function expireRooms(
  rooms: Map<string, Room>,
  database: PadStorage | null,
  maxIdleMs: number,
  now: number,
): string[] {
  const expired = [...rooms.values()].filter((room) =>
    now - room.lastAccessed > maxIdleMs
  );
  if (database !== null) persistRooms(expired, database);
  for (const room of expired) {
    for (const connection of [...room.connections]) room.hangUp(connection);
    rooms.delete(room.id);
  }
  return expired.map((room) => room.id);
}
