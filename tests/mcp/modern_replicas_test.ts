// Two replicas (`mod.ts --http` processes) on one Redis and one pad server,
// behind a round-robin proxy without affinity: every 2026-era request goes
// to the other replica in turn, and the answers are those of one replica:
// a confirmation asked on one is redeemed on the other through its
// requestState, an idempotency key lands once, an edit_id made on one is
// undone on the other, and a listener hears writes served by the other.

import assert from "node:assert/strict";
import { startPadServer } from "../../src/testing/mod.ts";
import { spawnCli } from "../_http.ts";
import { modernHttp } from "../_modern.ts";
import { startRedis } from "../_redis.ts";
import { waitFor } from "../_wait.ts";

const SECRET = "replicas-share-this-secret-0123456789abcdef";

/** A proxy sending each request to the next of `upstreams` in turn. */
function roundRobin(upstreams: URL[]) {
  const served: number[] = upstreams.map(() => 0);
  let next = 0;
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    async (request) => {
      const index = next++ % upstreams.length;
      served[index]!++;
      const target = new URL(new URL(request.url).pathname, upstreams[index]);
      const headers = new Headers(request.headers);
      headers.delete("host");
      return await fetch(target, {
        method: request.method,
        headers,
        body: request.body,
        signal: request.signal,
      });
    },
  );
  return {
    url: new URL(`http://127.0.0.1:${server.addr.port}/mcp`),
    served,
    [Symbol.asyncDispose]: () => server.shutdown(),
  };
}

Deno.test("replicas without affinity: 2026-era confirmations, idempotency keys, undo by edit_id and listening give one replica's answers", async () => {
  await using pads = await startPadServer();
  await using redis = await startRedis();
  const env = {
    RUSTPAD_URL: pads.url,
    RUSTPAD_CONFIRM_SECRET: SECRET,
    RUSTPAD_STATE_URL: redis.url,
  };
  await using a = await spawnCli(env);
  await using b = await spawnCli(env);
  await using proxy = roundRobin([a.url, b.url]);
  await using agent = await modernHttp(proxy.url, {
    elicit: () => ({ action: "accept", content: { confirm: true } }),
  });

  // The question from one replica, the answer redeemed on the other.
  await agent.call("append_to_document", { id: "rr", text: "people's words" });
  const replaced = await agent.call("set_document", {
    id: "rr",
    text: "agreed text that is long enough",
  });
  assert.equal(
    (replaced.structuredContent as { status: string }).status,
    "applied",
    JSON.stringify(replaced),
  );
  assert.equal(await pads.text("rr"), "agreed text that is long enough");

  // One idempotency key, two replicas: it lands once, the same answer.
  const args = { id: "rr", text: "!", idempotency_key: "rr-1" };
  const first = await agent.call("append_to_document", args);
  const again = await agent.call("append_to_document", args);
  assert.equal(
    (again.structuredContent as { replayed?: boolean }).replayed,
    true,
  );
  assert.equal(
    (again.structuredContent as { revision: number }).revision,
    (first.structuredContent as { revision: number }).revision,
  );
  assert.equal(await pads.text("rr"), "agreed text that is long enough!");

  // An edit_id minted on one replica, undone on the other.
  const editId = (first.structuredContent as { edit_id: string }).edit_id;
  const undone = await agent.call("undo_last_edit", {
    id: "rr",
    edit_id: editId,
  });
  assert.equal(undone.isError, undefined, JSON.stringify(undone));
  assert.equal(await pads.text("rr"), "agreed text that is long enough");

  // A listener on one replica hears a write served by the other.
  const heard: string[] = [];
  agent.client.setNotificationHandler(
    "notifications/resources/updated",
    (notification) => {
      heard.push(notification.params.uri);
    },
  );
  const listening = await agent.client.listen({
    resourceSubscriptions: ["rustpad://pad/rr"],
  });
  await agent.call("append_to_document", { id: "rr", text: "." });
  await waitFor(() => heard.length > 0, "an update heard across replicas");
  assert.equal(heard[0], "rustpad://pad/rr");
  await listening.close();
  // Both replicas served requests: there was no affinity to lean on.
  assert.ok(proxy.served.every((count) => count >= 3), `${proxy.served}`);
});
