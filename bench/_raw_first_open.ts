// The fresh-process floor of the cold rows of bench/speed.ts: a raw
// socket's connect and history in a Deno process of its own, timed inside
// from the socket's creation to the history read, and printed in
// milliseconds. The first call of a fresh MCP server runs its code for the
// first time; so does this, where the raw floor timed in the bench's own
// process runs code the bench has long compiled. As the server is timed
// after its handshake, this waits for its own start to settle first (a
// socket opened at once shares the CPU with the start's last work).
//
// Run: deno run -A bench/_raw_first_open.ts <pad server url> <pad id>

import { RawSocket } from "./_raw_socket.ts";

const [url, pad] = Deno.args;
if (url === undefined || pad === undefined) {
  throw new Error(
    "Cannot time a first open as the pad server or the pad is missing: pass both, as in `deno run -A bench/_raw_first_open.ts http://127.0.0.1:3030 notes`",
  );
}
await new Promise((resolve) => setTimeout(resolve, 200));
const start = performance.now();
const socket = await RawSocket.open(url, pad);
const ms = performance.now() - start;
socket.close();
console.log(ms.toFixed(3));
