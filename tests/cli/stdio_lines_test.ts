// The stdio server's line cap, through a piped `mod.ts` process: a line
// over RUSTPAD_MCP_MAX_MESSAGE_BYTES (and lines that are not JSON-RPC) get
// a JSON-RPC error and a line on stderr, and the lines after them are
// served as usual; the server still exits 0 when stdin closes.

import assert from "node:assert/strict";
import { startPadServer } from "../../src/testing/mod.ts";
import { INITIALIZE, INITIALIZED } from "../_jsonrpc.ts";

const MOD = new URL("../../mod.ts", import.meta.url).pathname;
const encoder = new TextEncoder();

function append(id: number, pad: string, text: string): object {
  return {
    jsonrpc: "2.0",
    id,
    method: "tools/call",
    params: { name: "append_to_document", arguments: { id: pad, text } },
  };
}

function line(message: object | string): Uint8Array {
  return encoder.encode(
    `${typeof message === "string" ? message : JSON.stringify(message)}\n`,
  );
}

/** A stdio server on `url`, its stdin and stdout piped. */
function spawnStdio(
  url: string,
  env: Record<string, string> = {},
  stderr: "piped" | "null" = "piped",
): Deno.ChildProcess {
  return new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", MOD],
    env: { RUSTPAD_URL: url, NO_COLOR: "1", ...env },
    stdin: "piped",
    stdout: "piped",
    stderr,
  }).spawn();
}

/** Pipe `lines` into a stdio server, close stdin, and collect everything. */
async function pipeStdio(
  url: string,
  lines: Uint8Array[],
  env: Record<string, string> = {},
): Promise<
  { code: number; answers: Record<string, unknown>[]; stderr: string }
> {
  const child = spawnStdio(url, env);
  const writing = (async () => {
    const writer = child.stdin.getWriter();
    for (const bytes of lines) await writer.write(bytes);
    await writer.close();
  })();
  const [output] = await Promise.all([child.output(), writing]);
  const answers = new TextDecoder().decode(output.stdout).trim().split("\n")
    .filter((text) => text !== "").map((text) => JSON.parse(text))
    .filter((message) => "id" in message);
  return {
    code: output.code,
    answers,
    stderr: new TextDecoder().decode(output.stderr),
  };
}

Deno.test("A stdio line over 10 MiB gets a JSON-RPC error for its own id, and the next request is served", async () => {
  await using pads = await startPadServer();
  // The SDK client writes "id" after "params": at the far end of the line.
  const huge =
    `{"method":"tools/call","params":{"name":"append_to_document","arguments":{"id":"s","text":"${
      "x".repeat(10 * 1024 * 1024 + 10)
    }"}},"jsonrpc":"2.0","id":7}`;
  const { code, answers, stderr } = await pipeStdio(pads.url, [
    line(INITIALIZE),
    line(INITIALIZED),
    line(append(2, "s", "before")),
    line(huge),
    line(append(8, "s", " after")),
  ]);
  assert.equal(code, 0);
  // Answers come as calls finish; find them by id.
  answers.sort((a, b) => (a.id as number) - (b.id as number));
  assert.deepEqual(answers.map((answer) => answer.id), [1, 2, 7, 8]);
  const refused = answers[2] as { error: { code: number; message: string } };
  assert.equal(refused.error.code, -32600);
  assert.match(
    refused.error.message,
    /^Cannot read the message as its line is 10485\d+ bytes, over the limit of 8388608 \(RUSTPAD_MCP_MAX_MESSAGE_BYTES\): send a smaller message; nothing was done$/,
  );
  const served = answers[3] as {
    result: { structuredContent: { status: string } };
  };
  assert.equal(served.result.structuredContent.status, "applied");
  assert.equal(pads.text("s"), "before after");
  assert.match(
    stderr,
    /skipped a stdio line: Cannot read the message as its line is/,
  );
});

Deno.test("Lines that are not JSON or not JSON-RPC get errors, an over-long notification only a line on stderr, and serving goes on", async () => {
  await using pads = await startPadServer();
  const { code, answers, stderr } = await pipeStdio(pads.url, [
    line(INITIALIZE),
    line(INITIALIZED),
    line("this is not json"),
    line({ jsonrpc: "1.0", id: 3, method: 5 }),
    line(
      `{"jsonrpc":"2.0","method":"notifications/x","params":{"p":"${
        "y".repeat(70_000)
      }"}}`,
    ),
    line(`["${"z".repeat(70_000)}"]`),
    encoder.encode("\n\r\n"),
    line(append(9, "n", "still here")),
  ], { RUSTPAD_MCP_MAX_MESSAGE_BYTES: "65536" });
  assert.equal(code, 0);
  const errors = answers.filter((answer) => "error" in answer) as {
    id: unknown;
    error: { code: number; message: string };
  }[];
  assert.deepEqual(
    errors.map(({ id, error }) => [id, error.code]),
    [[null, -32700], [3, -32600], [null, -32600]],
  );
  assert.match(errors[2]!.error.message, /over the limit of 65536/);
  const served = answers.find((answer) => answer.id === 9) as {
    result: { structuredContent: { status: string } };
  };
  assert.equal(served.result.structuredContent.status, "applied");
  assert.equal(pads.text("n"), "still here");
  // The notification over the cap: no answer, but reported.
  assert.equal(stderr.match(/skipped a stdio line/g)?.length, 4);
});

