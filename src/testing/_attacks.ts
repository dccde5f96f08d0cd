// The attacks of the hostile servers, each written straight to a raw TCP
// connection that has been upgraded by hand.

import { frameHeader, textFrame, writeAll } from "./_raw_websocket.ts";

/** Write the upgrade answer and `Identity`, one byte per `intervalMs`. */
export async function dribble(
  conn: Deno.Conn,
  upgrade: Uint8Array,
  intervalMs: number,
  signal: AbortSignal,
): Promise<void> {
  const frame = textFrame('{"Identity":0}');
  const bytes = new Uint8Array(upgrade.length + frame.length);
  bytes.set(upgrade);
  bytes.set(frame, upgrade.length);
  for (const byte of bytes) {
    await writeAll(conn, new Uint8Array([byte]));
    if (!await sleep(intervalMs, signal)) {
      return;
    }
  }
}

/** Write one text frame of `frameBytes` bytes, a History of one insert. */
export async function hugeFrame(
  conn: Deno.Conn,
  frameBytes: number,
  signal: AbortSignal,
): Promise<void> {
  const prefix = new TextEncoder().encode(
    '{"History":{"start":0,"operations":[{"id":0,"operation":["',
  );
  const suffix = new TextEncoder().encode('"]}]}}');
  const filler = frameBytes - prefix.length - suffix.length;
  await writeAll(conn, frameHeader(prefix.length + filler + suffix.length));
  await writeAll(conn, prefix);
  const chunk = new Uint8Array(1024 * 1024).fill(0x78); // "x"
  for (let left = filler; left > 0; left -= chunk.length) {
    if (signal.aborted) return;
    await writeAll(conn, chunk.subarray(0, Math.min(left, chunk.length)));
  }
  await writeAll(conn, suffix);
}

/** Write `UserInfo` of ever new users until `signal` aborts. */
export async function flood(
  conn: Deno.Conn,
  signal: AbortSignal,
): Promise<void> {
  for (let id = 1; !signal.aborted;) {
    const frames: string[] = [];
    for (let i = 0; i < 1000; i++, id++) {
      frames.push(
        JSON.stringify({
          UserInfo: { id, info: { name: `user ${id}`, hue: id % 360 } },
        }),
      );
    }
    // Written one batch at a time: as fast as the client reads, no more,
    // and with a turn of the event loop between batches for the rest.
    await writeAll(conn, concat(frames.map(textFrame)));
    await new Promise((resolve) => setTimeout(resolve, 0));
  }
}

/**
 * A History of `count` operations that insert one character and delete it
 * again, so that the text stays short however long the history.
 */
export function hugeHistory(count: number): string {
  const insert = '{"id":1,"operation":["x"]}';
  const remove = '{"id":1,"operation":[-1]}';
  const operations = Array.from(
    { length: count },
    (_, i) => i % 2 === 0 ? insert : remove,
  );
  return `{"History":{"start":0,"operations":[${operations.join(",")}]}}`;
}

function concat(parts: Uint8Array[]): Uint8Array {
  const all = new Uint8Array(parts.reduce((sum, p) => sum + p.length, 0));
  let offset = 0;
  for (const part of parts) {
    all.set(part, offset);
    offset += part.length;
  }
  return all;
}

/** Wait `ms`; false if `signal` aborted first. */
function sleep(ms: number, signal: AbortSignal): Promise<boolean> {
  if (signal.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", abort);
      resolve(true);
    }, ms);
    const abort = () => {
      clearTimeout(timer);
      resolve(false);
    };
    signal.addEventListener("abort", abort, { once: true });
  });
}
