// The append rows of bench/speed.ts against a bare v2 SDK server whose one
// tool appends over a raw socket (`_bare_append_server.ts`): what the
// SDK's own tool call costs over a ping and a raw edit, so each append row
// can say how much of its time is the floor's, the SDK's and ours. Inside
// the servers (timed by bare JSON-RPC peers) and end to end (through the
// 1.x SDK client): each time a fresh server of each, their first calls in
// blocks taken in turn, so both see the same load.

import { RawRpc } from "./_raw_rpc.ts";
import {
  callTool,
  median,
  type Row,
  stdioClient,
  timedInBlocks,
} from "./_speed_tools.ts";

const ROOT = new URL("../", import.meta.url).pathname;
const SCRIPT = "bench/_bare_append_server.ts";
/** Calls of one server in a row (see `timedInBlocks`). */
const BLOCK = 50;
/**
 * Fresh servers of each, timed one pair after another: a fresh server's
 * ping falls to a third somewhere in its first few hundred calls
 * (docs/benchmarks.md), so one pair's figures move by half between runs;
 * each share is the median over the pairs.
 */
const PAIRS = 3;

/**
 * The target of our append against the bare SDK append, fresh or warm. The
 * bare SDK append alone reads 1.3x to 2x of its ping and raw edit
 * (docs/benchmarks.md), so issue 32's 1.5x of ping + raw edit leaves a
 * server on the SDK nothing for its tool. Ours answers with a diff, a
 * signed edit_id, an undo record and who was nearby, and a fresh server
 * compiles that path in its first calls: at most 2x of the bare one.
 */
export const OVER_BARE_APPEND = 2;

/** The rows set against the bare SDK append, and the shares as a note. */
export interface SdkShare {
  rows: Row[];
  note: string;
  /** Our server's ping and append end to end, timed in the same blocks. */
  endToEnd: { ping: number; append: number };
}

/**
 * Time the bare SDK append as `speed.ts` times ours, beside a fresh server
 * of ours: `many` pings, then `many` appends on a pad of its own, of each
 * server, in blocks of 50 taken in turn; inside the servers, then end to
 * end through the SDK client; `pairs` times, each figure the median over
 * them. `rawEdit` is the run's raw edit.
 */
export async function sdkShareRows(
  env: Record<string, string>,
  many: number,
  rawEdit: number,
  pairs = PAIRS,
): Promise<SdkShare> {
  const rounds = Math.ceil(many / BLOCK);
  const inside: Inside[] = [];
  const outside: EndToEnd[] = [];
  for (let pair = 0; pair < pairs; pair++) {
    inside.push(await timeInside(env, rounds, pair));
    outside.push(await timeEndToEnd(env, rounds, pair));
  }
  const [ourPing, barePing, ourAppend, bareAppend] = medians(inside);
  const [ourSdkPing, ourEndToEnd, endToEnd] = medians(outside);
  const us = (ms: number) => `${(ms * 1000).toFixed(0)} µs`;
  const target = OVER_BARE_APPEND;
  return {
    rows: [
      {
        what: "append_to_document, small pad",
        ms: ourAppend,
        floor: "bare SDK append (one raw edit)",
        floorMs: bareAppend,
        target,
      },
      {
        what: "append end to end (SDK)",
        ms: ourEndToEnd,
        floor: "bare SDK append, end to end",
        floorMs: endToEnd,
        target,
      },
    ],
    // Each share from figures timed alike: a fresh server of each, `many`
    // pings, then `many` appends. The bare append against our ping and raw
    // edit (the floor) is what the SDK alone leaves of its target.
    note: `the small pad's append, inside the server, medians of ${pairs} pair${
      pairs === 1 ? "" : "s"
    } of fresh servers: the bare floor (the bare server's ping + raw edit) ${
      us(barePing + rawEdit)
    }, the SDK's tool call ${
      us(bareAppend - barePing - rawEdit)
    }, our message path (our ping over the bare one) ${
      us(ourPing - barePing)
    }, our tool ${
      us(ourAppend - ourPing - (bareAppend - barePing))
    }; the bare append ${
      (bareAppend / (ourPing + rawEdit)).toFixed(2)
    }x our ping + raw edit; end to end, ours ${
      us(ourEndToEnd)
    } against the bare append's ${us(endToEnd)} (${
      (endToEnd / (ourSdkPing + rawEdit)).toFixed(2)
    }x our SDK ping + raw edit)`,
    endToEnd: { ping: ourSdkPing, append: ourEndToEnd },
  };
}

/** Each figure's median over the pairs of servers (each a row of figures). */
function medians<Figures extends readonly number[]>(
  figures: readonly Figures[],
): Figures {
  return figures[0]!.map((_, i) =>
    median(figures.map((pair) => pair[i]!))
  ) as unknown as Figures;
}

/** `call` as a task that resolves to the milliseconds it took. */
function took(call: () => Promise<unknown>): () => Promise<number> {
  return async () => {
    const start = performance.now();
    await call();
    return performance.now() - start;
  };
}

/** Our ping, the bare ping, our append, the bare append, inside. */
type Inside = [number, number, number, number];
/** Our SDK ping, our append and the bare append, end to end. */
type EndToEnd = [number, number, number];

/**
 * A fresh server of each, inside: our ping, the bare ping, our append and
 * the bare append, each the median of its blocks.
 */
async function timeInside(
  env: Record<string, string>,
  rounds: number,
  pair: number,
): Promise<Inside> {
  const mine = await RawRpc.start(`${ROOT}mod.ts`, env);
  const bare = await RawRpc.start(`${ROOT}${SCRIPT}`, env);
  const ping = (rpc: RawRpc) => took(() => rpc.call("ping", {}));
  const append = (rpc: RawRpc, id: string) => () =>
    rpc.timeTool("append_to_document", { id, text: "a line\n" });
  const [ourPing, barePing] = await timedInBlocks(rounds, BLOCK, [
    ping(mine),
    ping(bare),
  ]);
  const [ourAppend, bareAppend] = await timedInBlocks(rounds, BLOCK, [
    append(mine, `bench-share-ours-${pair}`),
    append(bare, `bench-share-bare-${pair}`),
  ]);
  await mine.close();
  await bare.close();
  return [ourPing, barePing, ourAppend, bareAppend];
}

/**
 * A fresh server of each, end to end through the 1.x client: our ping,
 * our append and the bare append, each the median of its blocks.
 */
async function timeEndToEnd(
  env: Record<string, string>,
  rounds: number,
  pair: number,
): Promise<EndToEnd> {
  const ourClient = await stdioClient("mod.ts", env.RUSTPAD_URL!);
  const bareClient = await stdioClient(SCRIPT, env.RUSTPAD_URL!);
  const [ourPing] = await timedInBlocks(rounds, BLOCK, [
    took(() => ourClient.ping()),
    took(() => bareClient.ping()),
  ]);
  const [ourAppend, bareAppend] = await timedInBlocks(rounds, BLOCK, [
    took(() =>
      callTool(ourClient, "append_to_document", {
        id: `bench-e2e-${pair}`,
        text: "a\n",
      })
    ),
    took(() =>
      callTool(bareClient, "append_to_document", {
        id: `bench-bare-e2e-${pair}`,
        text: "a\n",
      })
    ),
  ]);
  await ourClient.close();
  await bareClient.close();
  return [ourPing, ourAppend, bareAppend];
}
