// The append rows of bench/speed.ts against a bare v2 SDK server whose one
// tool appends over a raw socket (`_bare_append_server.ts`): what the
// SDK's own tool call costs over a ping and a raw edit, so each append row
// can say how much of its time is the floor's, the SDK's and ours. Inside
// the server (timed by a bare JSON-RPC peer) and end to end (through the
// 1.x SDK client).

import { RawRpc } from "./_raw_rpc.ts";
import {
  callTool,
  type Row,
  stdioClient,
  timed,
  timedInside,
} from "./_speed_tools.ts";

const ROOT = new URL("../", import.meta.url).pathname;
const SCRIPT = "bench/_bare_append_server.ts";

/** The rows set against the bare SDK append, and the shares as a note. */
export interface SdkShare {
  rows: Row[];
  note: string;
}

/**
 * Time the bare SDK append as `speed.ts` times ours: a fresh server, `many`
 * pings, then `many` appends on a pad of its own, inside the server; then
 * through the SDK client. `ours` are our rows' figures from the same run.
 */
export async function sdkShareRows(
  env: Record<string, string>,
  many: number,
  ours: { ping: number; rawEdit: number; append: number; endToEnd: number },
): Promise<SdkShare> {
  const rpc = await RawRpc.start(`${ROOT}${SCRIPT}`, env);
  const ping = await timed(many, () => rpc.call("ping", {}));
  const append = await timedInside(
    many,
    () =>
      rpc.timeTool("append_to_document", {
        id: "bench-bare-append",
        text: "a line\n",
      }),
  );
  await rpc.close();
  const client = await stdioClient(SCRIPT, env.RUSTPAD_URL!);
  await timed(many, () => client.ping());
  const endToEnd = await timed(
    many,
    () =>
      callTool(client, "append_to_document", {
        id: "bench-bare-e2e",
        text: "a\n",
      }),
  );
  await client.close();
  const us = (ms: number) => `${(ms * 1000).toFixed(0)} µs`;
  return {
    rows: [
      {
        what: "append_to_document, small pad",
        ms: ours.append,
        floor: "bare SDK append (one raw edit)",
        floorMs: append,
        target: 1.5,
      },
      {
        what: "append end to end (SDK)",
        ms: ours.endToEnd,
        floor: "bare SDK append, end to end",
        floorMs: endToEnd,
        target: 1.5,
      },
    ],
    // Each share from figures timed alike: a fresh server, `many` pings,
    // then `many` appends.
    note:
      `the small pad's append, inside the server: the bare floor (the bare server's ping + raw edit) ${
        us(ping + ours.rawEdit)
      }, the SDK's tool call ${
        us(append - ping - ours.rawEdit)
      }, our message path (our ping over the bare one) ${
        us(ours.ping - ping)
      }, our tool ${
        us(ours.append - ours.ping - (append - ping))
      }; end to end, ours ${us(ours.endToEnd)} against the bare append's ${
        us(endToEnd)
      }`,
  };
}
