import assert from "node:assert/strict";
import {
  editorSourcesDigest,
  recordedSourcesDigest,
} from "../../scripts/bundle_editor.ts";

const ROOT = new URL("../../", import.meta.url);

/** The digest `scripts/bundle_editor.ts` computes when run in `root`. */
async function digestIn(root: string, ...args: string[]): Promise<string> {
  const script = `
    import * as bundle from "./scripts/bundle_editor.ts";
    const digest = ${
    args.includes("--build")
      ? "bundle.recordedSourcesDigest(await bundle.buildEditorModule())"
      : "await bundle.editorSourcesDigest()"
  };
    console.log(digest);
  `;
  const { code, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
    args: ["eval", script],
    cwd: root,
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.equal(code, 0, new TextDecoder().decode(stderr));
  return new TextDecoder().decode(stdout).trim();
}

Deno.test("the editor page's sources digest does not depend on where the checkout lies, and changes when an editor source does", async () => {
  const here = await editorSourcesDigest();
  const parent = await Deno.makeTempDir({ prefix: "rustpad-bundle-" });
  try {
    // A deeper path than the checkout's: esbuild's chunk names change with it.
    const copy = `${parent}/a/b/c/checkout`;
    await Deno.mkdir(copy, { recursive: true });
    for (const name of ["deno.json", "deno.lock", "src", "scripts"]) {
      await Deno.stat(new URL(name, ROOT));
      const cp = await new Deno.Command("cp", {
        args: ["-r", new URL(name, ROOT).pathname, `${copy}/`],
      }).output();
      assert.equal(cp.code, 0);
    }
    assert.equal(await digestIn(copy), here);
    // What deno task bundle writes records the digest of what it built from.
    assert.equal(await digestIn(copy, "--build"), here);
    const client = `${copy}/src/ot/client_state.ts`;
    await Deno.writeTextFile(
      client,
      `${await Deno.readTextFile(client)}\n// changed\n`,
    );
    assert.notEqual(await digestIn(copy), here);
  } finally {
    await Deno.remove(parent, { recursive: true });
  }
});

Deno.test("a generated editor module without a sources digest records none", () => {
  assert.equal(
    recordedSourcesDigest("export const EDITOR_PAGE = '';"),
    undefined,
  );
  assert.equal(
    recordedSourcesDigest("// x\n// Sources digest: 0123456789abcdef\n"),
    "0123456789abcdef",
  );
});
