// The 2026-07-28 era, driven by the v2 client pinned to it: no session,
// `server/discover`, every tool over stdio and Streamable HTTP, and the
// 2025 era still served by the same process.

import assert from "node:assert/strict";
import { startPadServer } from "../../src/testing/mod.ts";
import { connectHttp, startHttp } from "../_http.ts";
import { MODERN, modernHttp, modernStdio } from "../_modern.ts";

Deno.test("a client pinned to 2026-07-28 connects over stdio, lists the tools, reads and writes", async () => {
  await using pads = await startPadServer();
  await using agent = await modernStdio({ RUSTPAD_URL: pads.url });
  assert.equal(agent.client.getNegotiatedProtocolVersion(), MODERN);
  const { tools } = await agent.client.listTools();
  assert.ok(tools.some((tool) => tool.name === "append_to_document"));
  const appended = await agent.call("append_to_document", {
    id: "modern",
    text: "hello",
  });
  assert.equal(appended.isError, undefined, JSON.stringify(appended));
  const read = await agent.call("get_document", { id: "modern" });
  assert.equal((read.structuredContent as { text: string }).text, "hello");
  assert.equal(await pads.text("modern"), "hello");
});

Deno.test("one HTTP server serves a 2026-07-28 client without a session and a 2025 client with one, on the same pad", async () => {
  await using http = await startHttp();
  await using modern = await modernHttp(http.server.url);
  assert.equal(modern.client.getNegotiatedProtocolVersion(), MODERN);
  await using legacy = await connectHttp(http.server.url);
  assert.equal(legacy.transport.sessionId !== undefined, true);
  const sessionsBefore = http.server.sessionCount;
  const appended = await modern.call("append_to_document", {
    id: "both",
    text: "from 2026",
  });
  assert.equal(appended.isError, undefined, JSON.stringify(appended));
  // A 2026 request opens no session.
  assert.equal(http.server.sessionCount, sessionsBefore);
  const read = await legacy.call("get_document", { id: "both" });
  assert.equal(
    (read.structuredContent as { text: string }).text,
    "from 2026",
  );
  const { tools } = await modern.client.listTools();
  const { tools: legacyTools } = await legacy.client.listTools();
  assert.deepEqual(
    tools.map((tool) => tool.name),
    legacyTools.map((tool) => tool.name),
  );
});

Deno.test("2026 era: set_document on a non-empty pad asks the person through input_required, and writes only once they accept", async () => {
  await using http = await startHttp();
  const asked: string[] = [];
  let answer: "accept" | "decline" = "decline";
  await using agent = await modernHttp(http.server.url, {
    elicit: (message) => {
      asked.push(message);
      return answer === "accept"
        ? { action: "accept", content: { confirm: true } }
        : { action: "decline" };
    },
  });
  await agent.call("append_to_document", { id: "ask", text: "people's words" });
  const declined = await agent.call("set_document", {
    id: "ask",
    text: "replaced",
  });
  assert.equal(asked.length, 1);
  assert.match(asked[0]!, /pad "ask"/);
  assert.notEqual(
    (declined.structuredContent as { status: string }).status,
    "applied",
  );
  assert.equal(await http.pads.text("ask"), "people's words");
  answer = "accept";
  const accepted = await agent.call("set_document", {
    id: "ask",
    text: "replaced",
  });
  assert.equal(asked.length, 2);
  assert.equal(
    (accepted.structuredContent as { status: string }).status,
    "applied",
    JSON.stringify(accepted),
  );
  assert.equal(await http.pads.text("ask"), "replaced");
});

Deno.test("2026 era over stdio: a client without elicitation gets the two-call confirm_token", async () => {
  await using pads = await startPadServer();
  await using agent = await modernStdio({ RUSTPAD_URL: pads.url });
  await agent.call("append_to_document", { id: "tok", text: "keep me" });
  const first = await agent.call("set_document", { id: "tok", text: "new" });
  const asked = first.structuredContent as {
    status: string;
    confirm_token: string;
  };
  assert.equal(asked.status, "confirmation_required");
  assert.equal(await pads.text("tok"), "keep me");
  const second = await agent.call("set_document", {
    id: "tok",
    text: "new",
    confirm_token: asked.confirm_token,
  });
  assert.equal(
    (second.structuredContent as { status: string }).status,
    "applied",
  );
  assert.equal(await pads.text("tok"), "new");
});

