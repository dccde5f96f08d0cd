// The official MCP conformance suite (npm @modelcontextprotocol/conformance
// 0.1.16) against `mod.ts --http`: every active server scenario passes
// except those .ci/conformance-baseline.json lists as not applicable.

import assert from "node:assert/strict";
import { startPadServer } from "../../src/testing/mod.ts";
import { spawnCli } from "../_http.ts";

const SUITE = "npm:@modelcontextprotocol/conformance@0.1.16";
const BASELINE = new URL(
  "../../.ci/conformance-baseline.json",
  import.meta.url,
);

interface Check {
  id: string;
  status: string;
  errorMessage?: string;
}

/** Scenario name -> its checks, from the suite's output directory. */
async function readResults(dir: string): Promise<Map<string, Check[]>> {
  const results = new Map<string, Check[]>();
  for await (const entry of Deno.readDir(dir)) {
    const scenario = /^server-(.+)-\d{4}-\d\d-\d\dT[\d-]+Z$/.exec(entry.name);
    if (!entry.isDirectory || !scenario?.[1]) continue;
    results.set(
      scenario[1],
      JSON.parse(await Deno.readTextFile(`${dir}/${entry.name}/checks.json`)),
    );
  }
  return results;
}

Deno.test("The MCP conformance suite passes every applicable server scenario over --http", async () => {
  await using pads = await startPadServer();
  await using cli = await spawnCli({ RUSTPAD_URL: pads.url });
  const dir = await Deno.makeTempDir({ prefix: "conformance-" });
  try {
    const output = await new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "-A",
        "--no-lock",
        SUITE,
        "server",
        "--url",
        cli.url.href,
        "--expected-failures",
        BASELINE.pathname,
        "-o",
        dir,
      ],
      cwd: dir,
      env: { NO_COLOR: "1" },
      stdin: "null",
    }).output();
    const log = new TextDecoder().decode(output.stdout);
    const results = await readResults(dir);
    const baseline: string[] =
      JSON.parse(await Deno.readTextFile(BASELINE)).server;
    assert.ok(results.size >= 25, `the suite ran its scenarios:\n${log}`);
    const failing = [...results].filter(([, checks]) =>
      checks.some((check) => check.status === "FAILURE")
    ).map(([name]) => name);
    const unexpected = failing.filter((name) => !baseline.includes(name));
    const stale = baseline.filter((name) =>
      results.has(name) && !failing.includes(name)
    );
    assert.deepEqual(unexpected, [], `unexpected failures:\n${log}`);
    assert.deepEqual(stale, [], "baseline entries that now pass");
    for (
      const name of [
        "server-initialize",
        "ping",
        "tools-list",
        "logging-set-level",
        "resources-list",
        "dns-rebinding-protection",
        "server-sse-multiple-streams",
      ]
    ) {
      assert.ok(results.has(name) && !failing.includes(name), name);
    }
    assert.equal(output.code, 0, log);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
