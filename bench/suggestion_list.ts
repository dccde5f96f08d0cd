/**
 * The people's suggestion list under a flood, as a ratio to a floor
 * measured in the same run: a pad at Rustpad's bound (262,144 code points)
 * with twenty suggestions that each replace all of it, held through the
 * agent API, then `GET /api/suggestions/{pad}` (every entry bounded) and
 * the pushed stream's first event, each against twenty `GET
 * /api/text/{pad}` of the same pad in a row, one per suggestion, as the
 * list walks each suggestion over the pad's text once (target 1x). Notes
 * give each answer's size, and the list's time against the 2 s.
 *
 * ```sh
 * deno run -A bench/suggestion_list.ts
 * ```
 *
 * @module
 */

import { startPadServer } from "../src/pad_server/mod.ts";
import { median, printRows, type Row } from "./_speed_tools.ts";
import { FLOOD, flood, wholePad } from "../tests/pad_server/_flood.ts";
import { SECRET } from "../tests/pad_server/_agents.ts";

const ROUNDS = 7;

/** The median time of `ROUNDS` fetches of `url` read whole, and its size. */
async function timedFetch(
  read: () => Promise<string>,
): Promise<{ ms: number; bytes: number }> {
  const times: number[] = [];
  let bytes = 0;
  for (let round = 0; round < ROUNDS; round++) {
    const start = performance.now();
    const body = await read();
    times.push(performance.now() - start);
    bytes = new TextEncoder().encode(body).length;
  }
  return { ms: median(times), bytes };
}

/** The first event of the stream at `url`. */
async function firstEvent(url: string): Promise<string> {
  const response = await fetch(url);
  const reader = response.body!.pipeThrough(new TextDecoderStream())
    .getReader();
  let event = "";
  while (!event.includes("\n\n")) event += (await reader.read()).value ?? "";
  await reader.cancel();
  return event;
}

const text = wholePad("base");
await using pads = await startPadServer({
  agentSecret: SECRET,
  pads: { flood: { text } },
});
const socket = new WebSocket(`${pads.url}/api/socket/flood`);
await new Promise((resolve) => socket.onmessage = resolve);
const held = performance.now();
await flood(pads.url, "flood", text, 1);
const holdMs = performance.now() - held;

const floor = await timedFetch(async () => {
  let last = "";
  for (let i = 0; i < FLOOD; i++) {
    last = await (await fetch(`${pads.url}/api/text/flood`)).text();
  }
  return last;
});
const list = await timedFetch(async () =>
  await (await fetch(`${pads.url}/api/suggestions/flood`)).text()
);
const stream = await timedFetch(() =>
  firstEvent(`${pads.url}/api/suggestion-events/flood`)
);
socket.close();

const floorName = `${FLOOD} GET /api/text of the pad`;
const rows: Row[] = [
  {
    what: `GET /api/suggestions, ${FLOOD} whole-pad suggestions`,
    ms: list.ms,
    floor: floorName,
    floorMs: floor.ms,
    target: 1,
  },
  {
    what: "the pushed stream's first event",
    ms: stream.ms,
    floor: floorName,
    floorMs: floor.ms,
    target: 1,
  },
];
const { missed } = printRows(rows);
const kib = (bytes: number) => `${(bytes / 1024).toFixed(0)} KiB`;
console.log(
  `notes: list ${kib(list.bytes)} in ${
    list.ms.toFixed(1)
  } ms (issue: at most a few MiB within 2000 ms); event ${
    kib(stream.bytes)
  }; pad text ${kib(floor.bytes)}; holding the ${FLOOD} took ${
    holdMs.toFixed(0)
  } ms`,
);
Deno.exitCode = missed === 0 ? 0 : 1;