Deno.test("2026 era: a tampered or replayed requestState is refused and changes nothing; the genuine one works once", async () => {
  await using http = await startHttp();
  await using agent = await modernHttp(http.server.url, { manual: true });
  await agent.call("append_to_document", { id: "seal", text: "keep me" });
  const call = { name: "set_document", arguments: { id: "seal", text: "new" } };
  const asked = await agent.client.callTool(call, {
    allowInputRequired: true,
  }) as unknown as {
    resultType: string;
    requestState: string;
    inputRequests: Record<string, { method: string }>;
  };
  assert.equal(asked.resultType, "input_required");
  assert.equal(asked.inputRequests.confirm?.method, "elicitation/create");
  const accept = { confirm: { action: "accept", content: { confirm: true } } };
  const retry = (requestState: string) =>
    agent.client.callTool(
      // The retry's MRTR fields, which callTool's 2025-shaped type lacks.
      { ...call, inputResponses: accept, requestState } as typeof call,
      { allowInputRequired: true },
    );
  const last = asked.requestState.at(-1) === "A" ? "B" : "A";
  const tampered = await retry(asked.requestState.slice(0, -1) + last);
  assert.equal(tampered.isError, true, JSON.stringify(tampered));
  assert.match(
    (tampered.content as { text: string }[])[0]!.text,
    /^Cannot /,
  );
  assert.equal(await http.pads.text("seal"), "keep me");
  const genuine = await retry(asked.requestState);
  assert.equal(
    (genuine.structuredContent as { status: string }).status,
    "applied",
    JSON.stringify(genuine),
  );
  assert.equal(await http.pads.text("seal"), "new");
  await agent.call("append_to_document", { id: "seal", text: "!" });
  const replayed = await retry(asked.requestState);
  assert.equal(replayed.isError, true, JSON.stringify(replayed));
  assert.equal(await http.pads.text("seal"), "new!");
});

Deno.test("2026 era over HTTP: every write answers an edit_id; undo without one asks for it, undo with it undoes exactly that edit", async () => {
  await using http = await startHttp();
  await using agent = await modernHttp(http.server.url);
  const first = await agent.call("append_to_document", {
    id: "undo",
    text: "one ",
  });
  const second = await agent.call("append_to_document", {
    id: "undo",
    text: "two three four five",
  });
  const firstId = (first.structuredContent as { edit_id?: string }).edit_id;
  assert.equal(typeof firstId, "string");
  assert.equal(
    typeof (second.structuredContent as { edit_id?: string }).edit_id,
    "string",
  );
  const unnamed = await agent.call("undo_last_edit", { id: "undo" });
  assert.equal(unnamed.isError, true);
  assert.match(
    (unnamed.content as { text: string }[])[0]!.text,
    /edit_id/,
  );
  assert.equal(await http.pads.text("undo"), "one two three four five");
  const undone = await agent.call("undo_last_edit", {
    id: "undo",
    edit_id: firstId,
  });
  assert.equal(undone.isError, undefined, JSON.stringify(undone));
  // Less than half of the pad: no confirmation needed.
  assert.equal(await http.pads.text("undo"), "two three four five");
});

Deno.test("2026 era over stdio: the process is the caller, so undo_last_edit without edit_id undoes its last edit", async () => {
  await using pads = await startPadServer();
  await using agent = await modernStdio({ RUSTPAD_URL: pads.url });
  await agent.call("append_to_document", { id: "mine", text: "keep this" });
  await agent.call("append_to_document", { id: "mine", text: " drop" });
  const undone = await agent.call("undo_last_edit", { id: "mine" });
  assert.equal(undone.isError, undefined, JSON.stringify(undone));
  assert.equal(await pads.text("mine"), "keep this");
});

