// wait_for_change against hosts' request timeouts (issue 27): the default
// wait ends before the SDK's 60-second default, and progress lets a client
// that resets its timeout on progress wait longer than its timeout.

import assert from "node:assert/strict";
// @ts-types="@modelcontextprotocol/sdk/types"
import { CallToolResultSchema } from "@modelcontextprotocol/sdk/types.js";
import { connect, structured } from "../_mcp.ts";

Deno.test("wait_for_change waits 50 s by default, under the 60 s request timeout, and its description says so and what 'quiet' does", async () => {
  await using h = await connect();
  const listed = (await h.client.listTools()).tools.find((tool) =>
    tool.name === "wait_for_change"
  );
  const timeout = (listed?.inputSchema.properties as Record<
    string,
    { default?: unknown }
  >).timeout_seconds;
  assert.equal(timeout?.default, 50);
  const description = listed?.description ?? "";
  // The default is the schema's (above); the description says why.
  assert.match(
    description,
    /many clients cut at 60 s/,
  );
  const until = (listed?.inputSchema.properties as Record<
    string,
    { description?: string }
  >).until;
  assert.match(
    until?.description ?? "",
    /'quiet': a change, then a quiet_ms pause/,
  );
  assert.match(
    description,
    /Else timed_out at timeout_seconds/,
  );
});

Deno.test("wait_for_change outlasts a client's request timeout when the client resets it on progress", async () => {
  await using h = await connect();
  const progress: number[] = [];
  const waited = await h.client.callTool(
    {
      name: "wait_for_change",
      arguments: { id: "long-wait", since_revision: 0, timeout_seconds: 1.5 },
    },
    CallToolResultSchema,
    {
      timeout: 700,
      resetTimeoutOnProgress: true,
      onprogress: (update) => void progress.push(update.progress),
    },
  );
  const answer = structured(waited as Parameters<typeof structured>[0]);
  assert.equal(answer.timed_out, true);
  assert.ok(progress.length >= 2, `progress arrived ${progress.length} times`);
  // Without resetting, the same client gives up at its own timeout.
  await assert.rejects(
    h.client.callTool(
      {
        name: "wait_for_change",
        arguments: { id: "long-wait", since_revision: 0, timeout_seconds: 1.5 },
      },
      CallToolResultSchema,
      { timeout: 700 },
    ),
    /Request timed out/,
  );
});

Deno.test("wait_for_change with until 'quiet' on a pad already past since_revision still waits quiet_ms for the typing to pause", async () => {
  await using h = await connect();
  await h.call("append_to_document", { id: "quiet", text: "done" });
  const started = performance.now();
  const waited = structured(
    await h.call("wait_for_change", {
      id: "quiet",
      since_revision: 0,
      until: "quiet",
      quiet_ms: 300,
    }),
  );
  assert.equal(waited.changed, true);
  assert.ok(
    performance.now() - started >= 300,
    "it returned only after quiet_ms without a change",
  );
});
