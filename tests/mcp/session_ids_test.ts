// What a 2025 session's clients cannot break (issue 27 point 21): a
// JSON-RPC id reused while the first request with it is still answered is
// refused, so no POST hangs and the session still idles out; refused
// subscribe attempts, however many, leave the pads the session holds in
// resources/list.

import assert from "node:assert/strict";
import { connectHttp, initialize, startHttp } from "../_http.ts";
import { INITIALIZED } from "../_jsonrpc.ts";
import { waitFor } from "../_wait.ts";

function post(
  url: URL,
  session: string,
  body: unknown,
): Promise<Response> {
  return fetch(url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-session-id": session,
      "mcp-protocol-version": "2025-11-25",
    },
    body: JSON.stringify(body),
  });
}

Deno.test("a request id reused while the first is answered gets 409 naming it; the first POST gets its answer and the session then idles out", async () => {
  await using http = await startHttp({ sessionIdleMs: 300 });
  const opened = await initialize(http.server.url);
  const session = opened.headers.get("mcp-session-id")!;
  await opened.body?.cancel();
  await (await post(http.server.url, session, INITIALIZED)).body?.cancel();
  const wait = {
    jsonrpc: "2.0",
    id: 7,
    method: "tools/call",
    params: {
      name: "wait_for_change",
      arguments: { id: "ids", since_revision: 0, timeout_seconds: 1 },
    },
  };
  const first = post(http.server.url, session, wait);
  await new Promise((resolve) => setTimeout(resolve, 200));
  const reused = await post(http.server.url, session, wait);
  assert.equal(reused.status, 409);
  assert.match(
    (await reused.json()).error.message,
    /^Cannot serve request id 7 as a request with the same id is still being answered in this session/,
  );
  const answered = await (await first).text();
  assert.match(answered, /"id":7/);
  assert.match(answered, /"result"/);
  await waitFor(
    () => http.server.sessionCount === 0,
    "the session to idle out",
  );
});

Deno.test("more than 1,000 refused subscribe attempts leave the session's 20 held pads in resources/list", async () => {
  await using http = await startHttp();
  await using agent = await connectHttp(http.server.url);
  for (let i = 0; i < 20; i++) {
    await agent.client.subscribeResource({ uri: `rustpad://pad/held-${i}` });
  }
  for (let i = 0; i < 1005; i++) {
    await assert.rejects(
      agent.client.subscribeResource({ uri: `rustpad://pad/refused-${i}` }),
      /current count is 20/,
    );
  }
  const { resources } = await agent.client.listResources();
  const listed = resources.map((resource) => resource.uri);
  for (let i = 0; i < 20; i++) {
    assert.ok(listed.includes(`rustpad://pad/held-${i}`), `held-${i}`);
  }
  assert.ok(!listed.some((uri) => uri.includes("refused-")));
});
