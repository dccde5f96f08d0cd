// The pad server as a process of its own, shared by every --embedded agent
// and outliving them: through real processes (agents on stdio through the
// SDK client, pad-server processes, a raw-socket person).

import assert from "node:assert/strict";
import {
  agentSecret,
  SqlitePadDatabase,
  startPadServer,
} from "../../src/pad_server/mod.ts";
import { TestClient } from "../pad_server/_test_client.ts";
import { RawPerson } from "../_person.ts";
import { lockHeld, MOD, type ScratchHome, scratchHome } from "./_run.ts";
import { embedded } from "./_embedded.ts";
import { files, serverPid, text, until } from "./_pad_home.ts";

Deno.test("three --embedded agents started at once share one pad server process on one port: one starts it, two join it, and each one's edit lands in the same pad", async () => {
  await using home = await scratchHome();
  const agents = await Promise.all(
    [1, 2, 3].map(() => embedded(["--embedded"], home.env)),
  );
  try {
    const url = `http://127.0.0.1:${home.port}/`;
    assert.deepEqual(agents.map((agent) => agent.url), [url, url, url]);
    const pid = await serverPid(home);
    const said = agents.map((agent) =>
      /pad server process (\d+) (started|joined)/.exec(agent.stderr())
    );
    assert.deepEqual(said.map((match) => Number(match?.[1])), [pid, pid, pid]);
    assert.deepEqual(said.map((match) => match?.[2]).sort(), [
      "joined",
      "joined",
      "started",
    ]);
    for (const [i, agent] of agents.entries()) {
      const result = await agent.call("append_to_document", {
        id: "shared",
        text: `agent ${i}\n`,
      });
      assert.equal(result.isError, undefined, JSON.stringify(result));
    }
    assert.equal(await text(url, "shared"), "agent 0\nagent 1\nagent 2\n");
  } finally {
    for (const agent of agents) await agent[Symbol.asyncDispose]();
  }
});

Deno.test("the pad server goes on serving a person who keeps typing after the agent that started it exits, and the next agent joins the same process", async () => {
  await using home = await scratchHome();
  const first = await embedded(["--embedded"], home.env);
  const pid = await serverPid(home);
  await first.call("append_to_document", { id: "kept", text: "agent\n" });
  await using person = await RawPerson.open(first.url.slice(0, -1), "kept");
  const typing = person.type(0, "typed while the agent leaves. ");
  await first[Symbol.asyncDispose]();
  await typing;
  await person.type(0, "after. ");
  assert.equal(
    await text(first.url, "kept"),
    "after. typed while the agent leaves. agent\n",
  );
  await using second = await embedded(["--embedded"], home.env);
  assert.equal(second.url, first.url);
  assert.match(second.stderr(), new RegExp(`pad server process ${pid} joined`));
  const read = await second.call("get_document", { id: "kept" });
  assert.match(JSON.stringify(read), /after\. typed while the agent leaves/);
});

/** `mod.ts pad-server` with `args`, in `home`, its stdout and stderr piped. */
function padServer(home: ScratchHome, args: string[], env = {}) {
  return new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", MOD, "pad-server", ...args],
    env: { ...Deno.env.toObject(), NO_COLOR: "1", ...home.env, ...env },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
}

