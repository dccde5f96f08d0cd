// A loopback port a test needs free again later: one a server it stops
// is started again on, or one it expects to refuse connections. A port the
// OS hands out (bind to port 0, or the local end of any outgoing
// connection) may be handed to another test of the parallel suite in the
// meantime, and then the start fails with "address in use", or the refusal
// is an answer: so this one is picked below that range, where the OS hands
// out nothing on its own.

/** Where the OS's own range starts when it cannot be read (IANA's). */
const DYNAMIC_LOW = 49152;
/** The lowest port picked: above the usual services' ports. */
const LOWEST = 10_000;

/** The first port of the range the OS hands out by itself. */
function handedOutFrom(): number {
  try {
    const range = Deno.readTextFileSync(
      "/proc/sys/net/ipv4/ip_local_port_range",
    );
    const low = Number(range.trim().split(/\s+/)[0]);
    return Number.isInteger(low) && low > LOWEST + 1000 ? low : DYNAMIC_LOW;
  } catch {
    return DYNAMIC_LOW;
  }
}

/**
 * A port on 127.0.0.1, free a moment ago, that the OS does not hand out by
 * itself: picked at random below its range, so that nothing else in the
 * suite takes it while a test needs it free.
 *
 * @throws {Error} If no free port was found in 100 tries.
 */
export function freePort(): number {
  const high = handedOutFrom();
  for (let tries = 0; tries < 100; tries++) {
    const port = LOWEST + Math.floor(Math.random() * (high - LOWEST));
    try {
      Deno.listen({ hostname: "127.0.0.1", port }).close();
      return port;
    } catch {
      // In use: another.
    }
  }
  throw new Error(
    `Cannot find a free port as 100 random ones in ${LOWEST}..${
      high - 1
    } were in use: free some`,
  );
}
