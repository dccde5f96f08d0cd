// Tests of the Rustpad HTTP client against a small local Deno.serve per test,
// shut down at the end of each one (Deno's sanitizers check nothing leaks).

import assert from "node:assert/strict";
import {
  RustpadHttpClient,
  RustpadHttpError,
  type RustpadStats,
} from "../../src/rustpad/http_client.ts";
import { freePort } from "../_free_port.ts";

const PAD_TEXT = "héllo 🎉 wörld 👨‍👨‍👦‍👦\n\u200d\ue000\uffff😀";
const STATS: RustpadStats = {
  start_time: 1_700_000_000,
  num_documents: 4,
  database_size: 2,
};
const HTML_PAGE =
  "<!DOCTYPE html><html><body><h1>Oops</h1><pre>SECRET stack trace</pre></body></html>";

/** A local server that records the path of every request it gets. */
interface TestServer extends AsyncDisposable {
  /** Its base URL, such as `http://127.0.0.1:4567`. */
  url: string;
  /** The path of every request, in order. */
  paths: string[];
  /** Resolves when the test ends, to let stalled handlers finish. */
  released: Promise<void>;
}

function serve(
  handler: (
    request: Request,
    server: TestServer,
  ) => Response | Promise<Response>,
): TestServer {
  const release = Promise.withResolvers<void>();
  const paths: string[] = [];
  const server: TestServer = {
    url: "",
    paths,
    released: release.promise,
    async [Symbol.asyncDispose]() {
      release.resolve();
      await http.shutdown();
    },
  };
  const http = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    (request) => {
      paths.push(new URL(request.url).pathname);
      return handler(request, server);
    },
  );
  server.url = `http://127.0.0.1:${http.addr.port}`;
  return server;
}

/** Expect `promise` to reject with a RustpadHttpError and return it. */
async function httpError(promise: Promise<unknown>): Promise<RustpadHttpError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof RustpadHttpError, String(error));
    return error;
  }
  assert.fail("Expected a RustpadHttpError, but the request succeeded");
}

Deno.test("`getText()` reads a pad's text, astral characters and joiners included", async () => {
  await using server = serve(() =>
    new Response(PAD_TEXT, {
      headers: { "content-type": "text/plain; charset=utf-8" },
    })
  );
  const client = new RustpadHttpClient(server.url);
  assert.equal(await client.getText("my-pad"), PAD_TEXT);
  assert.deepEqual(server.paths, ["/api/text/my-pad"]);
});

Deno.test("`getText()` reads an empty pad as the empty string", async () => {
  await using server = serve(() => new Response(""));
  const client = new RustpadHttpClient(server.url);
  assert.equal(await client.getText("never-opened"), "");
});

Deno.test("`getText()` and `getStats()` keep the base URL's path prefix", async () => {
  await using server = serve((request) => {
    const path = new URL(request.url).pathname;
    if (path === "/pads/rustpad/api/text/abc") return new Response(PAD_TEXT);
    if (path === "/pads/rustpad/api/stats") return Response.json(STATS);
    return new Response("not found", { status: 404 });
  });
  const client = new RustpadHttpClient(`${server.url}/pads/rustpad`);
  assert.equal(client.baseUrl.href, `${server.url}/pads/rustpad/`);
  assert.equal(await client.getText("abc"), PAD_TEXT);
  assert.deepEqual(await client.getStats(), STATS);
  assert.deepEqual(server.paths, [
    "/pads/rustpad/api/text/abc",
    "/pads/rustpad/api/stats",
  ]);
});

Deno.test("`getStats()` reads the three fields of the stats JSON and drops others", async () => {
  await using server = serve(() =>
    Response.json({ ...STATS, extra: "ignored" })
  );
  const client = new RustpadHttpClient(server.url);
  assert.deepEqual(await client.getStats(), STATS);
  assert.deepEqual(server.paths, ["/api/stats"]);
});

Deno.test("`getStats()` reports an answer that is not the stats JSON as malformed", async () => {
  const bodies: [string, string][] = [
    [HTML_PAGE, "the answer is not JSON: current content type is text/html"],
    ["{", "the answer is not JSON"],
    ["[1, 2, 3]", "the answer is not a JSON object: current value is an array"],
    ["null", "the answer is not a JSON object: current value is null"],
    [
      '{"num_documents": 1, "database_size": 0}',
      "start_time is not a non-negative integer: current value is missing",
    ],
    [
      '{"start_time": 1, "num_documents": "<b>4</b>", "database_size": 0}',
      "num_documents is not a non-negative integer: current value is a string",
    ],
    [
      '{"start_time": 1, "num_documents": 4, "database_size": -1}',
      "database_size is not a non-negative integer: current value is -1",
    ],
    [
      '{"start_time": 1.5, "num_documents": 4, "database_size": 0}',
      "start_time is not a non-negative integer: current value is 1.5",
    ],
  ];
  let answer = "";
  await using server = serve(() =>
    new Response(answer, {
      headers: {
        "content-type": answer.startsWith("<")
          ? "text/html"
          : "application/json",
      },
    })
  );
  const client = new RustpadHttpClient(server.url);
  for (const [body, reason] of bodies) {
    answer = body;
    const error = await httpError(client.getStats());
    const url = `${server.url}/api/stats`;
    assert.equal(error.kind, "malformed", body);
    assert.equal(error.url, url);
    assert.equal(error.status, undefined);
    assert.ok(
      error.message.startsWith(
        `Cannot read stats from Rustpad at ${url} as ${reason}`,
      ),
      error.message,
    );
    assert.ok(!error.message.includes("<"), error.message);
    assert.ok(!error.message.includes("SECRET"), error.message);
  }
});

