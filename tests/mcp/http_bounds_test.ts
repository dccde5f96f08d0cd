// The HTTP listener's bounds, driven past each limit with small settings
// over raw TCP, while SDK clients over Streamable HTTP keep calling tools:
// half requests, idle keep-alive, the connection cap, malformed heads,
// body caps, trickled bodies and the drain.

import assert from "node:assert/strict";
import { createBackend, loadConfig, serveHttp } from "../../src/mod.ts";
import { connectHttp, startHttp } from "../_http.ts";
import { structured, waitFor } from "../_mcp.ts";
import {
  errorMessage,
  head,
  INITIALIZE_BODY,
  MCP_POST,
  RawConnection,
  statuses,
} from "../_tcp.ts";

Deno.test("A connection that stops halfway through its request line gets 408 and is closed at the request deadline", async () => {
  await using http = await startHttp({ requestTimeoutMs: 200 });
  using half = await RawConnection.open(http.server.url, "GET /healthz HT");
  using silent = await RawConnection.open(http.server.url);
  const answer = await half.untilClosed();
  assert.deepEqual(statuses(answer), [408]);
  assert.match(
    errorMessage(answer),
    /did not arrive whole within 200 ms \(RUSTPAD_MCP_REQUEST_TIMEOUT_MS\)/,
  );
  // One that never sent a byte is closed without a word.
  assert.equal(await silent.untilClosed(), "");
  await waitFor(() => http.server.connectionCount === 0, "no open connection");
  // The server goes on serving.
  await using agent = await connectHttp(http.server.url);
  structured(await agent.call("append_to_document", { id: "a", text: "x" }));
  assert.equal(http.pads.text("a"), "x");
});

Deno.test("Headers trickled a field at a time past the deadline get 408, even though bytes keep coming", async () => {
  await using http = await startHttp({ requestTimeoutMs: 300 });
  using slow = await RawConnection.open(
    http.server.url,
    `GET /healthz HTTP/1.1\r\nhost: ${http.server.url.host}\r\n`,
  );
  let sent = 0;
  while (!slow.ended && sent < 200) {
    if (!await slow.send(`x-field-${sent++}: 1\r\n`)) break;
    await new Promise((resolve) => setTimeout(resolve, 20));
    await slow.until(/408/, 1).catch(() => {});
  }
  assert.deepEqual(statuses(await slow.untilClosed()), [408]);
  assert.ok(sent < 200, "the server cut the trickle off");
});

Deno.test("A keep-alive connection is served, then closed once idle past the keep-alive timeout", async () => {
  await using http = await startHttp({ keepAliveTimeoutMs: 200 });
  const request = head("GET", new URL("/healthz", http.server.url));
  using client = await RawConnection.open(http.server.url, request + request);
  const text = await client.untilClosed();
  assert.deepEqual(statuses(text), [200, 200]);
  assert.match(text, /connection: keep-alive\r\nkeep-alive: timeout=1/);
});

Deno.test("Past RUSTPAD_MCP_MAX_CONNECTIONS a new connection is closed at once, open ones are served, and a freed slot is used again", async () => {
  await using http = await startHttp({ maxConnections: 3 });
  const url = http.server.url;
  const held = await Promise.all(
    [1, 2, 3].map(() => RawConnection.open(url)),
  );
  try {
    await waitFor(() => http.server.connectionCount === 3, "three open");
    using refused = await RawConnection.open(url);
    await refused.send(head("GET", new URL("/healthz", url)));
    assert.equal(await refused.untilClosed(), "", "closed without an answer");
    assert.equal(http.server.connectionCount, 3);
    assert.ok(
      http.log.some((line) =>
        /Cannot serve a new connection as 3 are open \(RUSTPAD_MCP_MAX_CONNECTIONS\)/
          .test(line)
      ),
    );
    // A held connection is still served.
    await held[0]!.send(
      head("GET", new URL("/healthz", url), { connection: "close" }),
    );
    assert.deepEqual(statuses(await held[0]!.untilClosed()), [200]);
    await waitFor(() => http.server.connectionCount === 2, "a freed slot");
    using again = await RawConnection.open(
      url,
      head("GET", new URL("/healthz", url), { connection: "close" }),
    );
    assert.deepEqual(statuses(await again.untilClosed()), [200]);
  } finally {
    for (const connection of held) connection[Symbol.dispose]();
  }
});

