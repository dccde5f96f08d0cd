import assert from "node:assert/strict";

Deno.test("the demo with --once runs a person and an agent in one pad, keeps both, and names the editor URL", async () => {
  const output = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      new URL("../examples/demo.ts", import.meta.url).pathname,
      "--once",
    ],
    env: { NO_COLOR: "1" },
    stdin: "null",
  }).output();
  const stdout = new TextDecoder().decode(output.stdout);
  assert.equal(output.code, 0, new TextDecoder().decode(output.stderr));
  assert.match(stdout, /Introduction\n\s*- buy milk/);
  assert.match(stdout, /\[dialog\] Replace the whole text of pad "demo"/);
  assert.match(stdout, /Final text over HTTP:\n# Plan\n\nAll done\.\n/);
  assert.match(
    stdout,
    /^Open http:\/\/127\.0\.0\.1:\d+\/#demo in a browser to watch the agent write/m,
  );
});

Deno.test("the demo without --once keeps the agent writing until Ctrl-C, then stops cleanly", async () => {
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      new URL("../examples/demo.ts", import.meta.url).pathname,
    ],
    env: { NO_COLOR: "1" },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let stdout = "";
  while (!/> append_to_document: /.test(stdout)) {
    const { value, done } = await reader.read();
    if (done) break;
    stdout += value;
  }
  const url = /^Open (http:\/\/\S+) in a browser/m.exec(stdout)?.[1];
  const text = await (await fetch(url!.replace("/#", "/api/text/"))).text();
  assert.match(text, /^# Plan\n\nAll done\.\n- The pad keeps every keystroke/);
  child.kill("SIGINT");
  while (true) {
    const { value, done } = await reader.read();
    if (done) break;
    stdout += value;
  }
  const status = await child.status;
  await child.stderr.cancel();
  assert.equal(status.code, 0);
  assert.match(stdout, /\nStopped\.\n$/);
});

function inherited(...names: string[]): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of names) {
    const value = Deno.env.get(name);
    if (value !== undefined) env[name] = value;
  }
  return env;
}

Deno.test("the library example appends twice to a pad and reads it back over HTTP", async () => {
  const output = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      new URL("../examples/library.ts", import.meta.url).pathname,
      "from-test",
    ],
    // No RUSTPAD_URL: the example starts the compatible server itself.
    clearEnv: true,
    env: { NO_COLOR: "1", ...inherited("HOME", "PATH", "DENO_DIR") },
    stdin: "null",
  }).output();
  const stdout = new TextDecoder().decode(output.stdout);
  assert.equal(output.code, 0, new TextDecoder().decode(output.stderr));
  assert.match(stdout, /^appended: revision 1\n37 code points, revision 2\n/);
  assert.match(
    stdout,
    /pad "from-test" over HTTP:\nHello from the library\.\nSecond line\.\n\n$/,
  );
});
