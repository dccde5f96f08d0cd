import assert from "node:assert/strict";
// @ts-types="@modelcontextprotocol/sdk/client/index"
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
// @ts-types="@modelcontextprotocol/sdk/client/stdio"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { CONFIG_VARIABLES, TOOL_NAMES, VERSION } from "../../src/mod.ts";
import { startPadServer } from "../../src/testing/mod.ts";
import { INITIALIZE, INITIALIZED } from "../_jsonrpc.ts";
import { MOD, runMod } from "./_run.ts";
import { childEnv } from "../_child_env.ts";

Deno.test("the stdio server serves a real MCP client and exits when stdin closes", async () => {
  await using pads = await startPadServer();
  const transport = new StdioClientTransport({
    command: Deno.execPath(),
    args: ["run", "-A", MOD],
    env: childEnv({ RUSTPAD_URL: pads.url }),
    stderr: "pipe",
  });
  let stderr = "";
  transport.stderr?.on("data", (chunk: Uint8Array) => {
    stderr += new TextDecoder().decode(chunk);
  });
  const client = new Client({ name: "stdio-test", version: "1.0.0" });
  await client.connect(transport);
  const appended = await client.callTool({
    name: "append_to_document",
    arguments: { id: "stdio", text: "over stdio" },
  });
  assert.equal((appended.structuredContent as { length: number }).length, 10);
  assert.equal(
    await (await fetch(`${pads.url}/api/text/stdio`)).text(),
    "over stdio",
  );
  const tools = await client.listTools();
  assert.deepEqual(tools.tools.map((tool) => tool.name), [...TOOL_NAMES]);
  await client.close();
  assert.match(stderr, /serving on stdio/);
});

Deno.test("`--help` lists every configuration variable", async () => {
  const { code, stdout } = await runMod(["--help"]);
  assert.equal(code, 0);
  for (const variable of CONFIG_VARIABLES) {
    assert.ok(stdout.includes(variable.name), `--help names ${variable.name}`);
  }
});

Deno.test("`--version` prints the version", async () => {
  const { code, stdout } = await runMod(["--version"]);
  assert.equal(code, 0);
  assert.equal(stdout.trim(), `rustpad-mcp ${VERSION}`);
});

Deno.test("an unknown flag stops with exit code 2 and one line on stderr", async () => {
  const { code, stderr, stdout } = await runMod(["--port", "3"]);
  assert.equal(code, 2);
  assert.equal(stdout, "");
  assert.equal(stderr.trim().split("\n").length, 1);
});

for (
  const [variable, value, accepted] of [
    ["RUSTPAD_URL", "ftp://example.com", /http/],
    ["RUSTPAD_ALLOW_TOOLS", "get_document,delete_everything", /get_document/],
    ["RUSTPAD_DENY_TOOLS", "nope", /get_document/],
    ["RUSTPAD_READ_ONLY", "maybe", /true/],
    ["ELICITATION", "sometimes", /false/],
    ["RUSTPAD_USER_HUE", "red", /0 to 359/],
    ["RUSTPAD_TIMEOUT_MS", "soon", /integer/],
  ] as const
) {
  Deno.test(`a bad ${variable} stops the server with exit code 2 naming the variable and value`, async () => {
    const { code, stderr, stdout } = await runMod([], { [variable]: value });
    assert.equal(code, 2);
    assert.equal(stdout, "");
    const lines = stderr.trim().split("\n");
    assert.equal(lines.length, 1, stderr);
    assert.ok(lines[0]!.includes(variable), stderr);
    assert.ok(lines[0]!.includes(value), stderr);
    assert.match(lines[0]!, accepted);
  });
}

/** `mod.ts` on stdio against `url`, with stdin and stdout piped. */
function spawnStdio(url: string, stderr: "piped" | "null"): Deno.ChildProcess {
  return new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", MOD],
    env: { RUSTPAD_URL: url, NO_COLOR: "1" },
    stdin: "piped",
    stdout: "piped",
    stderr,
  }).spawn();
}

