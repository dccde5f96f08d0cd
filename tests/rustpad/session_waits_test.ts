import assert from "node:assert/strict";
import {
  EditNotAcknowledgedError,
  PadSession,
  TextOperation,
} from "../../src/mod.ts";
import { startPadServer } from "../../src/testing/mod.ts";

const append = (session: PadSession, text: string): TextOperation =>
  new TextOperation().retain(session.length).insert(text);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

Deno.test("edits acknowledged in time keep a session open for longer than its timeout", async () => {
  await using server = await startPadServer();
  await using session = await PadSession.open(server.url, "steady", {
    timeoutMs: 200,
  });
  const started = performance.now();
  while (performance.now() - started < 700) {
    await session.submit(append(session, "x"));
    await sleep(40);
  }
  await session.submit(append(session, "!"));
  const text = await (await fetch(`${server.url}/api/text/steady`)).text();
  assert.match(text, /^x+!$/);
});

Deno.test("an edit sent after an acknowledged one times out at its own deadline", async () => {
  await using server = await startPadServer();
  await using session = await PadSession.open(server.url, "late", {
    timeoutMs: 300,
  });
  await session.submit(append(session, "a"));
  await sleep(150);
  server.setFrameDelay(2_000);
  const sent = performance.now();
  const error = await session.submit(append(session, "b")).then(
    () => undefined,
    (e) => e,
  );
  const waited = performance.now() - sent;
  assert.ok(error instanceof EditNotAcknowledgedError);
  assert.equal(error.kind, "timeout");
  assert.match(error.message, /within 300 ms/);
  // Not at the first edit's deadline (150 ms after sending), not much later.
  assert.ok(waited >= 280 && waited < 1_500, `timed out after ${waited} ms`);
});