Deno.test("two pad-server processes started at once for the same pads end with one serving: the other says one already runs and exits with code 3, and an --embedded agent joins the one serving", async () => {
  await using home = await scratchHome();
  const listen = `127.0.0.1:${home.port}`;
  const both = [
    padServer(home, ["--listen", listen]),
    padServer(home, ["--listen", listen]),
  ];
  const outputs = both.map((child) => child.output());
  const loser = await Promise.race(
    outputs.map(async (output, i) => ({ i, output: await output })),
  );
  const winner = both[1 - loser.i]!;
  try {
    assert.equal(loser.output.code, 3);
    assert.match(
      new TextDecoder().decode(loser.output.stderr),
      /^rustpad-mcp: Cannot start a pad server for .*pads\.sqlite as one already runs \(its address is in .*pads\.server\.json\): use it, or stop it with SIGTERM first\n$/,
    );
    await until(
      async () =>
        (await Deno.stat(files(home).address).catch(() => null)) !== null,
      "the winner's address",
    );
    assert.equal(await serverPid(home), winner.pid);
    const stats = await fetch(`http://${listen}/api/stats`);
    assert.equal(stats.status, 200);
    await stats.body?.cancel();
    await using agent = await embedded(["--embedded"], home.env);
    assert.equal(agent.url, `http://${listen}/`);
    assert.match(
      agent.stderr(),
      new RegExp(`pad server process ${winner.pid} joined`),
    );
  } finally {
    winner.kill("SIGTERM");
    const { code, stdout } = await outputs[1 - loser.i]!;
    assert.equal(code, 0);
    assert.equal(new TextDecoder().decode(stdout), `http://${listen}/\n`);
  }
});

Deno.test("pad-server on an address another process holds exits 1 with one line saying so, no stack trace, and leaves its lock free and no address behind", async () => {
  await using home = await scratchHome();
  using _holder = Deno.listen({ hostname: "127.0.0.1", port: home.port });
  const { code, stdout, stderr } = await padServer(home, [
    "--listen",
    `127.0.0.1:${home.port}`,
  ]).output();
  assert.equal(code, 1);
  assert.equal(new TextDecoder().decode(stdout), "");
  assert.equal(
    new TextDecoder().decode(stderr),
    `rustpad-mcp: Cannot listen on 127.0.0.1:${home.port} as another process holds that address: stop it, or choose another port with --listen (0 for a free one)\n`,
  );
  assert.equal(await lockHeld(files(home).lock), false);
  assert.equal(await Deno.stat(files(home).address).catch(() => null), null);
});

Deno.test("a pad server killed with SIGKILL leaves its lock free and its address behind: the agent still running starts it again on the same URL, and the next agent joins that one", async () => {
  await using home = await scratchHome();
  await using first = await embedded(["--embedded"], home.env);
  const killed = await serverPid(home);
  Deno.kill(killed, "SIGKILL");
  await until(
    () => /stopped: started it again/.test(first.stderr()),
    "the running agent to start the pad server again",
  );
  const restarted = await serverPid(home);
  assert.notEqual(restarted, killed);
  const result = await first.call("append_to_document", {
    id: "after",
    text: "still here",
  });
  assert.equal(result.isError, undefined, JSON.stringify(result));
  await using second = await embedded(["--embedded"], home.env);
  assert.equal(second.url, first.url);
  assert.match(
    second.stderr(),
    new RegExp(`pad server process ${restarted} joined`),
  );
  assert.equal(await text(second.url, "after"), "still here");
});

Deno.test("a call made after its pad server was stopped on purpose fails within a second, saying it cannot reach it, instead of waiting for a restart that will not come", async () => {
  await using home = await scratchHome();
  await using agent = await embedded(["--embedded"], home.env);
  await home.stopPadServers();
  const started = performance.now();
  const result = await agent.call("append_to_document", {
    id: "kept",
    text: "never",
  });
  const waited = performance.now() - started;
  assert.equal(result.isError, true);
  assert.match(JSON.stringify(result.content), /Cannot reach Rustpad/);
  assert.match(
    JSON.stringify(result.content),
    /Check that the embedded pad server \(now http:\/\/127\.0\.0\.1:\d+\/\) is running: restarting this MCP server starts it again/,
  );
  assert.doesNotMatch(JSON.stringify(result.content), /RUSTPAD_URL/);
  assert.ok(waited < 1500, `answered after ${waited.toFixed(0)} ms`);
});

