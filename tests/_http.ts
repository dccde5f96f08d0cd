// A harness for the HTTP server: a pad server, one backend and serveHttp on
// loopback port 0, SDK clients over Streamable HTTP, and the server's
// access log; or the CLI as a subprocess (`mod.ts --http 127.0.0.1:0`) whose
// stderr names the bound URL.

// @ts-types="@modelcontextprotocol/sdk/client/index"
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
// @ts-types="@modelcontextprotocol/sdk/client/streamableHttp"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
// @ts-types="@modelcontextprotocol/sdk/types"
import {
  type CallToolResult,
  type ElicitRequest,
  ElicitRequestSchema,
  type ElicitResult,
} from "@modelcontextprotocol/sdk/types.js";
import {
  type Backend,
  createBackend,
  type HttpServer,
  type HttpServerOptions,
  loadConfig,
  serveHttp,
} from "../src/mod.ts";
import { type PadServer, startPadServer } from "../src/testing/mod.ts";
import { INITIALIZE } from "./_jsonrpc.ts";

export interface HttpHarness extends AsyncDisposable {
  pads: PadServer;
  backend: Backend;
  server: HttpServer;
  /** Access-log lines, in order. */
  log: string[];
}

export async function startHttp(
  options: HttpServerOptions & { env?: Record<string, string> } = {},
): Promise<HttpHarness> {
  const pads = await startPadServer();
  const backend = createBackend(
    loadConfig({ RUSTPAD_URL: pads.url, ...options.env }),
  );
  const log: string[] = [];
  const server = serveHttp(backend, {
    log: (line: string) => log.push(line),
    ...options,
  });
  return {
    pads,
    backend,
    server,
    log,
    async [Symbol.asyncDispose]() {
      await server.shutdown();
      await backend.close();
      await pads.close();
    },
  };
}

export interface HttpClientOptions {
  token?: string;
  elicit?: (
    request: ElicitRequest["params"],
  ) => ElicitResult | Promise<ElicitResult>;
}

export interface McpHttpClient extends AsyncDisposable {
  client: Client;
  transport: StreamableHTTPClientTransport;
  call(name: string, args?: Record<string, unknown>): Promise<CallToolResult>;
}

/** An SDK client connected to `url` over Streamable HTTP. */
export async function connectHttp(
  url: URL,
  options: HttpClientOptions = {},
): Promise<McpHttpClient> {
  const transport = new StreamableHTTPClientTransport(url, {
    requestInit: options.token === undefined
      ? {}
      : { headers: { authorization: `Bearer ${options.token}` } },
  });
  const client = new Client(
    { name: "http-test-client", version: "1.0.0" },
    options.elicit ? { capabilities: { elicitation: { form: {} } } } : {},
  );
  if (options.elicit) {
    const answer = options.elicit;
    client.setRequestHandler(
      ElicitRequestSchema,
      (request) => answer(request.params),
    );
  }
  await client.connect(transport);
  return {
    client,
    transport,
    call: async (name, args = {}) =>
      await client.callTool({ name, arguments: args }) as CallToolResult,
    async [Symbol.asyncDispose]() {
      await transport.terminateSession().catch(() => {});
      await client.close();
    },
  };
}

const INITIALIZE_BODY = JSON.stringify(INITIALIZE);

/**
 * The status of an initialize POST sent over a bare socket: fetch does not
 * let a caller set Host, and DNS-rebinding tests must.
 */
export async function initializeStatus(
  url: URL,
  headers: Record<string, string>,
): Promise<number> {
  const connection = await Deno.connect({
    hostname: url.hostname,
    port: Number(url.port),
  });
  try {
    const body = new TextEncoder().encode(INITIALIZE_BODY);
    const lines = [
      `POST ${url.pathname} HTTP/1.1`,
      "content-type: application/json",
      "accept: application/json, text/event-stream",
      `content-length: ${body.length}`,
      "connection: close",
      ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
    ];
    await connection.write(
      new TextEncoder().encode(`${lines.join("\r\n")}\r\n\r\n`),
    );
    await connection.write(body);
    const buffer = new Uint8Array(64);
    const read = await connection.read(buffer) ?? 0;
    const status = /^HTTP\/1\.1 (\d{3})/.exec(
      new TextDecoder().decode(buffer.subarray(0, read)),
    );
    if (!status?.[1]) throw new Error("No HTTP status line");
    return Number(status[1]);
  } finally {
    connection.close();
  }
}

/** A raw initialize POST, for status-code tests. */
export async function initialize(
  url: URL,
  headers: Record<string, string> = {},
): Promise<Response> {
  return await fetch(url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      ...headers,
    },
    body: INITIALIZE_BODY,
  });
}

export interface CliServer extends AsyncDisposable {
  url: URL;
  process: Deno.ChildProcess;
  /** Everything on stderr so far. */
  stderr(): string;
  /** Wait for exit; the exit code. */
  exited(): Promise<number>;
}

/**
 * `deno run -A mod.ts --http 127.0.0.1:0` with `env`; resolves once
 * listening. With `fileLimit`, it runs under `ulimit -n` through bash, as
 * the same process (exec), so its pid is the server's; with `entry`, it
 * runs that module instead of mod.ts (the built bundle/mod.js).
 */
export async function spawnCli(
  env: Record<string, string>,
  flags: string[] = ["--http", "127.0.0.1:0"],
  options: { fileLimit?: number; entry?: string } = {},
): Promise<CliServer> {
  const deno = [
    Deno.execPath(),
    "run",
    "-A",
    options.entry ?? new URL("../mod.ts", import.meta.url).pathname,
    ...flags,
  ];
  const [program, ...args] = options.fileLimit === undefined ? deno : [
    "bash",
    "-c",
    `ulimit -n ${options.fileLimit} && exec "$@"`,
    "-",
    ...deno,
  ];
  const process = new Deno.Command(program!, {
    args,
    env: { NO_COLOR: "1", ...env },
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).spawn();
  let text = "";
  const found = Promise.withResolvers<URL>();
  const reading = (async () => {
    for await (
      const chunk of process.stderr.pipeThrough(new TextDecoderStream())
    ) {
      text += chunk;
      const match = /serving MCP over HTTP at (http:\/\/\S+\/mcp)/.exec(text);
      if (match?.[1]) found.resolve(new URL(match[1]));
    }
    found.reject(new Error(`The server exited without listening:\n${text}`));
  })();
  const status = process.status;
  const url = await found.promise;
  let exited: Promise<number> | undefined;
  const exit = () =>
    exited ??= Promise.all([status, reading]).then(([{ code }]) => code);
  return {
    url,
    process,
    stderr: () => text,
    exited: exit,
    async [Symbol.asyncDispose]() {
      try {
        process.kill("SIGTERM");
      } catch {
        // Already gone.
      }
      await exit();
    },
  };
}
