// Over HTTP each MCP session holds at most 20 subscriptions and waits
// together; one session at its bound refuses more with the count, and other
// sessions are not affected.

import assert from "node:assert/strict";
import { connectHttp, startHttp } from "../_http.ts";
import { errorOf, structured } from "../_mcp.ts";

Deno.test("over HTTP one session holds at most 20 subscriptions and waits together; another session is unaffected", async () => {
  await using http = await startHttp();
  await using agent = await connectHttp(http.server.url);
  await using other = await connectHttp(http.server.url);
  for (let n = 0; n < 20; n++) {
    await agent.client.subscribeResource({ uri: `rustpad://pad/h${n}` });
  }
  // Subscribing again to a pad it holds takes nothing more.
  await agent.client.subscribeResource({ uri: "rustpad://pad/h0" });
  await assert.rejects(
    agent.client.subscribeResource({ uri: "rustpad://pad/h20" }),
    /Cannot subscribe to pad "h20" as this MCP session already holds the most subscriptions and waits one session may \(20\): current count is 20/,
  );
  const wait = errorOf(
    await agent.call("wait_for_change", {
      id: "h0",
      since_revision: 0,
      timeout_seconds: 0.1,
    }),
  );
  assert.match(wait, /Cannot wait on pad "h0" as .*current count is 20/);
  // Other calls of the same session still answer.
  structured(await agent.call("append_to_document", { id: "h1", text: "x" }));
  // Another session has its own count.
  await other.client.subscribeResource({ uri: "rustpad://pad/h20" });
  const waited = structured(
    await other.call("wait_for_change", {
      id: "h20",
      since_revision: 0,
      timeout_seconds: 0.1,
    }),
  );
  assert.equal(waited.timed_out, true);
  // Letting one go makes room again.
  await agent.client.unsubscribeResource({ uri: "rustpad://pad/h19" });
  const again = structured(
    await agent.call("wait_for_change", {
      id: "h0",
      since_revision: 0,
      timeout_seconds: 0.1,
    }),
  );
  assert.equal(again.timed_out, true);
  assert.equal(
    await (await fetch(`${http.pads.url}/api/text/h1`)).text(),
    "x",
  );
});