Deno.test("a pad server killed with SIGKILL while no agent runs is started again by the next agent, which takes over its stale lock and address", async () => {
  await using home = await scratchHome();
  {
    await using _first = await embedded(["--embedded"], home.env);
  }
  const killed = await serverPid(home);
  Deno.kill(killed, "SIGKILL");
  await until(async () => !await lockHeld(files(home).lock), "the lock free");
  assert.equal(await serverPid(home), killed, "the stale address stays");
  await using next = await embedded(["--embedded"], home.env);
  const started = await serverPid(home);
  assert.notEqual(started, killed);
  assert.match(
    next.stderr(),
    new RegExp(`pad server process ${started} started`),
  );
  assert.equal(next.url, `http://127.0.0.1:${home.port}/`);
});

Deno.test("the pad server stops by itself once RUSTPAD_PAD_SERVER_IDLE_SECONDS pass with no person and no agent, and not while an agent runs", async () => {
  await using home = await scratchHome();
  const env = { ...home.env, RUSTPAD_PAD_SERVER_IDLE_SECONDS: "1" };
  const agent = await embedded(["--embedded"], env);
  const pid = await serverPid(home);
  // Three idle times with the agent running but using no pad.
  await new Promise((resolve) => setTimeout(resolve, 3000));
  assert.ok(await lockHeld(files(home).lock), "it runs while the agent does");
  assert.equal(await serverPid(home), pid);
  await agent[Symbol.asyncDispose]();
  await until(async () => !await lockHeld(files(home).lock), "the idle stop");
  await assert.rejects(Deno.stat(files(home).address), Deno.errors.NotFound);
  assert.match(
    await Deno.readTextFile(files(home).log),
    /stopping: idle for 1 s with no person and no agent connected/,
  );
});

Deno.test("SIGTERM stops the pad server once it wrote its pads, and its address file goes with it", async () => {
  await using home = await scratchHome();
  {
    await using agent = await embedded(["--embedded"], home.env);
    await agent.call("append_to_document", { id: "saved", text: "kept 🎉" });
  }
  const pid = await serverPid(home);
  assert.deepEqual(await home.stopPadServers(), [pid]);
  await assert.rejects(Deno.stat(files(home).address), Deno.errors.NotFound);
  using database = new SqlitePadDatabase(home.padsFile);
  assert.equal(database.get("saved")?.text, "kept 🎉");
  assert.match(
    await Deno.readTextFile(files(home).log),
    /stopping: SIGTERM received/,
  );
});

Deno.test("--embedded with another port while the pad server of the same pads runs joins it where it runs, and says the tools use it", async () => {
  await using home = await scratchHome();
  await using first = await embedded(["--embedded"], home.env);
  const other = home.port === 65535 ? home.port - 1 : home.port + 1;
  await using second = await embedded(
    ["--embedded", `127.0.0.1:${other}`],
    home.env,
  );
  assert.equal(second.url, first.url);
  assert.match(
    second.stderr(),
    new RegExp(
      `the pad server of these pads already runs at ${first.url}: the tools use it, not 127\\.0\\.0\\.1:${other}`,
    ),
  );
});

Deno.test("after its pad server was killed, an agent finding another pad server on the address shows that one no agent secret: it uses it as a pad server of someone else's", async () => {
  await using home = await scratchHome();
  {
    await using _first = await embedded(["--embedded"], home.env);
  }
  Deno.kill(await serverPid(home), "SIGKILL");
  await until(async () => !await lockHeld(files(home).lock), "the lock free");
  const secret = await agentSecret(`${home.dir}/data/rustpad-mcp`);
  // A squatter that would mark whoever presents the secret.
  await using squatter = await startPadServer({
    port: home.port,
    agentSecret: secret,
  });
  await using agent = await embedded(["--embedded"], {
    ...home.env,
    RUSTPAD_USER_NAME: "Scribe",
  });
  assert.equal(agent.url, `${squatter.url}/`);
  assert.match(
    agent.stderr(),
    /served by a pad server already listening there/,
  );
  await agent.call("append_to_document", { id: "p", text: "x" });
  const person = new TestClient(squatter.url, "p");
  try {
    await until(
      () => person.frames.some((frame) => frame.includes('"Scribe"')),
      "the agent's UserInfo",
    );
    assert.ok(!person.frames.some((frame) => frame.includes('"agent"')));
  } finally {
    await person.close();
  }
});
