// The HTTP listener's bounds on answers and bodies, driven over raw TCP
// with small settings and handlers of the test's own: a client that stops
// reading, a stream that outgrows what a connection may queue, a body in
// one-byte chunks, and uploads too slow to keep their share of the budget.

import assert from "node:assert/strict";
import { HttpListener, type HttpListenerOptions } from "../../src/http/mod.ts";
import { head, RawConnection, statuses } from "../_tcp.ts";

type Handler = (request: Request) => Response | Promise<Response>;

/** A listener on loopback with `handler` and bounds for tests. */
function listen(
  handler: Handler,
  options: Partial<HttpListenerOptions> = {},
): HttpListener & AsyncDisposable & { url: URL } {
  const listener = new HttpListener({
    hostname: "127.0.0.1",
    port: 0,
    maxConnections: 64,
    maxBodyBytesInFlight: 4 * 65_536,
    requestTimeoutMs: 20_000,
    keepAliveMs: 5000,
    maxBodyBytes: 65_536,
    maxHeadBytes: 8192,
    handler: async (request) => await handler(request),
    refuse: (status, message) => Response.json({ message }, { status }),
    log: () => {},
    ...options,
  });
  listener.start();
  return Object.assign(listener, {
    url: new URL(`http://127.0.0.1:${listener.addr.port}/`),
    [Symbol.asyncDispose]: () => listener.close(0),
  });
}

const MIB = 1024 * 1024;

/** Wait until `condition` holds; fails after `guardMs` (a hang, not a measurement). */
async function until(
  condition: () => boolean,
  what: string,
  guardMs = 15_000,
): Promise<void> {
  const deadline = Date.now() + guardMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

Deno.test("A client that never reads a large answer is dropped at the write deadline, and others are served meanwhile", async () => {
  const answer = new Uint8Array(16 * MIB);
  const log: string[] = [];
  await using server = listen(
    (request) =>
      new URL(request.url).pathname === "/big"
        ? new Response(answer)
        : new Response("ok"),
    { writeTimeoutMs: 300, log: (line) => log.push(line) },
  );
  using stuck = await RawConnection.open(
    server.url,
    head("GET", new URL("/big", server.url)),
  );
  await until(
    () => server.connectionCount === 0,
    "the reader-less client dropped",
  );
  using other = await RawConnection.open(
    server.url,
    head("GET", new URL("/small", server.url), { connection: "close" }),
  );
  assert.deepEqual(statuses(await other.untilClosed()), [200]);
  // What the kernel had buffered arrives, then the cut.
  const text = await stuck.untilClosed();
  assert.ok(text.length < answer.length, `${text.length} bytes arrived`);
  assert.deepEqual(log, [
    "rustpad-mcp: Closed a connection as its client did not take the next 64 KiB of the answer within 300 ms",
  ]);
});

Deno.test("A client that reads a little at a time is dropped at the write deadline, whatever it read before", async () => {
  await using server = listen(
    () => new Response(new Uint8Array(16 * MIB)),
    { writeTimeoutMs: 500 },
  );
  const conn = await Deno.connect({
    hostname: "127.0.0.1",
    port: server.addr.port,
  });
  try {
    await conn.write(new TextEncoder().encode(head("GET", server.url)));
    const buffer = new Uint8Array(1024);
    let received = 0;
    for (;;) {
      const count = await conn.read(buffer).catch(() => null);
      if (count === null) break;
      received += count;
      // 1 KiB every 20 ms: always progressing, far too slowly.
      await new Promise((resolve) => setTimeout(resolve, 20));
      if (server.connectionCount === 0) break;
    }
    await until(() => server.connectionCount === 0, "the slow reader dropped");
    assert.ok(received < 16 * MIB);
  } finally {
    conn.close();
  }
});

Deno.test("A stream that outgrows what a connection may queue is cancelled and the connection closed, long before the write deadline", async () => {
  let cancelled = false;
  let produced = 0;
  const log: string[] = [];
  const piece = new Uint8Array(MIB).fill(0x61);
  await using server = listen(() =>
    new Response(
      new ReadableStream<Uint8Array>({
        async pull(controller) {
          // Produced whether or not anyone reads, as an SDK stream is.
          await new Promise((resolve) => setTimeout(resolve, 1));
          produced += piece.length;
          controller.enqueue(piece);
        },
        cancel() {
          cancelled = true;
        },
      }, { highWaterMark: 64 }),
      { headers: { "content-type": "text/event-stream" } },
    ), {
    maxQueuedBytes: 8 * MIB,
    writeTimeoutMs: 60_000,
    log: (line) => log.push(line),
  });
  using client = await RawConnection.open(server.url, head("GET", server.url));
  await until(() => cancelled, "the stream cancelled");
  await until(() => server.connectionCount === 0, "the connection closed");
  assert.ok(produced < 64 * MIB, `${produced} bytes produced`);
  assert.deepEqual(log, [
    "rustpad-mcp: Closed a connection as it held over 8388608 bytes of answer its client had not taken",
  ]);
  client[Symbol.dispose]();
});

/** A handler answering with an event stream that sends `event` after `ms`, then ends. */
function lateEvent(
  ms: number,
  seen: { cancelled: boolean },
): Handler {
  return () => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    return new Response(
      new ReadableStream<Uint8Array>({
        start(controller) {
          timer = setTimeout(() => {
            controller.enqueue(new TextEncoder().encode("data: late\n\n"));
            controller.close();
          }, ms);
        },
        cancel() {
          clearTimeout(timer);
          seen.cancelled = true;
        },
      }),
      { headers: { "content-type": "text/event-stream" } },
    );
  };
}

