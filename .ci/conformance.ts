// The official MCP conformance suite (npm @modelcontextprotocol/conformance
// 0.2.0-alpha.12) against one run of `mod.ts --http --embedded`: the
// requirement sets of both protocol revisions it serves, 2026-07-28 and
// 2025-11-25, each with its baseline of fixture scenarios
// (.ci/conformance-<revision>.yaml). Prints one result line per revision;
// exits 1 unless both baseline checks pass.

const SUITE = "npm:@modelcontextprotocol/conformance@0.2.0-alpha.12";
const REVISIONS = ["2026-07-28", "2025-11-25"];
const ROOT = new URL("../", import.meta.url);

const server = new Deno.Command(Deno.execPath(), {
  args: [
    "run",
    "-A",
    new URL("mod.ts", ROOT).pathname,
    "--http",
    "127.0.0.1:0",
    "--embedded",
  ],
  env: { NO_COLOR: "1" },
  stdin: "null",
  stdout: "null",
  stderr: "piped",
}).spawn();
const url = await (async () => {
  let text = "";
  for await (
    const chunk of server.stderr.pipeThrough(new TextDecoderStream())
  ) {
    text += chunk;
    const found = /serving MCP over HTTP at (\S+)/.exec(text);
    if (found?.[1]) return found[1];
  }
  throw new Error(`Cannot find the server's URL in its stderr: ${text}`);
})();

let failed = false;
for (const revision of REVISIONS) {
  const output = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      "--no-lock",
      SUITE,
      "server",
      "--url",
      url,
      "--requirements",
      revision,
      "--expected-failures",
      new URL(`.ci/conformance-${revision}.yaml`, ROOT).pathname,
    ],
    env: { NO_COLOR: "1" },
    stdin: "null",
    stderr: "inherit",
  }).output();
  const log = new TextDecoder().decode(output.stdout);
  const total = /Total: (\d+) passed, (\d+) failed/.exec(log);
  if (output.code !== 0) {
    failed = true;
    console.log(log);
  }
  console.log(
    `conformance ${revision}: ${total?.[1] ?? "?"} checks passed, ${
      total?.[2] ?? "?"
    } failed (baselined fixture scenarios only: ${
      output.code === 0 ? "yes" : "NO"
    })`,
  );
}
server.kill();
await server.status;
Deno.exit(failed ? 1 : 0);
