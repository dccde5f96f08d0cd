import assert from "node:assert/strict";

Deno.test("the demo runs a person and an agent in one pad and keeps both", async () => {
  const output = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      new URL("../examples/demo.ts", import.meta.url).pathname,
    ],
    env: { NO_COLOR: "1" },
    stdin: "null",
  }).output();
  const stdout = new TextDecoder().decode(output.stdout);
  assert.equal(output.code, 0, new TextDecoder().decode(output.stderr));
  assert.match(stdout, /Introduction\n\s*- buy milk/);
  assert.match(stdout, /\[dialog\] Replace the whole text of pad "demo"/);
  assert.match(stdout, /Final text over HTTP:\n# Plan\n\nAll done\.\n/);
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
