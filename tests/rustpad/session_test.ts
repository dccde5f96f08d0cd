import assert from "node:assert/strict";
import {
  EditNotAcknowledgedError,
  PadSession,
  PERSISTED_USER_ID,
  SessionError,
  TextOperation,
} from "../../src/mod.ts";
import { startPadServer } from "../../src/testing/mod.ts";
import { waitFor } from "../_wait.ts";
import { freePort } from "../_free_port.ts";

const append = (session: PadSession, text: string): TextOperation =>
  new TextOperation().retain(session.length).insert(text);

async function httpText(url: string, pad: string): Promise<string> {
  const response = await fetch(`${url}/api/text/${pad}`);
  return await response.text();
}

interface RawClient extends AsyncDisposable {
  socket: WebSocket;
  frames: string[];
}

/** A bare WebSocket client, to play a person's editor. */
async function rawClient(url: string, pad: string): Promise<RawClient> {
  const socket = new WebSocket(
    `${url.replace("http", "ws")}/api/socket/${pad}`,
  );
  const frames: string[] = [];
  socket.onmessage = (event) => frames.push(event.data);
  const closed = new Promise<void>((resolve) =>
    socket.onclose = () => resolve()
  );
  await new Promise((resolve) => socket.onopen = resolve);
  return {
    socket,
    frames,
    async [Symbol.asyncDispose]() {
      socket.close();
      await closed;
    },
  };
}

Deno.test("`PadSession.open()` starts an empty pad at revision 0", async () => {
  await using server = await startPadServer();
  await using session = await PadSession.open(server.url, "fresh");
  assert.equal(session.userId, 0);
  assert.equal(session.text, "");
  assert.equal(session.revision, 0);
  assert.equal(session.language, null);
  assert.equal(session.users.size, 0);
});

Deno.test("`submit()` resolves on the server's echo with revision and text", async () => {
  await using server = await startPadServer();
  await using session = await PadSession.open(server.url, "ack");
  const first = await session.submit(append(session, "h🎉llo"));
  assert.deepEqual(first, { revision: 1, text: "h🎉llo" });
  const second = await session.submit(
    new TextOperation().retain(1).delete(1).insert("e").retain(3),
  );
  assert.deepEqual(second, { revision: 2, text: "hello" });
  assert.equal(await httpText(server.url, "ack"), "hello");
});

Deno.test("`submit()` composes edits made while one is in flight", async () => {
  await using server = await startPadServer();
  await using session = await PadSession.open(server.url, "buffer");
  await using watcher = await rawClient(server.url, "buffer");
  const acks = await Promise.all(
    ["a", "b", "c", "d"].map((letter) =>
      session.submit(append(session, letter))
    ),
  );
  assert.equal(acks.at(-1)?.text, "abcd");
  // The first edit went alone; the other three travelled as one composed edit.
  assert.deepEqual(acks.map((ack) => ack.revision), [1, 2, 2, 2]);
  await waitFor(() => watcher.frames.length >= 3, "the watcher's history");
  assert.equal(await httpText(server.url, "buffer"), "abcd");
});

Deno.test("`PadSession.open()` folds the whole history, language, users and cursors", async () => {
  await using server = await startPadServer();
  await using alice = await PadSession.open(server.url, "replay", {
    user: { name: "Alice", hue: 42 },
  });
  await alice.submit(append(alice, "one\n"));
  await alice.submit(append(alice, "two\n"));
  await alice.setLanguage("markdown");
  alice.sendCursor({ cursors: [3], selections: [[1, 4]] });
  await using bob = await PadSession.open(server.url, "replay", {
    user: { name: "Bob", hue: 7 },
  });
  assert.equal(bob.text, "one\ntwo\n");
  assert.equal(bob.revision, 2);
  assert.equal(bob.language, "markdown");
  assert.deepEqual(bob.users.get(alice.userId), {
    name: "Alice",
    hue: 42,
    nameTruncated: false,
  });
  assert.deepEqual(bob.users.get(bob.userId), {
    name: "Bob",
    hue: 7,
    nameTruncated: false,
  });
  assert.deepEqual(bob.cursors.get(alice.userId), {
    cursors: [3],
    selections: [[1, 4]],
  });
  assert.equal(bob.authorOf(0), alice.userId);
  await alice.close();
  await waitFor(() => !bob.users.has(alice.userId), "Alice to leave");
  assert.equal(bob.cursors.has(alice.userId), false);
});

Deno.test("`PadSession` keeps up with other people's edits and language changes", async () => {
  await using server = await startPadServer();
  await using agent = await PadSession.open(server.url, "follow");
  await using person = await PadSession.open(server.url, "follow");
  await person.submit(append(person, "typed by a person"));
  await person.setLanguage("rust");
  await waitFor(() => agent.language === "rust", "the language");
  assert.equal(agent.text, "typed by a person");
  assert.equal(agent.revision, 1);
});

