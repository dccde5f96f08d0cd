/**
 * Each bound of the HTTP listener, the stdio transport and the Rustpad HTTP
 * client driven past its limit, with the figures at the limit: connections
 * the client holds, descriptors the server has open (/proc/<pid>/fd), its
 * resident memory, and the latency of a tool call made meanwhile by an SDK
 * client whose session was open before. Every scenario starts its own
 * `mod.ts --http` (or stdio) process with small settings.
 *
 * ```sh
 * bash -c 'ulimit -n 20000 && deno run -A bench/http_bounds.ts'
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
import { RustpadHttpClient } from "../src/rustpad/http_client.ts";
import { type PadServer, startPadServer } from "../src/testing/mod.ts";

const MOD = new URL("../mod.ts", import.meta.url).pathname;
const encoder = new TextEncoder();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Write all of `bytes` (a socket write may take only part of them). */
async function writeAll(conn: Deno.Conn, bytes: Uint8Array): Promise<void> {
  for (let written = 0; written < bytes.length;) {
    written += await conn.write(bytes.subarray(written));
  }
}

interface Server {
  url: URL;
  pid: number;
  stderr: () => string;
  stop: () => Promise<number>;
}

async function startServer(
  pads: PadServer,
  env: Record<string, string>,
  fileLimit?: number,
): Promise<Server> {
  const deno = [Deno.execPath(), "run", "-A", MOD, "--http", "127.0.0.1:0"];
  const [program, ...args] = fileLimit === undefined
    ? deno
    : ["bash", "-c", `ulimit -n ${fileLimit} && exec "$@"`, "-", ...deno];
  const child = new Deno.Command(program!, {
    args,
    env: { RUSTPAD_URL: pads.url, NO_COLOR: "1", ...env },
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).spawn();
  let text = "";
  const found = Promise.withResolvers<URL>();
  const reading = (async () => {
    for await (
      const chunk of child.stderr.pipeThrough(new TextDecoderStream())
    ) {
      text += chunk;
      const match = /serving MCP over HTTP at (http:\/\/\S+\/mcp)/.exec(text);
      if (match?.[1]) found.resolve(new URL(match[1]));
    }
    found.reject(new Error(`The server exited:\n${text}`));
  })();
  return {
    url: await found.promise,
    pid: child.pid,
    stderr: () => text,
    stop: async () => {
      child.kill("SIGTERM");
      const { code } = await child.status;
      await reading;
      return code;
    },
  };
}

function fds(pid: number): number {
  try {
    return [...Deno.readDirSync(`/proc/${pid}/fd`)].length;
  } catch {
    return -1;
  }
}

function rssMiB(pid: number): number {
  try {
    const status = Deno.readTextFileSync(`/proc/${pid}/status`);
    return Number(/^VmRSS:\s+(\d+) kB/m.exec(status)?.[1]) / 1024;
  } catch {
    return NaN;
  }
}

/** An SDK client calling a tool in a loop; its latencies. */
async function caller(url: URL, pad: string) {
  const transport = new StreamableHTTPClientTransport(url);
  const client = new Client({ name: "bounds-bench", version: "1.0.0" });
  await client.connect(transport);
  const latencies: number[] = [];
  const failures: string[] = [];
  let running = true;
  let calls = 0;
  const loop = (async () => {
    while (running) {
      const started = performance.now();
      try {
        const result = await client.callTool({
          name: "append_to_document",
          arguments: { id: pad, text: `[${calls}]` },
        }) as CallToolResult;
        if (result.isError) failures.push(JSON.stringify(result.content));
        else latencies.push(performance.now() - started);
      } catch (error) {
        failures.push((error as Error).message.slice(0, 80));
      }
      calls++;
      await sleep(200);
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      await transport.terminateSession().catch(() => {});
      await client.close();
      const sorted = [...latencies].sort((a, b) => a - b);
      const p50 = sorted[Math.floor(sorted.length / 2)] ?? NaN;
      return `tool calls ok ${latencies.length}/${calls} p50 ${
        p50.toFixed(1)
      } ms max ${Math.max(...latencies).toFixed(1)} ms${
        failures.length ? ` (failed: ${[...new Set(failures)].join("; ")})` : ""
      }`;
    },
  };
}

/** Track a server's peak descriptors and memory while `work` runs. */
async function peaks<T>(
  pid: number,
  work: () => Promise<T>,
): Promise<{ value: T; fds: number; rss: number }> {
  let peakFds = 0;
  let peakRss = 0;
  let running = true;
  const sampling = (async () => {
    while (running) {
      peakFds = Math.max(peakFds, fds(pid));
      peakRss = Math.max(peakRss, rssMiB(pid));
      await sleep(100);
    }
  })();
  const value = await work();
  running = false;
  await sampling;
  return { value, fds: peakFds, rss: peakRss };
}

/** Open `count` connections that each send `first`; resolves when all closed. */
async function connections(
  url: URL,
  count: number,
  first: string,
): Promise<{ opened: number; held: () => number; closed: Promise<string[]> }> {
  let open = 0;
  const answers: Promise<string>[] = [];
  const one = async (): Promise<void> => {
    const conn = await Deno.connect({ hostname: "127.0.0.1", port: +url.port });
    open++;
    answers.push((async () => {
      let text = "";
      try {
        await writeAll(conn, encoder.encode(first));
        const buffer = new Uint8Array(2048);
        for (let n = await conn.read(buffer); n !== null;) {
          text += new TextDecoder().decode(buffer.subarray(0, n));
          n = await conn.read(buffer);
        }
      } catch {
        // Reset.
      }
      open--;
      conn.close();
      return text;
    })());
  };
  // In batches, so all are open well within a deadline.
  for (let i = 0; i < count; i += 500) {
    await Promise.all(Array.from({ length: Math.min(500, count - i) }, one));
  }
  return { opened: count, held: () => open, closed: Promise.all(answers) };
}

function statusCounts(texts: string[]): string {
  const counts = new Map<string, number>();
  for (const text of texts) {
    const status = /^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? "closed, no answer";
    counts.set(status, (counts.get(status) ?? 0) + 1);
  }
  return [...counts].map(([status, n]) => `${status}: ${n}`).join(", ");
}

let scenarios = 0;

async function idleScenario(
  pads: PadServer,
  name: string,
  env: Record<string, string>,
  count: number,
  first: (url: URL) => string,
  fileLimit?: number,
): Promise<void> {
  const server = await startServer(pads, env, fileLimit);
  const baseline = fds(server.pid);
  const calls = await caller(server.url, `bench-${++scenarios}`);
  let heldPeak = 0;
  const measured = await peaks(server.pid, async () => {
    const flood = await connections(server.url, count, first(server.url));
    const watching = setInterval(
      () => heldPeak = Math.max(heldPeak, flood.held()),
      50,
    );
    const texts = await flood.closed;
    clearInterval(watching);
    return texts;
  });
  await sleep(300);
  const health = await fetch(new URL("/healthz", server.url));
  await health.body?.cancel();
  const tools = await calls.stop();
  const emfile = server.stderr().match(/Too many open files/g)?.length ?? 0;
  const after = fds(server.pid);
  const code = await server.stop();
  console.log(
    `${name}: ${count} connections, client held up to ${heldPeak}; answers ${
      statusCounts(measured.value)
    }; server fds baseline ${baseline}, peak ${measured.fds}, after ${after}; RSS peak ${
      measured.rss.toFixed(1)
    } MiB; EMFILE log lines ${emfile}; /healthz after ${health.status}; ${tools}; exit ${code}`,
  );
}

async function bodyScenario(pads: PadServer): Promise<void> {
  const server = await startServer(pads, {});
  const calls = await caller(server.url, "bench-body");
  const measured = await peaks(server.pid, async () => {
    // 20 clients at once, each sending chunks of a 300 MB body as fast as
    // the server takes them.
    const chunk = encoder.encode(`100000\r\n${"[".repeat(0x100000)}\r\n`);
    return await Promise.all(Array.from({ length: 20 }, async () => {
      const conn = await Deno.connect({
        hostname: "127.0.0.1",
        port: +server.url.port,
      });
      let sent = 0;
      let text = "";
      try {
        await writeAll(
          conn,
          encoder.encode(
            `POST /mcp HTTP/1.1\r\nhost: ${server.url.host}\r\ncontent-type: application/json\r\naccept: application/json, text/event-stream\r\ntransfer-encoding: chunked\r\n\r\n`,
          ),
        );
        const reading = (async () => {
          const buffer = new Uint8Array(4096);
          for (let n = await conn.read(buffer); n !== null;) {
            text += new TextDecoder().decode(buffer.subarray(0, n));
            n = await conn.read(buffer);
          }
        })().catch(() => {});
        while (sent < 300 && text === "") {
          await writeAll(conn, chunk);
          sent++;
        }
        await reading;
      } catch {
        // Reset once the server answered and closed.
      }
      conn.close();
      return { sent, text };
    }));
  });
  const tools = await calls.stop();
  await server.stop();
  console.log(
    `body cap (8 MiB, 20 clients sending 300 MB chunked bodies at once): answers ${
      statusCounts(measured.value.map((result) => result.text))
    }; MiB sent per client before the answer ${
      Math.min(...measured.value.map((r) => r.sent))
    }-${
      Math.max(...measured.value.map((r) => r.sent))
    }; server fds peak ${measured.fds}; RSS peak ${
      measured.rss.toFixed(1)
    } MiB; ${tools}`,
  );
}

async function trickleScenario(pads: PadServer): Promise<void> {
  const server = await startServer(pads, { RUSTPAD_MCP_MAX_SESSIONS: "5" });
  const body = encoder.encode(JSON.stringify({
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: {
      protocolVersion: "2025-11-25",
      capabilities: {},
      clientInfo: { name: "trickle", version: "1" },
    },
  }));
  const tricklers = await Promise.all(Array.from({ length: 20 }, async () => {
    const conn = await Deno.connect({
      hostname: "127.0.0.1",
      port: +server.url.port,
    });
    await writeAll(
      conn,
      encoder.encode(
        `POST /mcp HTTP/1.1\r\nhost: ${server.url.host}\r\ncontent-type: application/json\r\naccept: application/json, text/event-stream\r\ncontent-length: ${body.length}\r\n\r\n`,
      ),
    );
    return conn;
  }));
  let stop = false;
  const trickling = tricklers.map(async (conn) => {
    for (let i = 0; i < body.length && !stop; i++) {
      try {
        await conn.write(body.subarray(i, i + 1));
      } catch {
        break;
      }
      await sleep(500);
    }
  });
  await sleep(1000);
  const started = performance.now();
  const calls = await caller(server.url, "bench-trickle");
  const initialized = performance.now() - started;
  await sleep(2000);
  const tools = await calls.stop();
  stop = true;
  for (const conn of tricklers) conn.close();
  await Promise.all(trickling);
  console.log(
    `trickled initializes (20 bodies at 2 bytes/s, 5 session slots): a real client initialized in ${
      initialized.toFixed(1)
    } ms; server fds ${fds(server.pid)}, RSS ${
      rssMiB(server.pid).toFixed(1)
    } MiB; ${tools}`,
  );
  await server.stop();
}

async function upstreamScenario(): Promise<void> {
  let sent = 0;
  const chunk = new Uint8Array(65_536).fill(0x61);
  await using server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    (request) =>
      new URL(request.url).pathname === "/api/stats"
        ? new Response(null, {
          status: 302,
          headers: { location: "http://elsewhere.example/api/stats" },
        })
        : new Response(
          new ReadableStream({
            pull(controller) {
              sent += chunk.length;
              controller.enqueue(chunk);
            },
          }),
        ),
  );
  const client = new RustpadHttpClient(`http://127.0.0.1:${server.addr.port}`);
  const before = Deno.memoryUsage().rss / 2 ** 20;
  const started = performance.now();
  const endless = await client.getText("pad").catch((error) => error.message);
  const elapsed = performance.now() - started;
  const after = Deno.memoryUsage().rss / 2 ** 20;
  const redirect = await client.getStats().catch((error) => error.message);
  console.log(
    `upstream endless body: cut after ${elapsed.toFixed(1)} ms, ${
      (sent / 2 ** 20).toFixed(1)
    } MiB produced by the upstream, RSS ${before.toFixed(1)} -> ${
      after.toFixed(1)
    } MiB: "${endless.slice(0, 140)}…"`,
  );
  console.log(`upstream 302: "${redirect}"`);
}

async function stdioScenario(pads: PadServer): Promise<void> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", MOD],
    env: { RUSTPAD_URL: pads.url, NO_COLOR: "1" },
    stdin: "piped",
    stdout: "piped",
    stderr: "null",
  }).spawn();
  const writer = child.stdin.getWriter();
  const lines = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let stdout = "";
  const answer = async (id: number) => {
    while (!stdout.includes(`"id":${id}`)) {
      const { value, done } = await lines.read();
      if (done) throw new Error("stdout ended");
      stdout += value;
    }
  };
  const send = (message: string) =>
    writer.write(encoder.encode(`${message}\n`));
  await send(JSON.stringify({
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: {
      protocolVersion: "2025-11-25",
      capabilities: {},
      clientInfo: { name: "bench", version: "1" },
    },
  }));
  await answer(1);
  await send('{"jsonrpc":"2.0","method":"notifications/initialized"}');
  const call = (id: number) =>
    JSON.stringify({
      jsonrpc: "2.0",
      id,
      method: "tools/call",
      params: {
        name: "append_to_document",
        arguments: { id: "bench-stdio", text: `[${id}]` },
      },
    });
  const started = performance.now();
  await send(
    `{"method":"tools/call","params":{"text":"${
      "x".repeat(64 * 1024 * 1024)
    }"},"jsonrpc":"2.0","id":2}`,
  );
  await answer(2);
  const refused = performance.now() - started;
  const next = performance.now();
  await send(call(3));
  await answer(3);
  const served = performance.now() - next;
  const rss = rssMiB(child.pid);
  await writer.close();
  while (!(await lines.read()).done);
  const { code } = await child.status;
  console.log(
    `stdio 64 MiB line (cap 8 MiB): JSON-RPC error ${
      refused.toFixed(0)
    } ms after the line started, next call answered in ${
      served.toFixed(1)
    } ms; server RSS ${rss.toFixed(1)} MiB; exit ${code}`,
  );
}

