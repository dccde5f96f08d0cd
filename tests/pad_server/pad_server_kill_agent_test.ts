// Nothing acknowledged is lost when the pad server dies under an agent:
// its process is killed with SIGKILL at a random moment while a raw-socket
// person types and an MCP agent (`mod.ts` on stdio through the SDK client)
// appends to the same pad (see _kill_loop.ts). Once, the test starts it
// again on the same port and pads file, the agent using it as RUSTPAD_URL;
// once, an --embedded agent starts it again itself.

import assert from "node:assert/strict";
// @ts-types="@modelcontextprotocol/sdk/client/index"
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
// @ts-types="@modelcontextprotocol/sdk/client/stdio"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { padServerArgs, spawnServer } from "./_child_server.ts";
import { killLoop, type KillLoopFigures } from "./_kill_loop.ts";
import { delay } from "./_test_client.ts";
import { MOD, scratchHome } from "../cli/_run.ts";
import { freePort } from "../_free_port.ts";
import { embedded } from "../cli/_embedded.ts";
import { childEnv } from "../_child_env.ts";

const TRIALS = 5;

function report(how: string, figures: KillLoopFigures): void {
  const { edits, appends, failed, refused, lost } = figures;
  console.log(
    `SIGKILL trials (${how}): ${TRIALS}, raw edits acknowledged: ${edits}, MCP appends acknowledged: ${appends} (${failed} failed while it was down, ${refused} of them saying nothing was changed, none of those there), lost: ${lost}`,
  );
  assert.equal(lost, 0);
  assert.ok(appends >= TRIALS && edits >= TRIALS);
}

/** Whether process `pid` runs: not gone, not a zombie. */
function running(pid: number): boolean {
  try {
    return !Deno.readTextFileSync(`/proc/${pid}/stat`).includes(") Z ");
  } catch {
    return false;
  }
}

Deno.test("a pad server killed with SIGKILL while a raw-socket person types and an MCP agent appends loses no acknowledged edit or append in any of 5 trials, started again by the test on the same port and file", async () => {
  const dir = await Deno.makeTempDir();
  const port = freePort();
  const url = `http://127.0.0.1:${port}`;
  const start = () =>
    spawnServer(
      Deno.execPath(),
      padServerArgs("--db", `${dir}/pads.sqlite`, "--port", String(port)),
    );
  let server = await start();
  assert.equal(server.url, url);
  const transport = new StdioClientTransport({
    command: Deno.execPath(),
    args: ["run", "-A", MOD],
    env: childEnv({ RUSTPAD_URL: url, RUSTPAD_USER_NAME: "Appender" }),
    stderr: "pipe",
  });
  let stderr = "";
  transport.stderr?.on("data", (chunk: Uint8Array) => {
    stderr += new TextDecoder().decode(chunk);
  });
  const client = new Client({ name: "kill-loop-test", version: "1.0.0" });
  await client.connect(transport);
  try {
    const figures = await killLoop({
      url,
      client,
      trials: TRIALS,
      stderr: () => stderr,
      async kill() {
        server.child.kill("SIGKILL");
        await server.child.status;
      },
      async restart() {
        server = await start();
      },
    });
    server.child.kill("SIGTERM");
    assert.equal((await server.child.status).code, 0, await server.stderr);
    report("started again by the test", figures);
  } finally {
    await client.close();
    if (running(server.child.pid)) server.child.kill("SIGKILL");
    await server.child.status;
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a pad server killed with SIGKILL while a raw-socket person types and its --embedded agent appends loses no acknowledged edit or append in any of 5 trials, started again by the agent on the same port and file, appends made while it was down waiting for it", async () => {
  await using home = await scratchHome();
  await using agent = await embedded(["--embedded"], home.env);
  const address = home.padsFile.replace(/\.sqlite$/, ".server.json");
  const pid = async () => JSON.parse(await Deno.readTextFile(address)).pid;
  let killed = await pid();
  const figures = await killLoop({
    url: agent.url.slice(0, -1),
    client: agent.client,
    trials: TRIALS,
    stderr: agent.stderr,
    async kill() {
      killed = await pid();
      Deno.kill(killed, "SIGKILL");
      while (running(killed)) await delay(10);
    },
    async restart() {
      const end = performance.now() + 30_000;
      while (performance.now() < end) {
        const now = await pid().catch(() => killed);
        const stats = await fetch(`${agent.url}api/stats`).catch(() => null);
        await stats?.body?.cancel();
        if (now !== killed && stats?.ok) return;
        await delay(25);
      }
      assert.fail(`the agent never started it again: ${agent.stderr()}`);
    },
  });
  report("started again by the --embedded agent", figures);
  // Calls made while it was down waited for the restart: only a call in
  // flight when it died may fail (at most one or two a trial).
  assert.ok(
    figures.failed <= 2 * TRIALS,
    `${figures.failed} appends failed in ${TRIALS} trials`,
  );
});
