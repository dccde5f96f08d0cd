// The concurrency row of bench/speed.ts: 100 appends sent at once over one
// SDK client against 100 edits pipelined on one raw socket, each append
// checked to land exactly once.

// @ts-types="@modelcontextprotocol/sdk/client/index"
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { RawSocket } from "./_raw_socket.ts";
import { callTool, type Row, timed } from "./_speed_tools.ts";

/**
 * Time `runs` rounds of each on fresh pads of `padUrl`.
 *
 * @returns The row, a note, and how many appends were lost or doubled.
 */
export async function concurrentRow(
  padUrl: string,
  client: Client,
  runs: number,
): Promise<{ row: Row; note: string; failures: number }> {
  const markers = Array.from({ length: 100 }, (_, k) => `<${k}>`);
  const pipelined = await timed(runs, async (i) => {
    const socket = await RawSocket.open(padUrl, `bench-pipe-${i + 10}`);
    await socket.pipeline(markers);
    socket.close();
  }, 1);
  let lost = 0;
  let doubled = 0;
  const concurrent = await timed(runs, async (i) => {
    const id = `bench-concurrent-${i + 10}`;
    await Promise.all(
      markers.map((text) =>
        callTool(client, "append_to_document", { id, text })
      ),
    );
    const text = await (await fetch(`${padUrl}/api/text/${id}`)).text();
    for (const marker of markers) {
      const count = text.split(marker).length - 1;
      if (count === 0) lost++;
      if (count > 1) doubled++;
    }
  }, 1);
  return {
    row: {
      what: "100 concurrent appends, one client",
      ms: concurrent,
      floor: "100 pipelined raw edits",
      floorMs: pipelined,
      target: 20,
    },
    note: `concurrent appends: ${lost} lost, ${doubled} doubled`,
    failures: lost + doubled,
  };
}