await using pads = await startPadServer();
const half = () => "GET /healthz HT";
const healthz = (url: URL) =>
  `GET /healthz HTTP/1.1\r\nhost: ${url.host}\r\n\r\n`;
await idleScenario(
  pads,
  "half requests (deadline 2 s, cap 10000)",
  {
    RUSTPAD_MCP_REQUEST_TIMEOUT_MS: "2000",
    RUSTPAD_MCP_MAX_CONNECTIONS: "10000",
  },
  5000,
  half,
);
await idleScenario(
  pads,
  "idle keep-alive (timeout 2 s, cap 10000)",
  {
    RUSTPAD_MCP_KEEP_ALIVE_TIMEOUT_MS: "2000",
    RUSTPAD_MCP_MAX_CONNECTIONS: "10000",
  },
  5000,
  healthz,
);
await idleScenario(
  pads,
  "connection cap (500, deadline 2 s)",
  {
    RUSTPAD_MCP_MAX_CONNECTIONS: "500",
    RUSTPAD_MCP_REQUEST_TIMEOUT_MS: "2000",
  },
  5000,
  half,
);
await idleScenario(
  pads,
  "ulimit -n 256 (cap lowered to 192, deadline 2 s)",
  { RUSTPAD_MCP_REQUEST_TIMEOUT_MS: "2000" },
  1000,
  half,
  256,
);
await idleScenario(
  pads,
  "ulimit -n 64 (EMFILE, deadline 1 s)",
  { RUSTPAD_MCP_REQUEST_TIMEOUT_MS: "1000" },
  300,
  half,
  64,
);
await bodyScenario(pads);
await trickleScenario(pads);
await upstreamScenario();
await stdioScenario(pads);
