/**
 * What a pad's log costs as it grows, the measure behind the pad server's
 * compaction bound (`maxLogOperations`, 10,000; see docs/pad_store.md): a
 * log of N operations of one typed character each, at random places, in a
 * SQLite pads file; how long reading it back takes, how long the first
 * socket waits for the whole `History` (read, replay, encode), and that
 * frame's size, which every joiner receives. No target: it informs the
 * bound.
 *
 * ```sh
 * deno run -A bench/pad_log_bound.ts
 * ```
 *
 * @module
 */

import {
  type LoggedOperation,
  SqlitePadDatabase,
  startPadServer,
} from "../src/pad_server/mod.ts";
import { TextOperation } from "../src/ot/operation.ts";

const SIZES = [1_000, 10_000, 100_000];

/** A log of `count` one-character inserts at random places. */
function typedLog(count: number): LoggedOperation[] {
  const author = { userId: 0, name: "Ada", agent: false };
  const log: LoggedOperation[] = [];
  for (let length = 0; length < count; length++) {
    const at = Math.floor(Math.random() * (length + 1));
    const operation = new TextOperation().retain(at).insert("x")
      .retain(length - at);
    log.push({ author, operation });
  }
  return log;
}

/** Milliseconds until the first socket has the whole History, and its size. */
async function firstJoin(url: string): Promise<{ ms: number; bytes: number }> {
  const start = performance.now();
  const socket = new WebSocket(`${url}/api/socket/pad`);
  const bytes = await new Promise<number>((resolve) => {
    socket.onmessage = ({ data }) => {
      if (data.startsWith('{"History"')) resolve(new Blob([data]).size);
    };
  });
  const ms = performance.now() - start;
  socket.close();
  await new Promise((resolve) => socket.onclose = resolve);
  return { ms, bytes };
}

const dir = await Deno.makeTempDir();
try {
  for (const count of SIZES) {
    const path = `${dir}/log-${count}.sqlite`;
    {
      using database = new SqlitePadDatabase(path);
      database.write([{
        padId: "pad",
        from: 0,
        operations: typedLog(count),
        language: null,
        nextUserId: 1,
      }]);
    }
    using database = new SqlitePadDatabase(path);
    const start = performance.now();
    database.load("pad");
    const readMs = performance.now() - start;
    const join = await (async () => {
      await using server = await startPadServer({ database, log: () => {} });
      return await firstJoin(server.url);
    })();
    console.log(
      `${count.toLocaleString("en")} operations: read ${
        readMs.toFixed(0)
      } ms, first join ${join.ms.toFixed(0)} ms, History ${
        (join.bytes / 1024).toFixed(0)
      } KiB, file ${(Deno.statSync(path).size / 1024).toFixed(0)} KiB`,
    );
  }
} finally {
  await Deno.remove(dir, { recursive: true });
}
