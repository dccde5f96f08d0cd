// The 2026-era load of bench/speed.ts: many v2 clients pinned to
// 2026-07-28 over Streamable HTTP, each calling in a loop for a while;
// calls per second and the p50 and p95 of one call.

import {
  Client,
  StreamableHTTPClientTransport,
} from "@modelcontextprotocol/client";

/** What one load run measured. */
export interface Load {
  callsPerSecond: number;
  p50: number;
  p95: number;
}

/**
 * `clients` pinned clients of `url`, each running `round` until `seconds`
 * pass; each call of a round is timed by `call`.
 */
export async function load(
  url: string,
  clients: number,
  seconds: number,
  round: (call: Call, index: number) => Promise<void>,
): Promise<Load> {
  const connected = await Promise.all(
    Array.from({ length: clients }, async () => {
      const client = new Client({ name: "load", version: "1.0.0" }, {
        versionNegotiation: { mode: { pin: "2026-07-28" } },
      });
      await client.connect(new StreamableHTTPClientTransport(new URL(url)));
      return client;
    }),
  );
  const latencies: number[] = [];
  const started = performance.now();
  const until = started + seconds * 1000;
  await Promise.all(connected.map(async (client, index) => {
    const call: Call = async (name, args) => {
      const begun = performance.now();
      const result = await client.callTool({ name, arguments: args });
      latencies.push(performance.now() - begun);
      if (result.isError) {
        throw new Error(`${name} failed: ${JSON.stringify(result.content)}`);
      }
    };
    while (performance.now() < until) await round(call, index);
  }));
  const elapsed = (performance.now() - started) / 1000;
  await Promise.all(connected.map((client) => client.close()));
  latencies.sort((a, b) => a - b);
  const at = (q: number) =>
    latencies[
      Math.min(latencies.length - 1, Math.floor(q * latencies.length))
    ]!;
  return {
    callsPerSecond: latencies.length / elapsed,
    p50: at(0.5),
    p95: at(0.95),
  };
}

/** Call a tool, timed. */
export type Call = (
  name: string,
  args: Record<string, unknown>,
) => Promise<void>;