Deno.test("two sessions and a raw socket editing at once converge with /api/text", async () => {
  await using server = await startPadServer();
  await using a = await PadSession.open(server.url, "converge");
  await using b = await PadSession.open(server.url, "converge");
  await a.submit(append(a, "0123456789"));
  await waitFor(() => b.length === 10, "b to see the first edit");
  await using raw = await rawClient(server.url, "converge");
  // The raw client edits against revision 1 however far the pad has moved on.
  const rawEdits = ["X", "Y", "Z"].map((letter, i) =>
    JSON.stringify({
      Edit: { revision: 1, operation: [i * 3, letter, 10 - i * 3] },
    })
  );
  const edits: Promise<unknown>[] = [];
  for (let round = 0; round < 5; round++) {
    edits.push(
      a.submit(new TextOperation().insert(`a${round}`).retain(a.length)),
    );
    edits.push(b.submit(append(b, `b${round}`)));
    edits.push(
      b.submit(new TextOperation().retain(5).insert("!").retain(b.length - 5)),
    );
    const frame = rawEdits[round % rawEdits.length];
    if (frame) raw.socket.send(frame);
  }
  await Promise.all(edits);
  // Buffered edits travel composed, so wait for the text, not a revision.
  const count = (text: string, letter: string) => text.split(letter).length - 1;
  await waitFor(async () => {
    const text = await httpText(server.url, "converge");
    return a.text === text && b.text === text && count(text, "X") === 2 &&
      count(text, "Y") === 2 && count(text, "Z") === 1;
  }, "both sessions and all five raw edits to converge with the server");
  const text = await httpText(server.url, "converge");
  for (const piece of ["a4", "b4", "X", "Y", "Z", "!"]) {
    assert.ok(text.includes(piece), `${piece} is kept in ${text}`);
  }
});

Deno.test("a same-position insert from both sides lands in the server's order", async () => {
  await using server = await startPadServer();
  await using a = await PadSession.open(server.url, "tie");
  await a.submit(append(a, "hello"));
  await using b = await PadSession.open(server.url, "tie");
  const [ackA, ackB] = await Promise.all([
    a.submit(append(a, "A")),
    b.submit(append(b, "B")),
  ]);
  await waitFor(() => a.revision === 3 && b.revision === 3, "both edits");
  const text = await httpText(server.url, "tie");
  assert.equal(a.text, text);
  assert.equal(b.text, text);
  assert.ok(ackA.revision !== ackB.revision);
});

Deno.test("`PadSession` reads a persisted pad whose author id is 2^64-1", async () => {
  await using server = await startPadServer({
    pads: { stored: { text: "hello world", language: "python" } },
  });
  await using session = await PadSession.open(server.url, "stored");
  assert.equal(session.userId, 0);
  assert.equal(session.text, "hello world");
  assert.equal(session.revision, 1);
  assert.equal(session.language, "python");
  assert.equal(session.authorOf(0), PERSISTED_USER_ID);
  const ack = await session.submit(append(session, "!"));
  assert.deepEqual(ack, { revision: 2, text: "hello world!" });
});

Deno.test("`PadSession` skips history it already has (overlap)", async () => {
  await using server = await startPadServer();
  await using session = await PadSession.open(server.url, "overlap");
  await session.submit(append(session, "ab"));
  server.sendRaw(
    "overlap",
    '{"History":{"start":0,"operations":[{"id":99,"operation":["ab"]},{"id":99,"operation":[2,"c"]}]}}',
  );
  await waitFor(() => session.revision === 2, "the new operation");
  assert.equal(session.text, "abc");
  assert.equal(session.authorOf(1), 99);
});

Deno.test("a malformed server frame fails the session and its pending edit, without a crash", async () => {
  await using server = await startPadServer();
  await using session = await PadSession.open(server.url, "malformed");
  server.setFrameDelay(50);
  const edit = session.submit(append(session, "x"));
  server.sendRaw("malformed", '{"History":{"start":"zero"}}');
  const error = await edit.then(() => undefined, (e) => e);
  assert.ok(error instanceof EditNotAcknowledgedError);
  assert.equal(error.kind, "malformed");
  assert.match(error.message, /malformed frame/);
  assert.equal(session.isOpen, false);
  assert.throws(() => session.submit(append(session, "y")), SessionError);
});

Deno.test("a hang-up before the edit is applied rejects it, and the history shows it did not land", async () => {
  await using server = await startPadServer();
  await using session = await PadSession.open(server.url, "drop-before");
  await session.submit(append(session, "kept"));
  server.dropNextEdit({ pad: "drop-before", when: "before-apply" });
  const error = await session.submit(append(session, " lost")).then(
    () => undefined,
    (e) => e,
  );
  assert.ok(error instanceof EditNotAcknowledgedError);
  assert.equal(error.sent, true);
  assert.match(error.message, /may or may not have landed/);
  await using again = await PadSession.open(server.url, "drop-before");
  assert.equal(again.text, "kept");
  assert.equal(again.authorOf(error.revision), undefined);
});

