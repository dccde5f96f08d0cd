import assert from "node:assert/strict";
import {
  compileFailure,
  padServerProblem,
  versionProblem,
} from "../../scripts/compile.ts";
import { VERSION } from "../../src/mod.ts";
import { childEnv } from "../_child_env.ts";

const SCRIPT = new URL("../../scripts/compile.ts", import.meta.url).pathname;

/** An executable shell script in `dir` that prints `text` and exits `code`. */
async function fakeBinary(
  dir: string,
  text: string,
  code = 0,
): Promise<string> {
  const path = `${dir}/fake-${crypto.randomUUID()}`;
  await Deno.writeTextFile(
    path,
    `#!/bin/sh\nprintf '%s\\n' '${text}'\nexit ${code}\n`,
  );
  await Deno.chmod(path, 0o755);
  return path;
}

Deno.test("`deno task compile` (scripts/compile.ts) with DENORT_BIN pointing at deno itself says the binary is plain Deno, removes it and exits 1", async () => {
  const config = JSON.parse(
    await Deno.readTextFile(new URL("../../deno.json", import.meta.url)),
  );
  assert.equal(config.tasks.compile, "deno run -A scripts/compile.ts");
  const dir = await Deno.makeTempDir();
  try {
    const output = `${dir}/rustpad-mcp`;
    const run = await new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", SCRIPT, "--output", output],
      env: { NO_COLOR: "1", DENORT_BIN: Deno.execPath() },
      stdin: "null",
    }).output();
    const stderr = new TextDecoder().decode(run.stderr);
    assert.equal(run.code, 1, stderr);
    assert.match(
      stderr,
      new RegExp(
        `compile: Cannot use ${output} as it does not answer --version as rustpad-mcp ${VERSION}: current answer is "deno \\d[^"]*" \\(exit code 0\\): it is plain Deno, which deno compile makes when DENORT_BIN points at deno itself; point DENORT_BIN at denort`,
      ),
    );
    await assert.rejects(Deno.stat(output), Deno.errors.NotFound);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("versionProblem() accepts a binary that answers --version as rustpad-mcp of this version, and names what any other answered", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const good = await fakeBinary(dir, `rustpad-mcp ${VERSION}`);
    assert.equal(await versionProblem(good), undefined);
    const old = await fakeBinary(dir, "rustpad-mcp 0.0.1");
    assert.equal(
      await versionProblem(old),
      `Cannot use ${old} as it does not answer --version as rustpad-mcp ${VERSION}: current answer is "rustpad-mcp 0.0.1" (exit code 0)`,
    );
    const failing = await fakeBinary(dir, `rustpad-mcp ${VERSION}`, 3);
    assert.match(
      (await versionProblem(failing)) ?? "",
      /current answer is "rustpad-mcp .*" \(exit code 3\)$/,
    );
    assert.match(
      (await versionProblem(`${dir}/missing`)) ?? "",
      new RegExp(`^Cannot run ${dir}/missing --version as `),
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("padServerProblem() accepts a binary whose pad-server --help answers the pad server's usage, and names what any other answered", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const good = await fakeBinary(
      dir,
      "Usage: rustpad-mcp pad-server [--listen [HOST:]PORT]",
    );
    assert.equal(await padServerProblem(good), undefined);
    const mcpOnly = await fakeBinary(dir, `rustpad-mcp ${VERSION}`);
    assert.equal(
      await padServerProblem(mcpOnly),
      `Cannot use ${mcpOnly} as it does not answer pad-server --help with the pad server's usage: current answer is "rustpad-mcp ${VERSION}" (exit code 0)`,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("`deno task compile` that cannot download denort says so in one line, points at DENORT_BIN, and leaves no empty output folder", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const output = `${dir}/dist/rustpad-mcp`;
    // A proxy nothing listens on stands for no network; another platform's
    // denort is not in the cache, so deno compile must download it.
    const other = Deno.build.os === "darwin"
      ? "x86_64-unknown-linux-gnu"
      : "aarch64-apple-darwin";
    const run = await new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", SCRIPT, "--target", other, "--output", output],
      env: {
        NO_COLOR: "1",
        HTTPS_PROXY: "http://127.0.0.1:1",
        https_proxy: "http://127.0.0.1:1",
      },
      stdin: "null",
    }).output();
    const stderr = new TextDecoder().decode(run.stderr);
    assert.notEqual(run.code, 0, stderr);
    assert.match(
      stderr,
      new RegExp(
        `^compile: Cannot compile as deno compile could not download https://\\S+/denort-${other}\\.zip \\(.+\\): build offline by pointing DENORT_BIN at denort of this Deno version \\(${Deno.version.deno}\\)`,
      ),
    );
    assert.doesNotMatch(stderr, /Stack backtrace/);
    assert.equal(stderr.trim().split("\n").length, 1, stderr);
    await assert.rejects(Deno.stat(`${dir}/dist`), Deno.errors.NotFound);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("mod.ts pad-server --help answers the usage padServerProblem() looks for", async () => {
  const output = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      new URL("../../mod.ts", import.meta.url).pathname,
      "pad-server",
      "--help",
    ],
    env: childEnv(),
    stdin: "null",
  }).output();
  assert.equal(output.code, 0);
  assert.match(
    new TextDecoder().decode(output.stdout),
    /^Usage: rustpad-mcp pad-server \[--listen \[HOST:\]PORT\]/,
  );
});

Deno.test("compileFailure() names Deno's error line, without its backtrace, for a failure other than the download", () => {
  assert.equal(
    compileFailure(
      'Check mod.ts\nerror: Module not found "file:///x.ts".\n\nStack backtrace:\n   0: <unknown>\n',
      1,
    ),
    'Cannot compile as deno compile failed with exit code 1: error: Module not found "file:///x.ts".',
  );
});
