// The Rustpad HTTP client against hostile upstreams (a Deno.serve on
// loopback per test): an endless body is cut at the size cap, a declared
// oversize body is refused unread, and a redirect is reported, never
// followed.

import assert from "node:assert/strict";
import {
  RustpadHttpClient,
  RustpadHttpError,
} from "../../src/rustpad/http_client.ts";

/** A loopback server; `paths` records every request it got. */
function upstream(
  handler: (request: Request) => Response,
): { url: string; paths: string[] } & AsyncDisposable {
  const paths: string[] = [];
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    (request) => {
      paths.push(new URL(request.url).pathname);
      return handler(request);
    },
  );
  return {
    url: `http://127.0.0.1:${server.addr.port}`,
    paths,
    [Symbol.asyncDispose]: () => server.shutdown(),
  };
}

/** A body that never ends; `sent` counts the bytes it produced. */
function endless(): { body: ReadableStream<Uint8Array>; sent: () => number } {
  let sent = 0;
  const chunk = new Uint8Array(65_536).fill(0x61);
  return {
    body: new ReadableStream({
      pull(controller) {
        sent += chunk.length;
        controller.enqueue(chunk);
      },
    }),
    sent: () => sent,
  };
}

async function rejection(promise: Promise<unknown>): Promise<RustpadHttpError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof RustpadHttpError, String(error));
    return error;
  }
  throw new Error("Expected a RustpadHttpError");
}

Deno.test("An endless pad text is cut at 2 MiB with an error saying the answer is too large", async () => {
  const stream = endless();
  await using server = upstream(() => new Response(stream.body));
  const client = new RustpadHttpClient(server.url, { timeoutMs: 30_000 });
  const error = await rejection(client.getText("pad"));
  assert.equal(error.kind, "malformed");
  assert.match(
    error.message,
    /^Cannot read pad text from Rustpad at http:\/\/127\.0\.0\.1:\d+\/api\/text\/pad as the answer is too large: it passed 2097152 bytes/,
  );
  // The client stopped reading: the upstream produced little past the cap.
  assert.ok(stream.sent() < 16 * 1024 * 1024, `${stream.sent()} bytes sent`);
});

Deno.test("Endless stats are cut at 64 KiB; a declared oversize body is refused unread", async () => {
  const stream = endless();
  await using server = upstream((request) =>
    new URL(request.url).pathname === "/api/stats"
      ? new Response(stream.body)
      : new Response("x".repeat(3 * 1024 * 1024))
  );
  const client = new RustpadHttpClient(server.url);
  const stats = await rejection(client.getStats());
  assert.match(stats.message, /too large: it passed 65536 bytes/);
  const text = await rejection(client.getText("big"));
  assert.match(text.message, /too large: it passed 2097152 bytes/);
});

Deno.test("A 302 to another host is not followed: the error names where it pointed, and that host gets no request", async () => {
  await using elsewhere = upstream(() => new Response("not the pad"));
  await using server = upstream(() =>
    new Response(null, {
      status: 302,
      headers: { location: `${elsewhere.url}/api/text/pad` },
    })
  );
  const client = new RustpadHttpClient(server.url);
  const error = await rejection(client.getText("pad"));
  assert.equal(error.kind, "status");
  assert.equal(error.status, 302);
  assert.ok(
    error.message.includes(
      `answered a redirect to ${elsewhere.url}/api/text/pad (status 302), which is not followed: set RUSTPAD_URL`,
    ),
    error.message,
  );
  assert.deepEqual(elsewhere.paths, []);
  assert.deepEqual(server.paths, ["/api/text/pad"]);
});

Deno.test("A relative or missing redirect target is named as an absolute URL or as missing", async () => {
  await using server = upstream((request) =>
    new URL(request.url).pathname === "/api/stats"
      ? new Response(null, { status: 301 })
      : new Response(null, { status: 307, headers: { location: "/login" } })
  );
  const client = new RustpadHttpClient(server.url);
  const relative = await rejection(client.getText("pad"));
  assert.match(
    relative.message,
    new RegExp(`redirect to ${server.url}/login `),
  );
  const missing = await rejection(client.getStats());
  assert.match(missing.message, /redirect to nowhere \(no Location header\)/);
});
