// `subscriptions/listen` in the 2026 era, over stdio and Streamable HTTP:
// a listener hears of a pad it names when someone changes it, not of pads
// it did not name; a resource that is not a pad is -32602; a listener
// holds at most 20 pads.

import assert from "node:assert/strict";
import { startPadServer } from "../../src/testing/mod.ts";
import { connectHttp, startHttp } from "../_http.ts";
import { type ModernClient, modernHttp, modernStdio } from "../_modern.ts";
import { waitFor } from "../_wait.ts";

/** Listen to `uris`; returns the URIs of the updates heard, in order. */
async function listenTo(agent: ModernClient, uris: string[]) {
  const heard: string[] = [];
  agent.client.setNotificationHandler(
    "notifications/resources/updated",
    (notification) => {
      heard.push(notification.params.uri);
    },
  );
  const subscription = await agent.client.listen({
    resourceSubscriptions: uris,
  });
  return { heard, subscription };
}

Deno.test("2026 era over HTTP: subscriptions/listen hears a listened pad change, not another pad", async () => {
  await using http = await startHttp();
  await using listener = await modernHttp(http.server.url);
  await using writer = await connectHttp(http.server.url);
  const { heard, subscription } = await listenTo(listener, [
    "rustpad://pad/heard",
  ]);
  assert.deepEqual(subscription.honoredFilter.resourceSubscriptions, [
    "rustpad://pad/heard",
  ]);
  await writer.call("append_to_document", { id: "other", text: "x" });
  await writer.call("append_to_document", { id: "heard", text: "y" });
  await waitFor(() => heard.length > 0, "an update for the listened pad");
  assert.deepEqual([...new Set(heard)], ["rustpad://pad/heard"]);
  await subscription.close();
});

Deno.test("2026 era over stdio: subscriptions/listen hears a listened pad change", async () => {
  await using pads = await startPadServer();
  await using listener = await modernStdio({ RUSTPAD_URL: pads.url });
  const { heard, subscription } = await listenTo(listener, [
    "rustpad://pad/stdio-heard",
  ]);
  await listener.call("append_to_document", { id: "other", text: "x" });
  await listener.call("append_to_document", { id: "stdio-heard", text: "y" });
  await waitFor(() => heard.length > 0, "an update for the listened pad");
  assert.deepEqual([...new Set(heard)], ["rustpad://pad/stdio-heard"]);
  await subscription.close();
});

Deno.test("2026 era: listening to a resource that is not a pad, or to more than 20 pads, is refused with -32602 naming why", async () => {
  await using http = await startHttp();
  await using listener = await modernHttp(http.server.url);
  await assert.rejects(
    listener.client.listen({ resourceSubscriptions: ["file:///etc/passwd"] }),
    (error: Error & { code?: number }) =>
      error.code === -32602 && /not a pad URI/.test(error.message),
  );
  const many = Array.from({ length: 21 }, (_, i) => `rustpad://pad/p${i}`);
  await assert.rejects(
    listener.client.listen({ resourceSubscriptions: many }),
    (error: Error & { code?: number }) =>
      error.code === -32602 && /20/.test(error.message),
  );
  // Nothing was held by the refusals: 20 pads fit.
  const fits = await listener.client.listen({
    resourceSubscriptions: many.slice(0, 20),
  });
  assert.equal(fits.honoredFilter.resourceSubscriptions?.length, 20);
  await fits.close();
});