Deno.test("`getText()` reports a 500 with its status and never echoes the HTML body", async () => {
  await using server = serve(() =>
    new Response(HTML_PAGE, {
      status: 500,
      headers: { "content-type": "text/html" },
    })
  );
  const client = new RustpadHttpClient(server.url);
  const error = await httpError(client.getText("abc"));
  const url = `${server.url}/api/text/abc`;
  assert.equal(error.kind, "status");
  assert.equal(error.status, 500);
  assert.equal(error.url, url);
  assert.equal(
    error.message,
    `Cannot get pad text from Rustpad at ${url} as it answered an error: current status is 500 Internal Server Error`,
  );
  assert.ok(!error.message.includes("SECRET"));
});

Deno.test("`getStats()` reports a 404 as a status error", async () => {
  await using server = serve(() =>
    new Response("nope, a long body that must not be read", { status: 404 })
  );
  const client = new RustpadHttpClient(server.url);
  const error = await httpError(client.getStats());
  assert.equal(error.kind, "status");
  assert.equal(error.status, 404);
  assert.match(error.message, /current status is 404 Not Found$/);
  assert.ok(!error.message.includes("nope"));
});

Deno.test("`getText()` times out after `timeoutMs` when the server never answers", async () => {
  await using server = serve(async (_request, server) => {
    await server.released;
    return new Response("too late");
  });
  const client = new RustpadHttpClient(server.url, { timeoutMs: 200 });
  const start = performance.now();
  const error = await httpError(client.getText("slow"));
  const elapsed = performance.now() - start;
  const url = `${server.url}/api/text/slow`;
  assert.equal(error.kind, "timeout");
  assert.equal(error.url, url);
  assert.equal(
    error.message,
    `Cannot reach Rustpad at ${url}: it did not answer within 200 ms`,
  );
  assert.ok(elapsed >= 150 && elapsed < 5000, `took ${elapsed} ms`);
});

Deno.test("`getText()` times out when the body never finishes", async () => {
  await using server = serve((_request, server) =>
    new Response(
      new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(new TextEncoder().encode("the start of a pad"));
          server.released.then(() => {
            try {
              controller.close();
            } catch {
              // The client went away and the stream was cancelled.
            }
          });
        },
      }),
    )
  );
  const client = new RustpadHttpClient(server.url, { timeoutMs: 200 });
  const start = performance.now();
  const error = await httpError(client.getText("stalled-body"));
  const elapsed = performance.now() - start;
  assert.equal(error.kind, "timeout");
  assert.match(error.message, /did not answer within 200 ms$/);
  assert.ok(elapsed >= 150 && elapsed < 5000, `took ${elapsed} ms`);
});

Deno.test("`getText()` reports a closed port as connection refused", async () => {
  // Closed: a port no other test is handed meanwhile.
  const port = freePort();
  const client = new RustpadHttpClient(`http://127.0.0.1:${port}`);
  const error = await httpError(client.getText("x"));
  const url = `http://127.0.0.1:${port}/api/text/x`;
  assert.equal(error.kind, "unreachable");
  assert.equal(error.url, url);
  assert.equal(error.status, undefined);
  assert.equal(
    error.message,
    `Cannot reach Rustpad at ${url}: connection refused`,
  );
  assert.ok(error.cause !== undefined);
});

Deno.test("`getText()` refuses invalid pad ids with a TypeError and sends nothing", async () => {
  await using server = serve(() => new Response("must not be asked"));
  const client = new RustpadHttpClient(server.url);
  for (
    const id of ["", ".", "..", "a/b", "a b", "x".repeat(257), "%2e%2e", "a?b"]
  ) {
    await assert.rejects(client.getText(id), TypeError, JSON.stringify(id));
  }
  assert.deepEqual(server.paths, []);
});

Deno.test("`getText()` rejects with the caller's reason when the caller's signal aborts", async () => {
  await using server = serve(async (_request, server) => {
    await server.released;
    return new Response("too late");
  });
  const controller = new AbortController();
  const client = new RustpadHttpClient(server.url, {
    signal: controller.signal,
  });
  const reason = new Error("the user gave up");
  const pending = client.getText("slow");
  setTimeout(() => controller.abort(reason), 50);
  await assert.rejects(pending, (error) => error === reason);
  // Once aborted, nothing more is sent.
  const before = server.paths.length;
  await assert.rejects(client.getStats(), (error) => error === reason);
  assert.equal(server.paths.length, before);
});

Deno.test("`RustpadHttpClient` refuses bad base URLs and timeouts", () => {
  for (const base of ["rustpad.io", "ftp://example.com", "http://x/?q=1"]) {
    assert.throws(() => new RustpadHttpClient(base), TypeError, base);
  }
  for (const timeoutMs of [0, -1, NaN, Infinity, 2 ** 31]) {
    assert.throws(
      () => new RustpadHttpClient("http://127.0.0.1", { timeoutMs }),
      RangeError,
      String(timeoutMs),
    );
  }
});

Deno.test("`RustpadHttpClient.baseUrl` is a copy that ends with '/'", () => {
  const client = new RustpadHttpClient("https://example.com/rustpad");
  client.baseUrl.pathname = "/elsewhere/";
  assert.equal(client.baseUrl.href, "https://example.com/rustpad/");
});
