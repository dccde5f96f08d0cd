// A pad server killed under its --embedded agent: the agent starts it
// again, and a call made meanwhile (or read together with the news) waits
// for it and lands, through real processes.

import assert from "node:assert/strict";
// @ts-types="@modelcontextprotocol/sdk/types"
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { type ScratchHome, scratchHome } from "./_run.ts";
import { type Embedded, embedded } from "./_embedded.ts";
import { serverPid, text, until } from "./_pad_home.ts";

/**
 * SIGKILL the pad server and wait until its port refuses connections, so
 * the next call finds it gone; its pid.
 */
async function killUntilRefused(
  home: ScratchHome,
  url: string,
): Promise<number> {
  const killed = await serverPid(home);
  Deno.kill(killed, "SIGKILL");
  await until(
    () =>
      fetch(`${url}api/stats`).then((r) => r.body?.cancel()).then(
        () => false,
        () => true,
      ),
    "the port to refuse",
  );
  return killed;
}

Deno.test("a call made just after its pad server was killed waits while the agent starts it again, and lands", async () => {
  await using home = await scratchHome();
  await using agent = await embedded(["--embedded"], home.env);
  await agent.call("append_to_document", { id: "kept", text: "before " });
  const killed = await killUntilRefused(home, agent.url);
  const result = await agent.call("append_to_document", {
    id: "kept",
    text: "after",
  });
  assert.equal(
    result.isError,
    undefined,
    `${JSON.stringify(result)}\nthe agent said:\n${agent.stderr()}`,
  );
  assert.notEqual(await serverPid(home), killed);
  assert.equal(await text(agent.url, "kept"), "before after");
});

/**
 * Kill the pad server while the agent is stopped, and send it `name` with
 * `args` meanwhile: resumed, the agent reads the call and its pad socket's
 * end in one go, so the call may find the pad's old connection still open
 * and send on it. The call's result.
 */
async function callAsItsServerDies(
  home: ScratchHome,
  agent: Embedded,
  name: string,
  args: Record<string, unknown>,
): Promise<CallToolResult> {
  Deno.kill(agent.pid, "SIGSTOP");
  let result;
  try {
    await killUntilRefused(home, agent.url);
    result = agent.call(name, args);
    await new Promise((resolve) => setTimeout(resolve, 100));
  } finally {
    Deno.kill(agent.pid, "SIGCONT");
  }
  return await result;
}

Deno.test("a call that reaches the agent together with the news that its pad server was killed lands on the pad server started again", async () => {
  await using home = await scratchHome();
  await using agent = await embedded(["--embedded"], home.env);
  await agent.call("append_to_document", { id: "kept", text: "before " });
  const answer = await callAsItsServerDies(home, agent, "append_to_document", {
    id: "kept",
    text: "after",
  });
  assert.equal(answer.isError, undefined, JSON.stringify(answer));
  assert.equal(await text(agent.url, "kept"), "before after");
});

Deno.test("set_language that reaches the agent together with the news that its pad server was killed sets it on the pad server started again", async () => {
  await using home = await scratchHome();
  await using agent = await embedded(["--embedded"], home.env);
  await agent.call("append_to_document", { id: "lang", text: "x = 1" });
  const answer = await callAsItsServerDies(home, agent, "set_language", {
    id: "lang",
    language: "python",
  });
  assert.equal(answer.isError, undefined, JSON.stringify(answer));
  const info = await agent.call("get_document_info", { id: "lang" });
  assert.equal(
    (info.structuredContent as { language?: string }).language,
    "python",
    JSON.stringify(info.structuredContent),
  );
});

Deno.test("get_stats asked just after its pad server was killed waits while the agent starts it again, and answers", async () => {
  await using home = await scratchHome();
  await using agent = await embedded(["--embedded"], home.env);
  await agent.call("append_to_document", { id: "counted", text: "one" });
  const killed = await killUntilRefused(home, agent.url);
  const result = await agent.call("get_stats", {});
  assert.equal(result.isError, undefined, JSON.stringify(result));
  assert.notEqual(await serverPid(home), killed);
  const stats = result.structuredContent as { start_time: number };
  assert.equal(typeof stats.start_time, "number", JSON.stringify(stats));
});

Deno.test("a pad server killed while another process takes its port is started again there once the port is free: a call meanwhile fails at once, and the agent says which address is held", async () => {
  await using home = await scratchHome();
  await using agent = await embedded(["--embedded"], home.env);
  await agent.call("append_to_document", { id: "kept", text: "before " });
  await killUntilRefused(home, agent.url);
  const port = Number(new URL(agent.url).port);
  const holder = Deno.listen({ hostname: "127.0.0.1", port });
  // Not a pad server: it hangs up on whoever connects.
  const hangingUp = (async () => {
    for await (const connection of holder) connection.close();
  })();
  const started = performance.now();
  const refused = await agent.call("append_to_document", {
    id: "kept",
    text: "lost",
  });
  assert.equal(refused.isError, true, JSON.stringify(refused));
  assert.ok(performance.now() - started < 10_000);
  assert.match(
    agent.stderr(),
    new RegExp(
      `Cannot start the pad server at ${agent.url} again: Cannot listen on 127\\.0\\.0\\.1:${port} as another process holds that address`,
    ),
  );
  holder.close();
  await hangingUp;
  await until(
    () => /stopped: started it again/.test(agent.stderr()),
    "the agent to start the pad server again once its port is free",
  );
  const result = await agent.call("append_to_document", {
    id: "kept",
    text: "after",
  });
  assert.equal(result.isError, undefined, JSON.stringify(result));
  assert.equal(await text(agent.url, "kept"), "before after");
});

Deno.test("two agents on a pad server killed while another process holds its port: after the one that failed to start it again ends, the other starts it once the port is free, and its call lands", async () => {
  await using home = await scratchHome();
  await using first = await embedded(["--embedded"], home.env);
  await using second = await embedded(["--embedded"], home.env);
  assert.equal(second.url, first.url);
  await second.call("append_to_document", { id: "kept", text: "before " });
  // The second sleeps through the first's failed start, then wakes to it.
  Deno.kill(second.pid, "SIGSTOP");
  try {
    await killUntilRefused(home, first.url);
    const port = Number(new URL(first.url).port);
    // Held until the first agent has ended.
    using _holder = Deno.listen({ hostname: "127.0.0.1", port });
    await until(
      () => /Cannot start the pad server at .* again/.test(first.stderr()),
      "the first agent's failed start",
    );
    await first[Symbol.asyncDispose]();
  } finally {
    Deno.kill(second.pid, "SIGCONT");
  }
  await until(
    () => /stopped: started it again/.test(second.stderr()),
    "the second agent to start the pad server again",
  ).catch((error) => {
    throw new Error(`${error.message}; it said:\n${second.stderr()}`);
  });
  const result = await second.call("append_to_document", {
    id: "kept",
    text: "after",
  });
  assert.equal(result.isError, undefined, JSON.stringify(result));
  assert.equal(await text(second.url, "kept"), "before after");
});
