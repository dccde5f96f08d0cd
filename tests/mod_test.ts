import assert from "node:assert/strict";
import * as mod from "../mod.ts";

const SRC = new URL("../src/", import.meta.url);

Deno.test("mod.ts is the package's root export and re-exports every public module of src/", async () => {
  const config = JSON.parse(
    await Deno.readTextFile(new URL("../deno.json", import.meta.url)),
  );
  assert.equal(config.exports["."], "./mod.ts");
  const exported = new Map(Object.entries(mod));
  for await (const entry of Deno.readDir(SRC)) {
    // Private helpers (`_name.ts`) and folders are not part of the root API.
    if (!entry.isFile || entry.name.startsWith("_")) continue;
    const module = await import(new URL(entry.name, SRC).href);
    for (const [name, value] of Object.entries(module)) {
      assert.equal(
        exported.get(name),
        value,
        `mod.ts re-exports ${name} from src/${entry.name}`,
      );
    }
  }
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
