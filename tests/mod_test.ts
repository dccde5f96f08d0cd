import assert from "node:assert/strict";
import * as mod from "../src/mod.ts";
import * as root from "../mod.ts";
// The package by name, as its users import it: the built entry, typed by mod.ts.
import * as built from "@rustpad-mcp/server";

const SRC = new URL("../src/", import.meta.url);

Deno.test("mod.ts, the package's root export, is the small public surface: run it, serve it, share a backend, decide suggestions, edit a pad", async () => {
  const config = JSON.parse(
    await Deno.readTextFile(new URL("../deno.json", import.meta.url)),
  );
  // Published built (deno task build): the same names, mod.ts's types.
  assert.equal(config.exports["."], "./bundle/mod.js");
  assert.deepEqual(Object.keys(built).sort(), Object.keys(root).sort());
  assert.deepEqual(Object.keys(root).sort(), [
    "Backend",
    "BackendDesk",
    "PadSession",
    "RustpadHttpClient",
    "RustpadMcpServer",
    "TextOperation",
    "VERSION",
    "configFromEnvironment",
    "createBackend",
    "createServer",
    "loadConfig",
    "main",
    "serveHttp",
    "serveStdio",
  ]);
  // Each is the repository's own, re-exported unchanged.
  for (const [name, value] of Object.entries(root)) {
    assert.equal((mod as Record<string, unknown>)[name], value, name);
  }
});

/**
 * Never called: type-checked (deno check, deno test), it fails unless the
 * built entry is typed by mod.ts. Inferred from its JavaScript, every
 * parameter would be `any` and the directive below unused.
 */
export function _builtEntryIsTypedByModTs(): void {
  // @ts-expect-error: loadConfig takes the environment's variables, not a number
  built.loadConfig(8080);
}

Deno.test("src/mod.ts, the repository's own index, re-exports every layer's mod.ts", async () => {
  const exported = new Map(Object.entries(mod));
  let layers = 0;
  for await (const entry of Deno.readDir(SRC)) {
    // testing/ and pad_server/ are exports of their own (`./testing`,
    // `./pad-server`); the tool registry is reached through createServer
    // (its definitions' types are zod's), and http/ through serveHttp.
    if (
      !entry.isDirectory ||
      ["http", "pad_server", "testing", "tools"].includes(entry.name)
    ) {
      continue;
    }
    layers++;
    const layer = await import(new URL(`${entry.name}/mod.ts`, SRC).href);
    assert.ok(Object.keys(layer).length > 0, `src/${entry.name}/mod.ts`);
    for (const [name, value] of Object.entries(layer)) {
      assert.equal(
        exported.get(name),
        value,
        `mod.ts re-exports ${name} from src/${entry.name}/mod.ts`,
      );
    }
  }
  assert.ok(layers >= 7, `found ${layers} layer folders`);
});

Deno.test("importing mod.ts has no side effects: nothing printed, nothing left running", async () => {
  const modUrl = new URL("../mod.ts", import.meta.url).href;
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["eval", `await import(${JSON.stringify(modUrl)});`],
    env: { NO_COLOR: "1" },
    stdin: "null",
  }).output();
  assert.equal(output.code, 0);
  assert.equal(new TextDecoder().decode(output.stdout), "");
  assert.equal(new TextDecoder().decode(output.stderr), "");
});