Deno.test("2026 era over HTTP: a long wait_for_change sends progress notifications on the request's stream", async () => {
  await using http = await startHttp();
  await using agent = await modernHttp(http.server.url);
  const progress: number[] = [];
  const result = await agent.client.callTool(
    {
      name: "wait_for_change",
      arguments: { id: "slow", since_revision: 0, timeout_seconds: 1.5 },
    },
    { onprogress: (update) => progress.push(update.progress) },
  );
  assert.equal(result.isError, undefined, JSON.stringify(result));
  assert.ok(progress.length >= 2, `progress: ${progress}`);
  assert.ok(progress.every((value, i) => i === 0 || value > progress[i - 1]!));
});

/** A raw 2026-era POST: the envelope in `_meta`, the routing headers. */
async function rawModern(
  url: URL,
  method: string,
  params: Record<string, unknown>,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": MODERN,
      "mcp-method": method,
      ...headers,
    },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method,
      params: {
        ...params,
        _meta: {
          "io.modelcontextprotocol/protocolVersion": MODERN,
          "io.modelcontextprotocol/clientInfo": { name: "raw", version: "1" },
          "io.modelcontextprotocol/clientCapabilities": {},
        },
      },
    }),
  });
  const text = await response.text();
  const data = text.startsWith("{")
    ? text
    : text.split("\n").find((line) => line.startsWith("data: "))!.slice(6);
  return { status: response.status, body: JSON.parse(data) };
}

Deno.test("2026 era over HTTP: caching hints on the tool list and the template, none on pad text; an unknown resource is -32602; a wrong Mcp-Name is refused", async () => {
  await using http = await startHttp();
  const listed = await rawModern(http.server.url, "tools/list", {});
  const tools = listed.body.result as { ttlMs: number; cacheScope: string };
  assert.equal(tools.ttlMs, 3_600_000);
  // Private: the list differs by whether the client renders views.
  assert.equal(tools.cacheScope, "private");
  const templates = await rawModern(
    http.server.url,
    "resources/templates/list",
    {},
  );
  assert.equal((templates.body.result as { ttlMs: number }).ttlMs, 3_600_000);
  const read = await rawModern(
    http.server.url,
    "resources/read",
    { uri: "rustpad://pad/cached" },
    { "mcp-name": "rustpad://pad/cached" },
  );
  assert.equal((read.body.result as { ttlMs: number }).ttlMs, 0);
  const unknown = await rawModern(
    http.server.url,
    "resources/read",
    { uri: "file:///etc/passwd" },
    { "mcp-name": "file:///etc/passwd" },
  );
  assert.equal((unknown.body.error as { code: number }).code, -32602);
  const mismatched = await rawModern(
    http.server.url,
    "tools/call",
    { name: "get_document", arguments: { id: "x" } },
    { "mcp-name": "set_document" },
  );
  assert.ok(
    mismatched.body.error !== undefined,
    JSON.stringify(mismatched.body),
  );
});

Deno.test("2026 era over stdio: a person asked through input_required declines, then accepts", async () => {
  await using pads = await startPadServer();
  let answer: "accept" | "decline" = "decline";
  await using agent = await modernStdio({ RUSTPAD_URL: pads.url }, {
    elicit: () =>
      answer === "accept"
        ? { action: "accept", content: { confirm: true } }
        : { action: "decline" },
  });
  await agent.call("append_to_document", { id: "ask-stdio", text: "theirs" });
  const declined = await agent.call("set_document", {
    id: "ask-stdio",
    text: "mine",
  });
  assert.equal(
    (declined.structuredContent as { status: string }).status,
    "declined",
    JSON.stringify(declined),
  );
  assert.equal(await pads.text("ask-stdio"), "theirs");
  answer = "accept";
  const accepted = await agent.call("set_document", {
    id: "ask-stdio",
    text: "mine",
  });
  assert.equal(
    (accepted.structuredContent as { status: string }).status,
    "applied",
  );
  assert.equal(await pads.text("ask-stdio"), "mine");
});
