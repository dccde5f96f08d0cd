import assert from "node:assert/strict";
import { RawPerson } from "./_person.ts";
import { childEnv } from "./_child_env.ts";
import { scratchHome } from "./cli/_run.ts";
import { Demo, keptText } from "./_demo.ts";

Deno.test("the demo with --once runs a person and an agent in one pad, asks the person at the terminal before replacing it, and keeps the pad", async () => {
  await using home = await scratchHome();
  {
    await using demo = new Demo(home, ["--once"]);
    await demo.until(/Allow it\? \[y\/N\] /);
    await demo.answer("y");
    await demo.until(/Accept the suggestion from here\? \[y\/N\] /);
    await demo.answer("y");
    assert.equal(await demo.exit(), 0, demo.stdout);
    assert.match(demo.stdout, /Introduction\n\s*- buy milk 🥛/);
    assert.match(
      demo.stdout,
      /\[dialog\] Replace the whole text of pad "demo" .*\n {2}Allow it\? \[y\/N\] y\n/,
    );
    assert.match(
      demo.stdout,
      /"suggest":true,"summary":"Record that the plan shipped on Thursday, as the team agreed\."/,
    );
    assert.match(
      demo.stdout,
      /accept or reject it in the page at http:\S+#demo .*or answer here\./i,
    );
    assert.match(
      demo.stdout,
      /The agent hears: suggestion \S+ accepted by You, at the terminal\./,
    );
    assert.match(
      demo.stdout,
      /Final text over HTTP:\n# Plan 🚀 shipped on Thursday 🎉\n\nAll done\.\n/,
    );
    assert.match(
      demo.stdout,
      new RegExp(
        `^Open http://127\\.0\\.0\\.1:${home.port}/#demo in a browser to watch the agent write`,
        "m",
      ),
    );
    assert.match(demo.stdout, /Stopped\. The pads are kept \(pads persist in /);
  }
  assert.equal(
    await keptText(home, "demo"),
    "# Plan 🚀 shipped on Thursday 🎉\n\nAll done.\n",
  );
});

Deno.test("the demo run again takes a fresh pad beside the kept one, and a no (or no answer) at the terminal leaves the pad as the people wrote it", async () => {
  await using home = await scratchHome();
  {
    await using first = new Demo(home, ["--once"]);
    await first.answer("y");
    assert.equal(await first.exit(), 0, first.stdout);
  }
  await using again = new Demo(home, ["--once"]);
  await again.answer("no");
  assert.equal(await again.exit(), 0, again.stdout);
  assert.match(again.stdout, /#demo-2 in a browser/);
  assert.match(again.stdout, /Allow it\? \[y\/N\] no\n/);
  assert.match(
    again.stdout,
    /Final text over HTTP:\n# Plan 🚀\n\nIntroduction\n- buy milk 🥛\n/,
  );
  assert.match(again.stdout, /The agent hears: suggestion \S+ rejected/);
  assert.equal(await keptText(home, "demo"), "# Plan 🚀\n\nAll done.\n");
});

Deno.test("the demo waits for a person to open the pad, then keeps the agent writing until Ctrl-C and keeps the pad", async () => {
  await using home = await scratchHome();
  await using demo = new Demo(home, []);
  const [, base] = await demo.until(
    /^Open (http:\S+)\/#demo in a browser[^]*Waiting up to 300 s/m,
  );
  await new Promise((resolve) => setTimeout(resolve, 700));
  assert.doesNotMatch(demo.stdout, /Ada opens the pad/);
  await using grace = await RawPerson.open(base!, "demo");
  grace.announce("Grace");
  await demo.until(/Grace opened the pad: the agent starts/);
  await demo.until(/Allow it\? \[y\/N\] /);
  await demo.answer("y");
  await demo.until(/Accept the suggestion from here\? \[y\/N\] /);
  await demo.answer("y");
  await demo.until(/> append_to_document: /);
  demo.interrupt();
  assert.equal(await demo.exit(), 0, demo.stdout);
  assert.match(demo.stdout, /\nStopped\. The pads are kept \(.*\)\.\n$/);
  assert.match(
    await keptText(home, "demo") ?? "",
    /^# Plan 🚀 shipped on Thursday 🎉\n\nAll done\.\n- The pad keeps every keystroke/,
  );
});

Deno.test("Ctrl-C at the terminal while the demo waits stops the demo and its server cleanly, and the new pad is kept", async () => {
  await using home = await scratchHome();
  await using demo = new Demo(home, [], { group: true });
  await demo.until(/Waiting up to 300 s/);
  demo.interrupt();
  assert.equal(await demo.exit(), 0, demo.stdout);
  assert.match(demo.stdout, /\nStopped\. The pads are kept \(.*\)\.\n$/);
  assert.doesNotMatch(demo.stdout, /Nobody opened/);
  assert.equal(await keptText(home, "demo"), "# Plan 🚀\n\nTODO: intro\n");
});

Deno.test("the demo stops after its time limit when nobody opens the pad, and says how to try again", async () => {
  await using home = await scratchHome();
  await using demo = new Demo(home, ["--wait-seconds", "1"]);
  assert.equal(await demo.exit(), 0, demo.stdout);
  assert.match(demo.stdout, /Waiting up to 1 s for someone to open it/);
  assert.match(
    demo.stdout,
    /Nobody opened http:\S+#demo in time; run deno task demo again when ready/,
  );
  assert.doesNotMatch(demo.stdout, /Ada opens the pad/);
});

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
    env: childEnv(),
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

Deno.test("the suggest-and-accept example: an agent's suggestion changes nothing until a person accepts it through the pad server, then lands once", async () => {
  const output = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      new URL("../examples/suggest_and_accept.ts", import.meta.url).pathname,
    ],
    clearEnv: true,
    env: childEnv(),
    stdin: "null",
  }).output();
  const stdout = new TextDecoder().decode(output.stdout);
  assert.equal(output.code, 0, new TextDecoder().decode(output.stderr));
  assert.match(
    stdout,
    /^agent: suggested s\S+\npad before: "# Plan\\n"\nperson: accepted by Ada\npad after: "# Plan\\n- ship it\\n"\n$/,
  );
});

Deno.test("the examples import the package as its users do: its main export (the built entry) and its pad-server and testing exports, by name", async () => {
  for (const name of ["library.ts", "suggest_and_accept.ts"]) {
    const source = await Deno.readTextFile(
      new URL(`../examples/${name}`, import.meta.url),
    );
    const imported = [...source.matchAll(/from "([^"]+)"/g)].map((m) => m[1]!)
      .filter((path) => path.startsWith(".") || path.startsWith("@rustpad"));
    assert.ok(imported.includes("@rustpad-mcp/server"), name);
    for (const path of imported) {
      assert.ok(
        [
          "@rustpad-mcp/server",
          "@rustpad-mcp/server/pad-server",
          "@rustpad-mcp/server/testing",
        ].includes(path),
        `${name} imports ${path}`,
      );
    }
  }
});
