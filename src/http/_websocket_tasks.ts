// What all server sockets share: one timer that drops a socket whose write
// stalls (not one per write), one encoding of a text broadcast to many,
// and a queue that closes ended sockets a batch per task.

/** A write that moves no byte for this long means the client is gone. */
const WRITE_STALL_MS = 60_000;
const encoder = new TextEncoder();

/**
 * Writes in flight, with when they began and how to drop their socket: one
 * timer looks them over, not one per write (a broadcast makes thousands).
 */
export const writesInFlight: Map<object, { since: number; drop: () => void }> =
  new Map<
    object,
    { since: number; drop: () => void }
  >();
let stallTimer: ReturnType<typeof setInterval> | undefined;

export function watchWrite(writer: object, drop: () => void): void {
  writesInFlight.set(writer, { since: performance.now(), drop });
  if (stallTimer !== undefined) return;
  const timer = setInterval(() => {
    const now = performance.now();
    for (const [stalled, write] of writesInFlight) {
      if (now - write.since < WRITE_STALL_MS) continue;
      writesInFlight.delete(stalled);
      write.drop();
    }
    if (writesInFlight.size === 0) {
      clearInterval(timer);
      stallTimer = undefined;
    }
  }, WRITE_STALL_MS / 4);
  stallTimer = timer;
  // It never keeps the process alive on its own.
  Deno.unrefTimer(timer);
}

// A broadcast sends the same string to many sockets: encode it once.
let lastText = "";
let lastBytes = new Uint8Array(0);

/** `text` in UTF-8; the same bytes again for the same text. */
export function encodeText(text: string): Uint8Array {
  if (text !== lastText) {
    lastBytes = encoder.encode(text);
    lastText = text;
  }
  return lastBytes;
}

/** Sockets ended and not yet closed and told, in order. */
const ending: (() => void)[] = [];
/** How many ended sockets one task closes and tells. */
const ENDINGS_PER_TASK = 128;

export function afterwards(task: () => void): void {
  ending.push(task);
  if (ending.length === 1) setTimeout(endSome, 0);
}

function endSome(): void {
  for (const task of ending.splice(0, ENDINGS_PER_TASK)) task();
  if (ending.length > 0) setTimeout(endSome, 0);
}
