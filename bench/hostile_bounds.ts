/**
 * The hostile probe's cases (issue 27, points 16-18) against a `mod.ts
 * --http` process, with the figures at each bound: the server's resident
 * memory (/proc/<pid>/status) before and at its peak, how long the hostile
 * call took, and how long `/healthz` and a tool call by another client
 * took meanwhile. `BENCH_MOD` runs another checkout's `mod.ts`, to compare.
 *
 * ```sh
 * deno run -A bench/hostile_bounds.ts
 * ```
 *
 * @module
 */

// @ts-types="@modelcontextprotocol/sdk/client/index"
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
// @ts-types="@modelcontextprotocol/sdk/client/streamableHttp"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
// @ts-types="@modelcontextprotocol/sdk/types"
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { startPadServer } from "../src/testing/mod.ts";

const MOD = Deno.env.get("BENCH_MOD") ??
  new URL("../mod.ts", import.meta.url).pathname;
const encoder = new TextEncoder();
const FULL_PAD = 262_144;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function rssMiB(pid: number): number {
  const status = Deno.readTextFileSync(`/proc/${pid}/status`);
  return Number(/^VmRSS:\s+(\d+) kB/m.exec(status)?.[1]) / 1024;
}

async function writeAll(conn: Deno.Conn, bytes: Uint8Array): Promise<void> {
  for (let written = 0; written < bytes.length;) {
    written += await conn.write(bytes.subarray(written));
  }
}

/** Read until the server closes; the bytes read. */
async function drain(conn: Deno.Conn): Promise<string> {
  const buffer = new Uint8Array(65_536);
  let text = "";
  try {
    for (let n = await conn.read(buffer); n !== null;) {
      if (text.length < 4096) {
        text += new TextDecoder().decode(buffer.subarray(0, n));
      }
      n = await conn.read(buffer);
    }
  } catch {
    // Reset: the server dropped us.
  }
  return text;
}

const pads = await startPadServer();
const child = new Deno.Command(Deno.execPath(), {
  args: ["run", "-A", MOD, "--http", "127.0.0.1:0"],
  env: { RUSTPAD_URL: pads.url, NO_COLOR: "1" },
  stdin: "null",
  stdout: "null",
  stderr: "piped",
}).spawn();
const stderr = child.stderr.pipeThrough(new TextDecoderStream()).getReader();
let banner = "";
let url: URL | undefined;
while (url === undefined) {
  const { value, done } = await stderr.read();
  if (done) throw new Error(`The server exited:\n${banner}`);
  banner += value;
  const match = /serving MCP over HTTP at (http:\/\/\S+\/mcp)/.exec(banner);
  if (match?.[1]) url = new URL(match[1]);
}
void (async () => {
  while (!(await stderr.read()).done);
})();
const pid = child.pid;