Deno.test("a hang-up after the edit is applied rejects it, and the history shows it landed", async () => {
  await using server = await startPadServer();
  await using session = await PadSession.open(server.url, "drop-after");
  server.dropNextEdit({ pad: "drop-after", when: "after-apply" });
  const error = await session.submit(append(session, "landed")).then(
    () => undefined,
    (e) => e,
  );
  assert.ok(error instanceof EditNotAcknowledgedError);
  await using again = await PadSession.open(server.url, "drop-after");
  assert.equal(again.text, "landed");
  assert.equal(again.authorOf(error.revision), error.userId);
});

Deno.test("an edit the server hangs up on (over 262,144 code points after transform) is rejected", async () => {
  await using server = await startPadServer();
  await using a = await PadSession.open(server.url, "limit");
  await using b = await PadSession.open(server.url, "limit");
  server.setFrameDelay(100);
  // Each edit fits alone; together they exceed the limit at the server.
  const big = "a".repeat(200_000);
  const first = a.submit(append(a, big));
  const second = b.submit(append(b, big)).then(() => undefined, (e) => e);
  await first;
  const error = await second;
  assert.ok(error instanceof EditNotAcknowledgedError);
  assert.equal(error.kind, "closed");
  assert.equal([...await httpText(server.url, "limit")].length, 200_000);
});

Deno.test("`submit()` refuses an edit that does not fit or exceeds the limit, sending nothing", async () => {
  await using server = await startPadServer();
  await using session = await PadSession.open(server.url, "refuse");
  assert.throws(
    () => session.submit(new TextOperation().retain(3)),
    /base length 3 differs from the pad length: current length is 0/,
  );
  assert.throws(
    () => session.submit(new TextOperation().insert("a".repeat(262_145))),
    /over Rustpad's limit of 262144/,
  );
  assert.equal(session.revision, 0);
  assert.equal(session.isOpen, true);
});

Deno.test("`PadSession.open()` times out when the server is too slow", async () => {
  await using server = await startPadServer();
  server.setFrameDelay(1_000);
  const error = await PadSession.open(server.url, "slow", { timeoutMs: 100 })
    .then(() => undefined, (e) => e);
  assert.ok(error instanceof SessionError);
  assert.equal(error.kind, "timeout");
  assert.match(error.message, /within 100 ms/);
});

Deno.test("`submit()` times out when the acknowledgement is too slow", async () => {
  await using server = await startPadServer();
  const session = await PadSession.open(server.url, "slow-ack", {
    timeoutMs: 300,
  });
  server.setFrameDelay(1_000);
  const error = await session.submit(append(session, "x")).then(
    () => undefined,
    (e) => e,
  );
  assert.ok(error instanceof EditNotAcknowledgedError);
  assert.equal(error.kind, "timeout");
  assert.match(error.message, /within 300 ms/);
  await session.close();
});

Deno.test("`PadSession.open()` says the server is unreachable", async () => {
  // Closed: a port no other test is handed meanwhile.
  const port = freePort();
  const error = await PadSession.open(`http://127.0.0.1:${port}`, "nowhere")
    .then(() => undefined, (e) => e);
  assert.ok(error instanceof SessionError);
  assert.equal(error.kind, "unreachable");
  assert.match(
    error.message,
    new RegExp(
      `Cannot reach Rustpad at ws://127.0.0.1:${port}/api/socket/nowhere`,
    ),
  );
});

Deno.test("`PadSession.open()` fails cleanly when the server closes mid-history", async () => {
  await using server = await startPadServer();
  await using writer = await PadSession.open(server.url, "cut");
  await writer.submit(append(writer, "some history"));
  server.closeNextConnectMidHistory({ pad: "cut" });
  const error = await PadSession.open(server.url, "cut").then(
    () => undefined,
    (e) => e,
  );
  assert.ok(error instanceof SessionError);
  assert.equal(error.kind, "closed");
});

Deno.test("`PadSession.open()` refuses a bad pad id before connecting", async () => {
  await assert.rejects(
    PadSession.open("http://127.0.0.1:9", ".."),
    TypeError,
  );
  await assert.rejects(PadSession.open("ftp://example.com", "ok"), TypeError);
});

Deno.test("`setUserInfo()` and `sendCursor()` reach the other people", async () => {
  await using server = await startPadServer();
  await using agent = await PadSession.open(server.url, "meta");
  await using person = await PadSession.open(server.url, "meta");
  await agent.setUserInfo({ name: "agent", hue: 120 });
  agent.sendCursor({ cursors: [0], selections: [] });
  await waitFor(() => person.cursors.has(agent.userId), "the cursor");
  assert.deepEqual(person.users.get(agent.userId), {
    name: "agent",
    hue: 120,
    nameTruncated: false,
  });
});