/** Messages as newline-delimited JSON, the stdio transport's framing. */
function jsonLines(messages: object[]): Uint8Array {
  return new TextEncoder().encode(
    messages.map((message) => JSON.stringify(message) + "\n").join(""),
  );
}

/** Initialize, then one append: raw JSON-RPC messages for a piped server. */
function appendOverStdio(pad: string, text: string): object[] {
  return [
    INITIALIZE,
    INITIALIZED,
    {
      jsonrpc: "2.0",
      id: 2,
      method: "tools/call",
      params: { name: "append_to_document", arguments: { id: pad, text } },
    },
  ];
}

Deno.test("stdout carries only JSON-RPC, and the server exits with 0 when stdin closes", async () => {
  await using pads = await startPadServer();
  const child = spawnStdio(pads.url, "piped");
  const writer = child.stdin.getWriter();
  await writer.write(jsonLines(appendOverStdio("raw", "hi")));
  // Read both answers, then close stdin.
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let stdout = "";
  while (!stdout.includes('"id":2')) {
    const { value, done } = await reader.read();
    if (done) break;
    stdout += value;
  }
  await writer.close();
  for (
    let chunk = await reader.read();
    !chunk.done;
    chunk = await reader.read()
  ) {
    stdout += chunk.value;
  }
  const { code } = await child.status;
  await child.stderr.cancel();
  assert.equal(code, 0);
  const messages = stdout.trim().split("\n").map((line) => JSON.parse(line));
  for (const message of messages) assert.equal(message.jsonrpc, "2.0");
  // Notifications may come between; the two answers come by their ids.
  const answers = messages.filter((message) => "id" in message);
  assert.deepEqual(answers.map((message) => message.id), [1, 2]);
  assert.equal(answers[1].result.structuredContent.length, 2);
});

Deno.test("the stdio server answers a request that arrived just before stdin closed", async () => {
  await using pads = await startPadServer();
  const child = spawnStdio(pads.url, "null");
  // Everything at once, then stdin closes: a shell pipe does this.
  const writer = child.stdin.getWriter();
  await writer.write(jsonLines(appendOverStdio("piped", "sent, then hung up")));
  await writer.close();
  const { code, stdout } = await child.output();
  assert.equal(code, 0);
  const answers = new TextDecoder().decode(stdout).trim().split("\n")
    .map((line) => JSON.parse(line)).filter((message) => "id" in message);
  assert.deepEqual(answers.map((message) => message.id), [1, 2]);
  assert.equal(answers[1].result.structuredContent.status, "applied");
});

Deno.test("without RUSTPAD_URL the server says on stderr that it uses the public rustpad.io, and with it says nothing of the kind", async () => {
  const unset = await runMod([], { RUSTPAD_URL: "" });
  assert.equal(unset.code, 0);
  assert.match(
    unset.stderr,
    /^rustpad-mcp: RUSTPAD_URL is not set: using the public server https:\/\/rustpad\.io\/, where anyone who learns a pad's id reads it; set RUSTPAD_URL/m,
  );
  assert.match(unset.stderr, /serving on stdio for https:\/\/rustpad\.io\//);
  await using pads = await startPadServer();
  const set = await runMod([], { RUSTPAD_URL: pads.url });
  assert.equal(set.code, 0);
  assert.doesNotMatch(set.stderr, /rustpad\.io/);
});

Deno.test("started by hand at a terminal, the stdio server says it waits for an MCP client on stdin", async () => {
  // `script` (util-linux) gives the server a terminal as stdin; its own
  // stdin is closed, so the server sees the terminal end and stops.
  await using pads = await startPadServer();
  const output = await new Deno.Command("script", {
    args: ["-qec", `'${Deno.execPath()}' run -A '${MOD}'`, "/dev/null"],
    env: { NO_COLOR: "1", RUSTPAD_URL: pads.url },
    stdin: "null",
  }).output();
  const text = new TextDecoder().decode(output.stdout);
  assert.match(
    text,
    /rustpad-mcp: this is an MCP server on stdio: it waits for an MCP client to talk to it on stdin/,
  );
  const piped = await runMod([], { RUSTPAD_URL: pads.url });
  assert.doesNotMatch(piped.stderr, /waits for an MCP client/);
});