async function connect(): Promise<Client> {
  const client = new Client({ name: "hostile-bench", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(url!));
  return client;
}

/** Run `work` while sampling RSS and timing /healthz and a tool call. */
async function measure(
  name: string,
  work: () => Promise<string>,
): Promise<void> {
  const before = rssMiB(pid);
  let peak = before;
  let running = true;
  const health: number[] = [];
  const calls: number[] = [];
  const bystander = await connect();
  const sampler = (async () => {
    while (running) {
      peak = Math.max(peak, rssMiB(pid));
      await sleep(50);
    }
  })();
  const prober = (async () => {
    while (running) {
      let started = performance.now();
      const response = await fetch(new URL("/healthz", url));
      await response.body?.cancel();
      health.push(performance.now() - started);
      started = performance.now();
      const result = await bystander.callTool({
        name: "get_stats",
        arguments: {},
      }).catch(() => undefined) as CallToolResult | undefined;
      if (result !== undefined && result.isError !== true) {
        calls.push(performance.now() - started);
      }
      await sleep(100);
    }
  })();
  const started = performance.now();
  const outcome = await work().catch((error: Error) =>
    `failed: ${error.message.slice(0, 80)}`
  );
  const took = performance.now() - started;
  running = false;
  await Promise.all([sampler, prober]);
  await bystander.close();
  const max = (values: number[]) =>
    values.length === 0 ? "none" : `${Math.max(...values).toFixed(0)} ms`;
  console.log(
    `${name}: ${outcome}; took ${took.toFixed(0)} ms; RSS ${
      before.toFixed(0)
    } -> peak ${peak.toFixed(0)} MiB; meanwhile /healthz max ${
      max(health)
    }, get_stats max ${max(calls)} (${calls.length} calls)`,
  );
}

const agent = await connect();
const call = async (name: string, args: Record<string, unknown>) =>
  await agent.callTool({ name, arguments: args }) as CallToolResult;
await call("append_to_document", { id: "full", text: "a".repeat(FULL_PAD) });
await call("append_to_document", {
  id: "crlf",
  text: "\r\n".repeat(FULL_PAD / 2),
});

const summary = (result: CallToolResult): string => {
  const [part] = result.content as { text?: string }[];
  return `${result.isError ? "refused" : "answered"} "${
    part?.text?.slice(0, 70)
  }…"`;
};

// Point 16: matches found before the overlap check.
await measure(
  "16 edit_document 100 x replace_all 'a' (dry_run)",
  async () =>
    summary(
      await call("edit_document", {
        id: "full",
        dry_run: true,
        edits: Array.from({ length: 100 }, () => ({
          old_string: "a",
          new_string: "",
          replace_all: true,
        })),
      }),
    ),
);
await measure(
  "16 edit_document '\\n','\\r\\n','\\n\\r' on 131,072 CRLF (the match bound)",
  async () =>
    summary(
      await call("edit_document", {
        id: "crlf",
        dry_run: true,
        edits: ["\n", "\r\n", "\n\r"].map((old_string) => ({
          old_string,
          new_string: "",
          replace_all: true,
        })),
      }),
    ),
);

// Point 17: a huge answer to a client that never reads.
const session = (agent.transport as StreamableHTTPClientTransport).sessionId!;
const post = (body: string, extra = "") =>
  `POST /mcp HTTP/1.1\r\nhost: ${url.host}\r\ncontent-type: application/json\r\naccept: application/json, text/event-stream\r\nmcp-session-id: ${session}\r\nmcp-protocol-version: 2025-11-25\r\n${extra}content-length: ${
    encoder.encode(body).length
  }\r\n\r\n${body}`;
/** Four connections POST a batch of `calls` get_document of the full pad and never read. */
let nextId = 1000;
const neverRead = (calls: number, waitMs: number) => async () => {
  // Ids unique in the session: a reused one leaves a stream hanging.
  const batch = () =>
    JSON.stringify(
      Array.from({ length: calls }, () => ({
        jsonrpc: "2.0",
        id: nextId++,
        method: "tools/call",
        params: { name: "get_document", arguments: { id: "full" } },
      })),
    );
  const conns = await Promise.all(
    [1, 2, 3, 4].map(() =>
      Deno.connect({ hostname: "127.0.0.1", port: +url.port })
    ),
  );
  for (const conn of conns) await writeAll(conn, encoder.encode(post(batch())));
  await sleep(waitMs);
  // Read what is left: a dropped connection ends short of the answer.
  const received = await Promise.all(conns.map(async (conn) => {
    const buffer = new Uint8Array(1 << 20);
    let total = 0;
    try {
      for (let n = await conn.read(buffer); n !== null;) {
        total += n;
        n = await conn.read(buffer);
      }
    } catch {
      // Reset by the server.
    }
    conn.close();
    return (total / (1 << 20)).toFixed(1);
  }));
  return `each received ${received.join(", ")} MiB then the server closed`;
};
await measure(
  "17 four connections, 24 get_document each, never read for 35 s",
  neverRead(24, 35_000),
);
await measure(
  "17 four connections, 100 get_document each, never read for 5 s",
  neverRead(100, 5000),
);

// Point 18: a body in one-byte chunks, four at once.
await measure("18 four bodies of 1,000,000 one-byte chunks", async () => {
  const texts = await Promise.all([1, 2, 3, 4].map(async () => {
    const conn = await Deno.connect({ hostname: "127.0.0.1", port: +url.port });
    const head = post("", "transfer-encoding: chunked\r\n").replace(
      "content-length: 0\r\n",
      "",
    );
    const reading = drain(conn);
    try {
      await writeAll(conn, encoder.encode(head));
      const block = encoder.encode("1\r\n[\r\n".repeat(10_000));
      for (let i = 0; i < 100; i++) await writeAll(conn, block);
      await writeAll(conn, encoder.encode("0\r\n\r\n"));
    } catch {
      // Refused and closed midway.
    }
    const text = await reading;
    conn.close();
    return /^HTTP\/1\.1 (\d+)/.exec(text)?.[1] ?? "closed";
  }));
  return `statuses ${texts.join(", ")}`;
});

// Point 18: slow uploads declaring 8 MiB hold the shared budget.
await measure(
  "18 four uploads declaring 8 MiB, 1 byte a second, and a POST meanwhile",
  async () => {
    const slow = await Promise.all([1, 2, 3, 4].map(async () => {
      const conn = await Deno.connect({
        hostname: "127.0.0.1",
        port: +url.port,
      });
      await writeAll(
        conn,
        encoder.encode(
          post("").replace("content-length: 0", "content-length: 8388608") +
            "[",
        ),
      );
      return conn;
    }));
    const trickle = setInterval(() => {
      for (const conn of slow) conn.write(encoder.encode(" ")).catch(() => {});
    }, 1000);
    await sleep(200);
    const started = performance.now();
    await call("get_stats", {});
    const waited = performance.now() - started;
    clearInterval(trickle);
    const statuses = await Promise.all(slow.map(async (conn) => {
      const text = await Promise.race([
        drain(conn),
        sleep(15_000).then(() => ""),
      ]);
      conn.close();
      return /^HTTP\/1\.1 (\d+)/.exec(text)?.[1] ?? "open";
    }));
    return `a tool call waited ${waited.toFixed(0)} ms; the slow ones got ${
      statuses.join(", ")
    }`;
  },
);

await agent.close();
child.kill("SIGTERM");
await child.status;
await pads.close();