Deno.test("A session opened before idle connections fill the cap keeps calling tools on its open connection", async () => {
  await using http = await startHttp({ maxConnections: 8 });
  const url = http.server.url;
  await using agent = await connectHttp(url);
  structured(await agent.call("append_to_document", { id: "f", text: "a" }));
  const own = http.server.connectionCount;
  assert.ok(own >= 1 && own < 8);
  const flood = await Promise.all(
    Array.from({ length: 8 - own }, () => RawConnection.open(url, "GET /m")),
  );
  try {
    await waitFor(() => http.server.connectionCount === 8, "the cap to fill");
    using refused = await RawConnection.open(url, "GET /mcp HT");
    assert.equal(await refused.untilClosed(), "");
    structured(await agent.call("append_to_document", { id: "f", text: "b" }));
    assert.equal(http.pads.text("f"), "ab");
  } finally {
    for (const connection of flood) connection[Symbol.dispose]();
  }
});

Deno.test("A call that streams over SSE for longer than the request deadline and the keep-alive timeout completes", async () => {
  await using http = await startHttp({
    requestTimeoutMs: 150,
    keepAliveTimeoutMs: 150,
  });
  const asked = Promise.withResolvers<void>();
  await using agent = await connectHttp(http.server.url, {
    elicit: async () => {
      asked.resolve();
      // The person takes longer than either deadline to answer.
      await new Promise((resolve) => setTimeout(resolve, 600));
      return { action: "accept", content: { confirm: true } };
    },
  });
  structured(await agent.call("append_to_document", { id: "w", text: "old" }));
  const call = agent.call("set_document", { id: "w", text: "new" });
  await asked.promise;
  assert.equal(structured(await call).status, "applied");
  assert.equal(http.pads.text("w"), "new");
  const waited = structured(
    await agent.call("wait_for_change", {
      id: "w",
      since_revision: 2,
      timeout_seconds: 0.5,
    }),
  );
  assert.equal(waited.changed, false);
});

Deno.test("Expect: 100-continue gets 100 Continue once the request is allowed, then the answer", async () => {
  await using http = await startHttp();
  const url = http.server.url;
  const body = new TextEncoder().encode(INITIALIZE_BODY);
  using client = await RawConnection.open(
    url,
    head("POST", url, {
      ...MCP_POST,
      "content-length": body.length,
      expect: "100-continue",
      connection: "close",
    }),
  );
  await client.until(/^HTTP\/1\.1 100 Continue\r\n\r\n/);
  await client.send(body);
  const text = await client.untilClosed();
  assert.deepEqual(statuses(text), [100, 200]);
  assert.match(text, /"serverInfo"/);
});

Deno.test("A malformed Host is a 400 naming it, never a 500, and the server goes on", async () => {
  await using http = await startHttp();
  const url = http.server.url;
  for (
    const hostField of [
      "host: localhost:80:80",
      "host: [::1",
      "host: a b",
      `host: ${url.host}\r\nhost: ${url.host}`,
      "host: %zz",
    ]
  ) {
    using client = await RawConnection.open(
      url,
      `GET /mcp HTTP/1.1\r\n${hostField}\r\n\r\n`,
    );
    const text = await client.untilClosed();
    assert.deepEqual(statuses(text), [400], hostField);
    assert.match(errorMessage(text), /Host header/, hostField);
  }
  assert.ok(!http.log.some((line) => /request failed|internal/.test(line)));
  const health = await fetch(new URL("/healthz", url));
  assert.equal(health.status, 200);
  await health.body?.cancel();
});

Deno.test("A request framed two ways (Content-Length and chunked) is refused with 400", async () => {
  await using http = await startHttp();
  const url = http.server.url;
  using client = await RawConnection.open(
    url,
    head("POST", url, {
      ...MCP_POST,
      "content-length": 5,
      "transfer-encoding": "chunked",
    }) + "0\r\n\r\n",
  );
  const text = await client.untilClosed();
  assert.deepEqual(statuses(text), [400]);
  assert.match(errorMessage(text), /both Transfer-Encoding and Content-Length/);
});

