// The official MCP conformance suite (npm @modelcontextprotocol/conformance
// 0.2.0-alpha.12) against one run of `mod.ts --http --embedded`: the
// requirement sets of both protocol revisions it serves, 2026-07-28 and
// 2025-11-25, each with its baseline of fixture scenarios
// (.ci/conformance-<revision>.yaml). Prints one result line per revision;
// exits 1 unless both baseline checks pass.

const SUITE = "npm:@modelcontextprotocol/conformance@0.2.0-alpha.12";
const REVISIONS = ["2026-07-28", "2025-11-25"];
const ROOT = new URL("../", import.meta.url);

// A data directory of its own: --embedded starts its pad server as a process
// of its own there, which this script stops at the end (the user's pads and
// their pad server are never touched).
const home = await Deno.makeTempDir({ prefix: "rustpad-conformance-" });
const server = new Deno.Command(Deno.execPath(), {
  args: [
    "run",
    "-A",
    new URL("mod.ts", ROOT).pathname,
    "--http",
    "127.0.0.1:0",
    "--embedded",
  ],
  env: { NO_COLOR: "1", HOME: home, XDG_DATA_HOME: home },
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
await stopPadServer(`${home}/rustpad-mcp/pads.server.json`);
await Deno.remove(home, { recursive: true }).catch(() => {});
Deno.exit(failed ? 1 : 0);

/** SIGTERM the pad server whose address file is `path`, and wait for it. */
async function stopPadServer(path: string): Promise<void> {
  let pid: number;
  try {
    ({ pid } = JSON.parse(await Deno.readTextFile(path)));
    Deno.kill(pid, "SIGTERM");
  } catch {
    return; // None was started, or it is gone.
  }
  // It removes its address file once it has stopped.
  for (let i = 0; i < 100; i++) {
    try {
      await Deno.stat(path);
    } catch {
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
