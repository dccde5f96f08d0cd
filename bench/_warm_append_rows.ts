// The warm append rows of bench/speed.ts. The append rows before them
// time a fresh server's first few hundred appends, as a session makes
// them, when V8 is still compiling the path: there our append falls from
// about 1.2 ms to 0.35 ms over its first 2,000 calls, and an MCP ping,
// whose path is short, from 0.3 ms to 0.08 ms over its first few hundred.
// Those rows measure that warming as much as the path, and move by a
// quarter between runs. These time the path itself: ours, the bare SDK
// append server's (`_bare_append_server.ts`) and their floors, once each
// has made `warm` calls, in blocks taken in turn, so a change of load
// moves all alike.

import { RawRpc } from "./_raw_rpc.ts";
import type { RawSocket } from "./_raw_socket.ts";
import { type Row, timedInBlocks } from "./_speed_tools.ts";
import { OVER_BARE_APPEND } from "./_sdk_share_rows.ts";

const ROOT = new URL("../", import.meta.url).pathname;
/** Calls of one kind in a row (see `timedInBlocks`). */
const BLOCK = 50;

/** The pads and sockets the rows use. */
export interface WarmAppendSetup {
  /** The pad server's MCP configuration. */
  env: Record<string, string>;
  /** Our server, already started. */
  ours: RawRpc;
  /** Raw sockets on a small pad and on the busy one. */
  small: RawSocket;
  busy: RawSocket;
  /** The busy pad's id. */
  busyId: string;
}

/**
 * Warm our server, the bare SDK append server and the raw sockets with
 * `warm` calls of each kind, then time `runs` of each, in blocks: the warm
 * append on a small pad and on the busy one against ping and raw edit, and
 * against the bare SDK append.
 */
export async function warmAppendRows(
  setup: WarmAppendSetup,
  warm: number,
  runs: number,
): Promise<{ rows: Row[]; note: string }> {
  const { env, ours, small, busy, busyId } = setup;
  const bare = await RawRpc.start(`${ROOT}bench/_bare_append_server.ts`, env);
  const clock = (task: () => Promise<unknown>) => async (): Promise<number> => {
    const start = performance.now();
    await task();
    return performance.now() - start;
  };
  const append = (rpc: RawRpc, id: string) => () =>
    rpc.timeTool("append_to_document", { id, text: "a line\n" });
  const tasks = [
    clock(() => ours.call("ping", {})),
    clock(() => small.append("x")),
    // Our appends land on the busy pad too: the socket takes them first.
    // Its cursor, sent to settle, makes it a person in the pad, as a busy
    // pad has: each of our appends there finds who was at it.
    async () => {
      await busy.settle();
      return await clock(() => busy.append("x"))();
    },
    append(ours, "bench-warm"),
    append(ours, busyId),
    clock(() => bare.call("ping", {})),
    append(bare, "bench-warm-bare"),
  ] as const;
  const [ping, raw, rawBusy, ourAppend, busyAppend, barePing, bareAppend] =
    await timedInBlocks(Math.ceil(runs / BLOCK), BLOCK, tasks, warm);
  await bare.close();
  const ms = (value: number) => `${value.toFixed(3)} ms`;
  return {
    rows: [
      {
        what: "append_to_document, small pad, warm",
        ms: ourAppend,
        floor: "ping + raw edit, warm",
        floorMs: ping + raw,
        target: 1.5,
      },
      {
        what: "append_to_document, busy pad, warm",
        ms: busyAppend,
        floor: "ping + raw edit (busy), warm",
        floorMs: ping + rawBusy,
        target: 1.5,
      },
      {
        what: "append_to_document, small pad, warm",
        ms: ourAppend,
        floor: "bare SDK append, warm",
        floorMs: bareAppend,
        target: OVER_BARE_APPEND,
      },
    ],
    note: `after ${warm} calls of each, in blocks of ${BLOCK} in turn: ping ${
      ms(ping)
    }, raw edit ${ms(raw)} (busy ${ms(rawBusy)}); the bare SDK server's ping ${
      ms(barePing)
    }, its append ${ms(bareAppend)} = ${
      (bareAppend / (barePing + raw)).toFixed(2)
    }x its ping + raw edit`,
  };
}
