// GET /healthz reports whether the Rustpad server answers, from a cached
// probe: many health checks make at most one request to Rustpad per
// interval, and none of them waits on it.

import assert from "node:assert/strict";
import { createBackend, loadConfig, serveHttp } from "../../src/mod.ts";
import { startPadServer } from "../../src/testing/mod.ts";

async function rustpadField(url: URL): Promise<unknown> {
  const response = await fetch(new URL("/healthz", url));
  assert.equal(response.status, 200);
  return (await response.json()).rustpad;
}

Deno.test("GET /healthz reports the Rustpad server as ok once the probe answered", async () => {
  await using pads = await startPadServer();
  await using backend = createBackend(loadConfig({ RUSTPAD_URL: pads.url }));
  await using server = serveHttp(backend, { log: () => {} });
  assert.equal(await rustpadField(server.url), "unknown");
  await backend.upstream.settled;
  assert.equal(await rustpadField(server.url), "ok");
});

Deno.test("GET /healthz reports a Rustpad server that refuses as unreachable, with one probe for 20 health checks", async () => {
  // A listener that counts connections and closes each: Rustpad is down.
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  let connections = 0;
  const accepting = (async () => {
    for await (const connection of listener) {
      connections++;
      connection.close();
    }
  })();
  const { port } = listener.addr as Deno.NetAddr;
  try {
    await using backend = createBackend(
      loadConfig({ RUSTPAD_URL: `http://127.0.0.1:${port}` }),
    );
    await using server = serveHttp(backend, { log: () => {} });
    assert.equal(await rustpadField(server.url), "unknown");
    await backend.upstream.settled;
    for (let check = 0; check < 20; check++) {
      assert.equal(await rustpadField(server.url), "unreachable");
    }
    assert.equal(connections, 1);
  } finally {
    listener.close();
    await accepting.catch(() => {});
  }
});