Deno.test("An event stream to a half-closed client goes on to its end, with SSE comments between events", async () => {
  const seen = { cancelled: false };
  await using server = listen(lateEvent(1500, seen));
  using client = await RawConnection.open(server.url, head("GET", server.url));
  await client.conn.closeWrite();
  const text = await client.untilClosed();
  assert.deepEqual(statuses(text), [200]);
  assert.match(text, /\r\n3\r\n:\n\n\r\n/, "a comment while waiting");
  assert.match(text, /data: late\n\n\r\n0\r\n\r\n$/);
  assert.equal(seen.cancelled, false);
});

Deno.test("An event stream to a client that closed both ways is cancelled once a comment finds it gone", async () => {
  const seen = { cancelled: false };
  await using server = listen(lateEvent(60_000, seen));
  const client = await RawConnection.open(server.url, head("GET", server.url));
  await client.until(/\r\n\r\n/);
  client[Symbol.dispose]();
  await until(() => seen.cancelled, "the stream cancelled");
  await until(() => server.connectionCount === 0, "the connection closed");
});

/** A handler that reads the whole body and answers with its length and the pieces it came in. */
const countBody: Handler = async (request) => {
  let pieces = 0;
  let bytes = 0;
  try {
    for await (const piece of request.body ?? []) {
      pieces++;
      bytes += piece.length;
    }
  } catch (error) {
    const { status = 500, message } = error as Error & { status?: number };
    return Response.json({ message }, { status });
  }
  return Response.json({ pieces, bytes });
};

Deno.test("A body in one-byte chunks reaches the handler in a few pieces, and each chunk counts 64 bytes against the cap", async () => {
  await using server = listen(countBody, { maxBodyBytes: 65_536 });
  const chunked = (count: number) =>
    head("POST", server.url, {
      "transfer-encoding": "chunked",
      connection: "close",
    }) + "1\r\nx\r\n".repeat(count) + "0\r\n\r\n";
  // 500 chunks: 500 × 65 = 32,500 counted bytes, under the cap.
  using fits = await RawConnection.open(server.url, chunked(500));
  const text = await fits.untilClosed();
  assert.deepEqual(statuses(text), [200]);
  const [, pieces, bytes] = /"pieces":(\d+),"bytes":(\d+)/.exec(text) ?? [];
  assert.equal(Number(bytes), 500);
  assert.ok(Number(pieces) <= 5, `${pieces} pieces`);
  // 1,100 chunks of one byte: 1,100 bytes, but 71,500 counted.
  using over = await RawConnection.open(server.url, chunked(1100));
  const refused = await over.untilClosed();
  assert.deepEqual(statuses(refused), [413]);
  assert.match(
    refused,
    /over the limit of 65536 bytes \(RUSTPAD_MCP_MAX_MESSAGE_BYTES\) counting 64 bytes for each chunk: current count is 1009 chunks/,
  );
});

Deno.test("Uploads slower than the minimum rate get 408 and give their budget share back, so a waiting POST is served", async () => {
  await using server = listen(countBody, {
    maxBodyBytes: 65_536,
    maxBodyBytesInFlight: 2 * 65_536,
    minBodyBytesPerSecond: 4096,
  });
  const declared = (length: number) =>
    head("POST", server.url, {
      "content-length": length,
      connection: "close",
    });
  const slow = await Promise.all(
    [1, 2].map(() => RawConnection.open(server.url, declared(65_536) + "x")),
  );
  try {
    // Both shares taken: this one waits for the budget.
    using waiting = await RawConnection.open(
      server.url,
      declared(5) + "hello",
    );
    const answered = await waiting.untilClosed();
    assert.deepEqual(statuses(answered), [200]);
    assert.match(answered, /"bytes":5/);
    for (const connection of slow) {
      const text = await connection.untilClosed();
      assert.deepEqual(statuses(text), [408]);
      assert.match(
        text,
        /Cannot read the request as its body arrived slower than 4096 bytes\/s: current count is 1 bytes in \d+ ms/,
      );
    }
  } finally {
    for (const connection of slow) connection[Symbol.dispose]();
  }
});

Deno.test("Chunk-size lines are read as RFC 9112 frames them: hex digits, blanks and extensions pass, anything else is a 400", async () => {
  await using server = listen(countBody);
  const send = async (sizeLine: string) => {
    using client = await RawConnection.open(
      server.url,
      head("POST", server.url, {
        "transfer-encoding": "chunked",
        connection: "close",
      }) + `${sizeLine}\r\nabc\r\n0\r\n\r\n`,
    );
    return await client.untilClosed();
  };
  for (const good of ["3", "03", "3 \t", "3;name=value", "3 ; x"]) {
    const text = await send(good);
    assert.deepEqual(statuses(text), [200], good);
    assert.match(text, /"bytes":3/, good);
  }
  for (const bad of ["", "x3", "+3", "3x", "000000003", "3;a\rb", "0x3"]) {
    const text = await send(bad);
    assert.deepEqual(statuses(text), [400], bad);
    assert.match(text, /chunk size is malformed|chunked framing/, bad);
  }
});
