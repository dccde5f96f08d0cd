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
