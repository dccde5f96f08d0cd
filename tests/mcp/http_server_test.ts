import assert from "node:assert/strict";
// @ts-types="@modelcontextprotocol/sdk/types"
import {
  type CallToolResult,
  ResourceUpdatedNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import {
  createBackend,
  loadConfig,
  serveHttp,
  VERSION,
} from "../../src/mod.ts";
import {
  connectHttp,
  initialize,
  initializeStatus,
  startHttp,
} from "../_http.ts";
import { RawPerson } from "../_person.ts";
import { structured, waitFor } from "../_mcp.ts";

const TOKEN = "correct-horse-battery-staple-0123456789";

Deno.test("HTTP without a token on loopback serves MCP tools at /mcp", async () => {
  await using http = await startHttp();
  await using agent = await connectHttp(http.server.url);
  const { tools } = await agent.client.listTools();
  assert.ok(tools.some((tool) => tool.name === "append_to_document"));
  structured(await agent.call("append_to_document", { id: "a", text: "hi" }));
  assert.equal(http.pads.text("a"), "hi");
});

Deno.test("HTTP sessions share one pad connection per pad", async () => {
  await using http = await startHttp();
  await using person = await RawPerson.open(http.pads.url, "shared");
  const agents = await Promise.all(
    [1, 2, 3].map(() => connectHttp(http.server.url)),
  );
  try {
    await Promise.all(
      agents.map((agent, index) =>
        agent.call("append_to_document", { id: "shared", text: `${index}` })
      ),
    );
    await waitFor(() => person.text.length === 3, "the three appends");
    const agentIds = new Set(
      person.frames.map((frame) => JSON.parse(frame))
        .filter((message) => message.UserInfo?.info?.name === "rustpad-mcp")
        .map((message) => message.UserInfo.id),
    );
    assert.equal(agentIds.size, 1);
    assert.equal(http.server.sessionCount, 3);
  } finally {
    for (const agent of agents) await agent[Symbol.asyncDispose]();
  }
});

Deno.test("HTTP carries progress and resource updates over SSE, across sessions on one backend", async () => {
  await using http = await startHttp();
  await using watcher = await connectHttp(http.server.url);
  await using writer = await connectHttp(http.server.url);
  const updated: string[] = [];
  watcher.client.setNotificationHandler(
    ResourceUpdatedNotificationSchema,
    (notification) => {
      updated.push(notification.params.uri);
    },
  );
  structured(await writer.call("append_to_document", { id: "n", text: "a" }));
  await watcher.client.subscribeResource({ uri: "rustpad://pad/n" });
  const progress: number[] = [];
  const waiting = watcher.client.callTool(
    {
      name: "wait_for_change",
      arguments: { id: "n", since_revision: 1, timeout_seconds: 2 },
    },
    undefined,
    { onprogress: ({ progress: done }) => progress.push(done) },
  );
  await waitFor(() => progress.length >= 1, "a progress notification");
  structured(await writer.call("append_to_document", { id: "n", text: "b" }));
  const waited = structured(await waiting as CallToolResult);
  assert.equal(waited.changed, true);
  await waitFor(
    () => updated.includes("rustpad://pad/n"),
    "the resource update",
  );
});

Deno.test("HTTP with a token answers 401 with WWW-Authenticate unless the bearer token is right, and never logs it", async () => {
  await using http = await startHttp({ token: TOKEN });
  const missing = await initialize(http.server.url);
  assert.equal(missing.status, 401);
  assert.match(missing.headers.get("www-authenticate") ?? "", /^Bearer /);
  await missing.body?.cancel();
  const wrong = await initialize(http.server.url, {
    authorization: `Bearer ${TOKEN.slice(0, -1)}x`,
  });
  assert.equal(wrong.status, 401);
  assert.match(wrong.headers.get("www-authenticate") ?? "", /invalid_token/);
  await wrong.body?.cancel();
  await using agent = await connectHttp(http.server.url, { token: TOKEN });
  assert.ok((await agent.client.listTools()).tools.length > 0);
  assert.ok(http.log.length >= 3);
  assert.ok(http.log.every((line) => !line.includes(TOKEN.slice(0, 12))));
  assert.ok(http.log.some((line) => / POST \/mcp 401 /.test(line)));
});

Deno.test("HTTP logs one line per request: method, path, status and time, without query or token", async () => {
  await using http = await startHttp({ token: TOKEN });
  const before = http.log.length;
  const health = await fetch(
    new URL(`/healthz?token=${TOKEN}`, http.server.url),
  );
  await health.body?.cancel();
  const refused = await initialize(http.server.url, {
    authorization: `Bearer ${TOKEN}x`,
  });
  await refused.body?.cancel();
  const lines = http.log.slice(before);
  assert.equal(lines.length, 2);
  assert.match(
    lines[0]!,
    /^rustpad-mcp http: GET \/healthz 200 \d+ms session=-$/,
  );
  assert.match(lines[1]!, /^rustpad-mcp http: POST \/mcp 401 \d+ms session=-$/);
});

Deno.test("HTTP refuses a foreign Host or Origin with 403 and accepts loopback ones", async () => {
  await using http = await startHttp();
  const url = http.server.url;
  const port = url.port;
  for (
    const headers of [
      { host: "evil.example.com" },
      { host: `evil.example.com:${port}`, origin: `http://${url.host}` },
      { host: url.host, origin: "http://evil.example.com" },
      { host: url.host, origin: `http://127.0.0.1.evil.example.com:${port}` },
    ]
  ) {
    assert.equal(
      await initializeStatus(url, headers),
      403,
      JSON.stringify(headers),
    );
  }
  for (const name of ["localhost", "127.0.0.1", "[::1]"]) {
    const headers = {
      host: `${name}:${port}`,
      origin: `http://${name}:${port}`,
    };
    assert.equal(await initializeStatus(url, headers), 200, name);
  }
});

Deno.test("HTTP accepts hosts and origins added to the allow-lists", async () => {
  await using http = await startHttp({
    allowedHosts: ["mcp.example.com"],
    allowedOrigins: ["https://agents.example.com"],
  });
  const url = http.server.url;
  assert.equal(
    await initializeStatus(url, {
      host: "mcp.example.com:443",
      origin: "https://agents.example.com",
    }),
    200,
  );
  assert.equal(
    await initializeStatus(url, {
      host: url.host,
      origin: "https://other.example.com",
    }),
    403,
  );
});

Deno.test("serveHttp refuses a non-loopback address without a token, and a short token", async () => {
  await using backend = createBackend(loadConfig({}));
  assert.throws(
    () => serveHttp(backend, { hostname: "0.0.0.0", log: () => {} }),
    /^RangeError: Cannot serve HTTP on 0\.0\.0\.0 without a token .*set RUSTPAD_MCP_TOKEN/,
  );
  assert.throws(
    () => serveHttp(backend, { token: "short", log: () => {} }),
    /at least 32 characters: current length is 5/,
  );
});

Deno.test("GET /healthz answers 200 with the version without waiting on Rustpad", async () => {
  // Nothing listens on port 9: any Rustpad access would fail.
  await using backend = createBackend(
    loadConfig({ RUSTPAD_URL: "http://127.0.0.1:9" }),
  );
  await using server = serveHttp(backend, { log: () => {}, token: TOKEN });
  const response = await fetch(new URL("/healthz", server.url));
  assert.equal(response.status, 200);
  assert.deepEqual(await response.json(), {
    status: "ok",
    version: VERSION,
    rustpad: "unknown",
  });
  await backend.upstream.settled;
});

Deno.test("DELETE /mcp ends a session; its id then gets 404", async () => {
  await using http = await startHttp();
  const agent = await connectHttp(http.server.url);
  const id = agent.transport.sessionId;
  assert.ok(id);
  assert.equal(http.server.sessionCount, 1);
  await agent[Symbol.asyncDispose]();
  await waitFor(() => http.server.sessionCount === 0, "the session to end");
  const response = await fetch(http.server.url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-session-id": id,
    },
    body: JSON.stringify({ jsonrpc: "2.0", id: 2, method: "ping" }),
  });
  assert.equal(response.status, 404);
  await response.body?.cancel();
});

