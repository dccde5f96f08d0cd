import assert from "node:assert/strict";
import { startPadServer } from "../../src/pad_server/mod.ts";

const SCRIPT = new URL("../../src/pad_server/pad_server.ts", import.meta.url);

function padServerCommand(...args: string[]): Deno.Command {
  return new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", SCRIPT.href, ...args],
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  });
}

Deno.test("pad_server.ts prints its URL, serves, and exits cleanly on SIGTERM", async () => {
  const child = padServerCommand("--port", "0").spawn();
  const lines = child.stdout.pipeThrough(new TextDecoderStream()).values();
  let output = "";
  while (!output.includes("\n")) {
    const chunk = await lines.next();
    if (chunk.done) break;
    output += chunk.value;
  }
  const url = output.split("\n")[0] ?? "";
  assert.match(url, /^http:\/\/127\.0\.0\.1:\d+$/);

  const response = await fetch(`${url}/api/stats`);
  assert.equal(response.status, 200);
  assert.deepEqual(Object.keys(await response.json()), [
    "start_time",
    "num_documents",
    "database_size",
  ]);

  child.kill("SIGTERM");
  for await (const chunk of lines) output += chunk;
  const stderr = await new Response(child.stderr).text();
  const status = await child.status;
  assert.equal(status.code, 0, stderr);
  assert.equal(output, `${url}\n`);
});

Deno.test("pad_server.ts --help prints its usage", async () => {
  const { code, stdout } = await padServerCommand("--help").output();
  assert.equal(code, 0);
  assert.match(new TextDecoder().decode(stdout), /^Usage: .*--port N/);
});

Deno.test("pad_server.ts refuses a port that is not a number", async () => {
  const { code, stderr } = await padServerCommand("--port", "http").output();
  assert.equal(code, 2);
  assert.match(
    new TextDecoder().decode(stderr),
    /Cannot listen as the port is not an integer/,
  );
});

Deno.test("pad_server.ts on a port in use says so in one line and exits with code 2", async () => {
  await using taken = await startPadServer();
  const { code, stdout, stderr } = await padServerCommand(
    "--port",
    String(taken.port),
  ).output();
  const lines = new TextDecoder().decode(stderr).trim().split("\n");
  assert.equal(code, 2);
  assert.equal(new TextDecoder().decode(stdout), "");
  assert.deepEqual(lines, [
    `error: Cannot listen on 127.0.0.1:${taken.port} as the address is in use: choose another port, or 0 for a free one`,
  ]);
});
