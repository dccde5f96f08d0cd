// A crowd of raw sockets in a process of its own, as a real crowd is other
// machines: closing 10,000 sockets is work for the kernel and the process
// that closes them, which must not be counted against the server measured.
// Opens COUNT sockets on PAD at URL (each must get its 101), prints "open",
// and closes them all at once when a line arrives on stdin, then exits.
//
//   deno run -A bench/_crowd_process.ts URL PAD COUNT

import { Crowd } from "../tests/pad_server/_crowd.ts";

const [url, pad, count] = Deno.args;
const crowd = await Crowd.open(url!, pad!, Number(count));
console.log("open");
await Deno.stdin.read(new Uint8Array(1));
crowd.leave();