Deno.test("A body over RUSTPAD_MCP_MAX_MESSAGE_BYTES gets 413 with a JSON-RPC error naming the cap, declared or chunked, and nothing is applied", async () => {
  await using http = await startHttp({ maxMessageBytes: 65_536 });
  const url = http.server.url;
  using declared = await RawConnection.open(
    url,
    head("POST", url, { ...MCP_POST, "content-length": 10_000_000 }),
  );
  const text = await declared.untilClosed();
  assert.deepEqual(statuses(text), [413]);
  assert.match(text, /"jsonrpc":"2.0"/);
  assert.match(
    errorMessage(text),
    /is 10000000 bytes, over the limit of 65536 bytes \(RUSTPAD_MCP_MAX_MESSAGE_BYTES\)/,
  );

  using chunked = await RawConnection.open(
    url,
    head("POST", url, { ...MCP_POST, "transfer-encoding": "chunked" }),
  );
  const chunk = `8000\r\n${"x".repeat(0x8000)}\r\n`;
  for (let i = 0; i < 4 && await chunked.send(chunk); i++);
  const chunkedText = await chunked.untilClosed();
  assert.deepEqual(statuses(chunkedText), [413]);
  assert.match(errorMessage(chunkedText), /over the limit of 65536 bytes/);

  // Through the SDK client: the call fails, the pad is untouched.
  await using agent = await connectHttp(url);
  structured(await agent.call("append_to_document", { id: "b", text: "kept" }));
  await assert.rejects(
    agent.call("append_to_document", { id: "b", text: "z".repeat(70_000) }),
    /413|65536/,
  );
  assert.equal(http.pads.text("b"), "kept");
  structured(await agent.call("append_to_document", { id: "b", text: "!" }));
  assert.equal(http.pads.text("b"), "kept!");
});

Deno.test("A whole pad of text escaped as JSON (1.5 MiB) fits the default body cap", async () => {
  await using http = await startHttp();
  await using agent = await connectHttp(http.server.url);
  // JSON writes each U+0001 as \u0001: six bytes per code point.
  const text = "\u0001".repeat(262_144);
  const result = structured(
    await agent.call("append_to_document", { id: "big", text }),
  );
  assert.equal(result.status, "applied");
  assert.equal(http.pads.text("big").length, 262_144);
});

Deno.test("An initialize whose body trickles past the deadline gets 408 and never holds the only session slot", async () => {
  await using http = await startHttp({ maxSessions: 1, requestTimeoutMs: 400 });
  const url = http.server.url;
  const body = new TextEncoder().encode(INITIALIZE_BODY);
  using trickler = await RawConnection.open(
    url,
    head("POST", url, { ...MCP_POST, "content-length": body.length }),
  );
  await trickler.send(body.subarray(0, 10));
  // Meanwhile a real client takes the slot and works.
  await using agent = await connectHttp(url);
  structured(await agent.call("append_to_document", { id: "s", text: "ok" }));
  const text = await trickler.untilClosed();
  assert.deepEqual(statuses(text), [408]);
  assert.equal(http.server.sessionCount, 1);
  assert.equal(http.pads.text("s"), "ok");
});

Deno.test("During a drain, a body over the cap gets 413 unread, and the call in flight still finishes", async () => {
  await using http = await startHttp({
    drainMs: 5000,
    maxMessageBytes: 65_536,
  });
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
  await asked.promise;
  const stopping = http.server.shutdown();
  const url = http.server.url;
  using huge = await RawConnection.open(
    url,
    head("POST", url, {
      ...MCP_POST,
      "mcp-session-id": agent.transport.sessionId ?? "",
      "transfer-encoding": "chunked",
    }),
  );
  const chunk = `10000\r\n${"[".repeat(0x10000)}\r\n`;
  for (let i = 0; i < 64 && await huge.send(chunk); i++);
  assert.deepEqual(statuses(await huge.untilClosed()), [413]);
  answer.resolve();
  assert.equal(structured(await call).status, "applied");
  await stopping;
  assert.equal(http.pads.text("d"), "new");
});

Deno.test("serveHttp decides loopback on the bound address: localhost needs no token, a name that does not resolve is refused", async () => {
  await using backend = createBackend(
    loadConfig({ RUSTPAD_URL: "http://127.0.0.1:9" }),
  );
  assert.throws(
    () =>
      serveHttp(backend, {
        hostname: "127.0.0.1.attacker.example",
        log: () => {},
      }),
    RangeError,
    "does not resolve",
  );
  await using server = serveHttp(backend, {
    hostname: "localhost",
    log: () => {},
  });
  assert.equal(server.url.hostname, "127.0.0.1");
  const health = await fetch(new URL("/healthz", server.url));
  assert.equal(health.status, 200);
  await health.body?.cancel();
});