Deno.test("Long reads' answer lines hold the pad's text exactly, in structuredContent and in the fenced text block, read after read", async () => {
  // Every kind of character JSON escapes or encodes apart, past the length
  // from which the text is escaped once for both places and past the one
  // from which lines are encoded into a buffer kept between them: a long
  // read, a short one, a shorter long one (into the same buffer, which
  // still holds the first one's tail) and the long one again.
  const unit = 'quote " backslash \\ tab \t nul \u0000 sep \u2028 é 😀\n';
  const text = unit.repeat(Math.ceil(40_000 / unit.length));
  await using pads = await startPadServer({ pads: { long: { text } } });
  const read = (id: number, args: object) => ({
    jsonrpc: "2.0",
    id,
    method: "tools/call",
    params: { name: "get_document", arguments: { id: "long", ...args } },
  });
  const { code, answers } = await pipeStdio(pads.url, [
    line(INITIALIZE),
    line(INITIALIZED),
    line(read(2, {})),
    line(read(3, { offset: 1, limit: 9000 })),
    line(read(4, { offset: 0, limit: 36_000 })),
    line(read(5, {})),
  ]);
  assert.equal(code, 0);
  answers.sort((a, b) => (a.id as number) - (b.id as number));
  const results = answers.slice(1).map((answer) =>
    (answer as {
      result: {
        content: { type: string; text: string }[];
        structuredContent: { text: string };
      };
    }).result
  );
  // A page ends one unit early rather than split a surrogate pair.
  const pageEnd = (end: number) =>
    /[\udc00-\udfff]/.test(text[end] ?? "") ? end - 1 : end;
  const expected = [
    text,
    text.slice(1, pageEnd(9001)),
    text.slice(0, pageEnd(36_000)),
    text,
  ];
  assert.equal(results.length, expected.length);
  for (const [i, result] of results.entries()) {
    assert.equal(result.structuredContent.text, expected[i]);
    const block = result.content[0]!.text;
    const opening = block.match(/\n<(untrusted-[0-9a-f]{32})>\n/)!;
    assert.ok(
      block.endsWith(`${opening[0]}${expected[i]}</${opening[1]}>`),
      `answer ${i + 2}'s text block ends with the fenced text`,
    );
  }
});

Deno.test("Short answers written while long ones wait for a slow reader come after them, each on a whole line of its own", async () => {
  // Long lines are written asynchronously and short ones at once: a ping
  // answered while a big read's line is still going out (the client has
  // not read the pipe empty yet) must wait for it, not cut into it.
  const text = "a line of the long pad\n".repeat(4000);
  await using pads = await startPadServer({ pads: { long: { text } } });
  const child = spawnStdio(pads.url, {}, "null");
  const writer = child.stdin.getWriter();
  await writer.write(line(INITIALIZE));
  await writer.write(line(INITIALIZED));
  for (let round = 0; round < 10; round++) {
    await writer.write(line({
      jsonrpc: "2.0",
      id: 100 + round,
      method: "tools/call",
      params: { name: "get_document", arguments: { id: "long" } },
    }));
  }
  // Read nothing for a while: the pipe fills with the first long line, the
  // others wait; then ask for short answers, and read slowly to the end.
  await new Promise((resolve) => setTimeout(resolve, 500));
  for (let id = 200; id < 230; id++) {
    await writer.write(line({ jsonrpc: "2.0", id, method: "ping" }));
  }
  await writer.close();
  let output = "";
  const decoder = new TextDecoder();
  for await (const chunk of child.stdout) {
    output += decoder.decode(chunk, { stream: true });
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
  assert.equal((await child.status).code, 0);
  // Every line parses: none was cut into by another.
  const messages = output.trim().split("\n").map((text) =>
    JSON.parse(text) as {
      id?: number;
      result: { structuredContent?: { text: string } };
    }
  );
  const answers = messages.filter((message) => message.id !== undefined);
  assert.deepEqual(answers.map((answer) => answer.id!).sort((a, b) => a - b), [
    1,
    ...Array.from({ length: 10 }, (_, i) => 100 + i),
    ...Array.from({ length: 30 }, (_, i) => 200 + i),
  ]);
  for (const answer of answers.filter((a) => a.id! >= 100 && a.id! < 200)) {
    assert.equal(answer.result.structuredContent?.text, text);
  }
});