Deno.test("HTTP closes a session idle longer than the idle time", async () => {
  await using http = await startHttp({ sessionIdleMs: 300 });
  await using agent = await connectHttp(http.server.url);
  await agent.client.ping();
  assert.equal(http.server.sessionCount, 1);
  await waitFor(
    () => http.server.sessionCount === 0,
    "the idle session to expire",
  );
  await assert.rejects(agent.client.ping(), /404|not found|ended or expired/i);
});

Deno.test("HTTP answers 503 to a new session over the cap, and accepts one after a session ends", async () => {
  await using http = await startHttp({ maxSessions: 2 });
  const first = await connectHttp(http.server.url);
  await using _second = await connectHttp(http.server.url);
  const refused = await initialize(http.server.url);
  assert.equal(refused.status, 503);
  assert.ok(refused.headers.has("retry-after"));
  await refused.body?.cancel();
  await first[Symbol.asyncDispose]();
  await waitFor(
    () => http.server.sessionCount === 1,
    "the first session to end",
  );
  await using third = await connectHttp(http.server.url);
  await third.client.ping();
});

Deno.test("HTTP shutdown lets a call in flight finish, refuses new requests, then closes the sessions", async () => {
  await using http = await startHttp({ drainMs: 5000 });
  const asked = Promise.withResolvers<void>();
  const answer = Promise.withResolvers<void>();
  await using agent = await connectHttp(http.server.url, {
    elicit: async () => {
      asked.resolve();
      await answer.promise;
      return { action: "accept", content: { confirm: true } };
    },
  });
  structured(await agent.call("append_to_document", { id: "d", text: "old" }));
  const call = agent.call("set_document", { id: "d", text: "new" });
  await asked.promise; // The call is in flight, waiting for the person.
  const stopping = http.server.shutdown();
  const late = await initialize(http.server.url);
  assert.equal(late.status, 503);
  await late.body?.cancel();
  answer.resolve();
  assert.equal(structured(await call).status, "applied");
  await stopping;
  assert.equal(http.pads.text("d"), "new");
  assert.equal(http.server.sessionCount, 0);
});
