// What one HTTP request may answer (issue 27 point 17): a small batch that
// asks for many large answers gets the answers that fit in 4 ×
// RUSTPAD_MCP_MAX_MESSAGE_BYTES, then errors naming that bound; it is
// never all held at once.

import assert from "node:assert/strict";
import { connectHttp, initialize, startHttp } from "../_http.ts";
import { INITIALIZED } from "../_jsonrpc.ts";

Deno.test("a batch of reads past 4 × RUSTPAD_MCP_MAX_MESSAGE_BYTES of answers gets errors naming the bound after the answers that fit", async () => {
  const maxMessageBytes = 65_536;
  await using http = await startHttp({ maxMessageBytes });
  await using writer = await connectHttp(http.server.url);
  await writer.call("append_to_document", {
    id: "big",
    text: "a".repeat(60_000),
  });
  const opened = await initialize(http.server.url);
  const session = opened.headers.get("mcp-session-id")!;
  await opened.body?.cancel();
  const headers = {
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
    "mcp-session-id": session,
    "mcp-protocol-version": "2025-11-25",
  };
  await (await fetch(http.server.url, {
    method: "POST",
    headers,
    body: JSON.stringify(INITIALIZED),
  })).body?.cancel();
  const batch = Array.from({ length: 10 }, (_, i) => ({
    jsonrpc: "2.0",
    id: i + 1,
    method: "tools/call",
    params: { name: "get_document", arguments: { id: "big" } },
  }));
  const body = JSON.stringify(batch);
  assert.ok(body.length < 2_000, "a small request");
  const response = await fetch(http.server.url, {
    method: "POST",
    headers,
    body,
  });
  const text = await response.text();
  const answers = text.split("\n")
    .filter((line) => line.startsWith("data: "))
    .map((line) => JSON.parse(line.slice(6)));
  assert.equal(answers.length, 10);
  const full = answers.filter((answer) => !answer.result.isError);
  const refused = answers.filter((answer) => answer.result.isError);
  assert.ok(full.length >= 1, "the answers that fit are given");
  assert.ok(refused.length >= 1, "the rest are refused");
  for (const answer of refused) {
    assert.match(
      answer.result.content[0].text,
      /^Cannot answer get_document as this HTTP request's answers would pass 256 KiB, the most one request may answer \(4 × RUSTPAD_MCP_MAX_MESSAGE_BYTES\)/,
    );
  }
  // What was answered stays within the bound, plus the short refusals.
  assert.ok(text.length < 4 * maxMessageBytes + refused.length * 1_000);
});
