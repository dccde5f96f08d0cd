import assert from "node:assert/strict";
import { startPadServer } from "../../src/testing/mod.ts";
import { structured } from "../_mcp.ts";
import { RawPerson } from "../_person.ts";
import { agentApi, agentProcess, SECRET } from "./_agents.ts";
import { holdingProxy } from "./_holding_proxy.ts";
import { spawnCli } from "../_http.ts";
import { childEnv } from "../_child_env.ts";
import { uiClient } from "../mcp/_ui_client.ts";

/** `GET /api/suggestions/{pad}`'s JSON. */
async function listed(url: string, pad: string) {
  const response = await fetch(`${url}/api/suggestions/${pad}`);
  return await response.json() as {
    suggestions: { id: string; status: string; decidedBy?: string }[];
  };
}

/**
 * A person's decision through the page's API: Ann, in the pad, decides as
 * her page does (her name is the one her pad socket announced).
 */
async function decide(
  url: string,
  pad: string,
  id: string,
  verdict: "accept" | "reject",
): Promise<number> {
  await using ann = await RawPerson.open(url, pad);
  await ann.introduce("Ann");
  const response = await fetch(`${url}/api/suggestions/${pad}/${id}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ verdict, user_id: ann.id }),
  });
  await response.body?.cancel();
  return response.status;
}

Deno.test("three agent processes on one pad server share its suggestions: each one's, decided in the page's API, is heard by all", async () => {
  await using pads = await startPadServer({ agentSecret: SECRET });
  await using a = await agentProcess(pads.url);
  await using b = await agentProcess(pads.url);
  await using c = await agentProcess(pads.url);
  const agents = [a, b, c];
  structured(
    await a.call("append_to_document", { id: "three", text: "one two six\n" }),
  );
  const ids: string[] = [];
  for (const [index, agent] of agents.entries()) {
    structured(await agent.call("get_document", { id: "three" }));
    const word = ["one", "two", "six"][index]!;
    const made = structured(
      await agent.call("replace_in_document", {
        id: "three",
        search: word,
        replace: word.toUpperCase(),
        suggest: true,
      }),
    );
    assert.equal(made.status, "suggested");
    ids.push(String(made.suggestion_id));
  }
  // People see the three; every agent lists the three, its own as its own.
  assert.deepEqual(
    (await listed(pads.url, "three")).suggestions.map((s) => s.id).sort(),
    [...ids].sort(),
  );
  for (const [index, agent] of agents.entries()) {
    const list = structured(
      await agent.call("list_suggestions", { id: "three" }),
    );
    const mine =
      (list.suggestions as { suggestion_id: string; self: boolean }[])
        .filter((s) => s.self).map((s) => s.suggestion_id);
    assert.deepEqual(mine, [ids[index]]);
  }
  const revision = structured(
    await a.call("get_document_info", { id: "three" }),
  ).revision as number;
  const waits = agents.map((agent) =>
    agent.call("wait_for_change", {
      id: "three",
      since_revision: revision,
      timeout_seconds: 20,
    })
  );
  assert.equal(await decide(pads.url, "three", ids[0]!, "accept"), 200);
  assert.equal(await decide(pads.url, "three", ids[1]!, "reject"), 200);
  assert.equal(await decide(pads.url, "three", ids[2]!, "accept"), 200);
  const text = await (await fetch(`${pads.url}/api/text/three`)).text();
  assert.equal(text, "ONE two SIX\n");
  // Each agent hears the decision on its own suggestion.
  for (const [index, wait] of waits.entries()) {
    const heard = structured(await wait);
    const decisions = heard.decisions as { suggestion_id: string }[] ?? [];
    if (decisions.length === 0) {
      // Woken by the pad's change first: the next wait tells the decision.
      const again = structured(
        await agents[index]!.call("wait_for_change", {
          id: "three",
          since_revision: heard.revision as number,
          timeout_seconds: 20,
        }),
      );
      decisions.push(...again.decisions as { suggestion_id: string }[]);
    }
    assert.deepEqual(decisions.map((d) => d.suggestion_id), [ids[index]]);
  }
  // And every agent sees every decision.
  for (const agent of agents) {
    const list = structured(
      await agent.call("list_suggestions", { id: "three" }),
    );
    const statuses = Object.fromEntries(
      (list.suggestions as { suggestion_id: string; status: string }[])
        .map((s) => [s.suggestion_id, s.status]),
    );
    assert.deepEqual(statuses, {
      [ids[0]!]: "accepted",
      [ids[1]!]: "rejected",
      [ids[2]!]: "accepted",
    });
  }
});

Deno.test("a suggestion outlives the agent process that made it: people accept it after, and another agent's get_changes names an agent as its author", async () => {
  await using pads = await startPadServer({ agentSecret: SECRET });
  let id: string;
  {
    await using maker = await agentProcess(pads.url);
    structured(
      await maker.call("append_to_document", {
        id: "outlive",
        text: "draft\n",
      }),
    );
    const made = structured(
      await maker.call("append_to_document", {
        id: "outlive",
        text: "final\n",
        suggest: true,
      }),
    );
    id = String(made.suggestion_id);
  } // The maker's process ends here.
  const [pending] = (await listed(pads.url, "outlive")).suggestions;
  assert.equal(pending?.id, id);
  assert.equal(pending?.status, "pending");
  assert.equal(await decide(pads.url, "outlive", id, "accept"), 200);
  assert.equal(
    await (await fetch(`${pads.url}/api/text/outlive`)).text(),
    "draft\nfinal\n",
  );
  await using other = await agentProcess(pads.url);
  const changes = structured(
    await other.call("get_changes", { id: "outlive", since_revision: 0 }),
  );
  const authors = (changes.hunks as { authors: { name: string }[] }[])
    .flatMap((hunk) => hunk.authors.map((author) => author.name));
  // Both the maker's write and its accepted suggestion: an agent, not a
  // stranger's user id.
  assert.ok(authors.length > 0);
  for (const name of authors) {
    assert.equal(name, "another agent on this server");
  }
  const list = structured(
    await other.call("list_suggestions", { id: "outlive" }),
  );
  assert.equal(
    (list.suggestions as { status: string }[])[0]?.status,
    "accepted",
  );
});

Deno.test("the agent API refuses a missing or wrong secret with 401, and answers 404 on a pad server without one", async () => {
  await using pads = await startPadServer({ agentSecret: SECRET });
  assert.equal((await agentApi(pads.url, "capabilities")).status, 200);
  const wrong = await agentApi(
    pads.url,
    "capabilities",
    undefined,
    "x".repeat(34),
  );
  assert.equal(wrong.status, 401);
  assert.match(String(wrong.body.error), /agent secret/);
  await using plain = await startPadServer();
  assert.equal((await agentApi(plain.url, "capabilities")).status, 404);
});

Deno.test("an agent without the secret on a pad server that keeps suggestions is refused, told to set RUSTPAD_AGENT_SECRET_FILE, and nothing is held", async () => {
  await using pads = await startPadServer({ agentSecret: SECRET });
  await using agent = await agentProcess(pads.url, {
    RUSTPAD_AGENT_SECRET: "",
  });
  structured(await agent.call("append_to_document", { id: "no", text: "x\n" }));
  const refused = await agent.call("append_to_document", {
    id: "no",
    text: "y\n",
    suggest: true,
  });
  assert.equal(refused.isError, true);
  assert.match(
    JSON.stringify(refused.content),
    /has no agent secret.*set RUSTPAD_AGENT_SECRET_FILE to the pad server's agent\.secret/,
  );
  assert.deepEqual((await listed(pads.url, "no")).suggestions, []);
  assert.equal(await (await fetch(`${pads.url}/api/text/no`)).text(), "x\n");
});

Deno.test("an agent with a secret on a pad server without the agent API keeps its suggestions itself, as on Rustpad", async () => {
  await using pads = await startPadServer();
  await using agent = await agentProcess(pads.url);
  structured(
    await agent.call("append_to_document", { id: "own", text: "x\n" }),
  );
  const made = structured(
    await agent.call("append_to_document", {
      id: "own",
      text: "y\n",
      suggest: true,
    }),
  );
  const list = structured(await agent.call("list_suggestions", { id: "own" }));
  assert.deepEqual(
    (list.suggestions as { suggestion_id: string }[]).map((s) =>
      s.suggestion_id
    ),
    [made.suggestion_id],
  );
  // The pad server holds none: it has no desk.
  assert.deepEqual((await listed(pads.url, "own")).suggestions, []);
});

Deno.test("two identities share the pad server's suggestion bounds fairly, per pad and in all; the refusal names the share", async () => {
  await using pads = await startPadServer({
    agentSecret: SECRET,
    suggestionLimits: { perPad: 4, total: 6 },
  });
  // The pads are open: a suggestion is held on a pad in memory.
  await using _first = await RawPerson.open(pads.url, "shares");
  await using _second = await RawPerson.open(pads.url, "shares-2");
  const hold = (identity: string, pad: string) =>
    agentApi(pads.url, `suggestions/${pad}`, {
      identity,
      agent: `${identity}-session`,
      author: { name: identity, hue: 0 },
      summary: "Add",
      revision: 0,
      operation: ["x"],
      diff: "+x",
      ttlMs: 60_000,
      identities: 2,
    });
  // Per pad: 4 shared by 2 identities, 2 each.
  assert.equal((await hold("alice", "shares")).status, 201);
  assert.equal((await hold("alice", "shares")).status, 201);
  const third = await hold("alice", "shares");
  assert.equal(third.status, 429);
  assert.match(
    String(third.body.error),
    /identity "alice" holds its fair share there: current share is 2 of the 4 pending per pad, shared by 2 identities/,
  );
  assert.equal((await hold("bob", "shares")).status, 201);
  assert.equal((await hold("bob", "shares")).status, 201);
  // In all: 6 shared by 2, 3 each.
  assert.equal((await hold("alice", "shares-2")).status, 201);
  const over = await hold("alice", "shares-2");
  assert.equal(over.status, 429);
  assert.match(
    String(over.body.error),
    /fair share of the server: current share is 3 of the 6 pending per server/,
  );
  assert.equal((await hold("bob", "shares-2")).status, 201);
});

Deno.test("an agent's suggestion accepted on the pad server is its own: get_changes says you, and undo_last_edit takes it back", async () => {
  await using pads = await startPadServer({ agentSecret: SECRET });
  await using agent = await agentProcess(pads.url);
  structured(
    await agent.call("append_to_document", { id: "mine", text: "one\n" }),
  );
  const made = structured(
    await agent.call("append_to_document", {
      id: "mine",
      text: "two\n",
      suggest: true,
    }),
  );
  assert.equal(
    await decide(pads.url, "mine", String(made.suggestion_id), "accept"),
    200,
  );
  // The agent lists it accepted, and from then on it is its own edit.
  const list = structured(await agent.call("list_suggestions", { id: "mine" }));
  const [accepted] = list.suggestions as { landed_revision: number }[];
  const landed = accepted!.landed_revision;
  const changes = structured(
    await agent.call("get_changes", { id: "mine", since_revision: landed - 1 }),
  );
  assert.deepEqual(
    (changes.hunks as { authors: unknown[] }[])[0]?.authors,
    [{ name: "you", self: true }],
  );
  structured(await agent.call("undo_last_edit", { id: "mine" }));
  assert.equal(
    await (await fetch(`${pads.url}/api/text/mine`)).text(),
    "one\n",
  );
});

Deno.test("on a shared pad server only the agent that made a suggestion withdraws it; people then see it withdrawn", async () => {
  await using pads = await startPadServer({ agentSecret: SECRET });
  await using maker = await agentProcess(pads.url);
  await using other = await agentProcess(pads.url);
  structured(
    await maker.call("append_to_document", { id: "take", text: "a\n" }),
  );
  const made = structured(
    await maker.call("append_to_document", {
      id: "take",
      text: "b\n",
      suggest: true,
    }),
  );
  const id = String(made.suggestion_id);
  const refused = await other.call("withdraw_suggestion", {
    id: "take",
    suggestion_id: id,
  });
  assert.equal(refused.isError, true);
  assert.match(JSON.stringify(refused.content), /another agent made it/);
  structured(
    await maker.call("withdraw_suggestion", { id: "take", suggestion_id: id }),
  );
  // Again: the same answer from the maker (idempotent), a refusal to others.
  const again = await maker.call("withdraw_suggestion", {
    id: "take",
    suggestion_id: id,
  });
  assert.equal(
    (again.structuredContent as { status?: string }).status,
    "withdrawn",
  );
  const late = await other.call("withdraw_suggestion", {
    id: "take",
    suggestion_id: id,
  });
  assert.equal(late.isError, true);
  const [shown] = (await listed(pads.url, "take")).suggestions;
  assert.equal(shown?.status, "withdrawn");
  assert.equal(await decide(pads.url, "take", id, "accept"), 409);
  assert.equal(await (await fetch(`${pads.url}/api/text/take`)).text(), "a\n");
});

Deno.test("a wait that starts as a person decides hears the decision at once, even when the decision falls between the agent's first look and its first poll", async () => {
  await using pads = await startPadServer({ agentSecret: SECRET });
  // The agent's first poll of the pad's suggestions is held back while the
  // person decides: the poll then reads the decision as the pad's state.
  await using proxy = holdingProxy(
    pads.url,
    "GET /api/agent/suggestions/race?since=-1",
  );
  await using agent = await agentProcess(proxy.url);
  structured(
    await agent.call("append_to_document", { id: "race", text: "one\n" }),
  );
  const made = structured(
    await agent.call("replace_in_document", {
      id: "race",
      search: "one",
      replace: "ONE",
      suggest: true,
    }),
  );
  const started = performance.now();
  const waiting = agent.call("wait_for_change", {
    id: "race",
    since_revision: made.revision as number,
    timeout_seconds: 8,
  });
  await proxy.held;
  // Long enough for a look the wait made at its start to be answered.
  await new Promise((resolve) => setTimeout(resolve, 300));
  assert.equal(
    await decide(pads.url, "race", String(made.suggestion_id), "reject"),
    200,
  );
  proxy.release();
  const heard = structured(await waiting);
  assert.equal(heard.timed_out, false);
  assert.deepEqual(
    (heard.decisions as { suggestion_id: string; status: string }[])
      .map((d) => [d.suggestion_id, d.status]),
    [[String(made.suggestion_id), "rejected"]],
  );
  assert.ok(performance.now() - started < 5000);
});

Deno.test("the pad's view waiting as an agent holds a suggestion answers at once, even when the hold falls between the view's first look and its server's first poll", async () => {
  await using pads = await startPadServer({ agentSecret: SECRET });
  await using proxy = holdingProxy(
    pads.url,
    "GET /api/agent/suggestions/view-race?since=-1",
  );
  await using server = await spawnCli(
    childEnv({ RUSTPAD_URL: proxy.url, RUSTPAD_AGENT_SECRET: SECRET }),
  );
  await using ui = await uiClient(server.url);
  await ui.call("append_to_document", { id: "view-race", text: "one\n" });
  const shown = (await ui.call("view_read_pad", { id: "view-race" }))
    .structuredContent as { revision: number };
  await using agent = await agentProcess(pads.url);
  structured(await agent.call("get_document", { id: "view-race" }));
  const started = performance.now();
  const waiting = ui.call("view_wait_pad", {
    id: "view-race",
    since_revision: shown.revision,
    shown: [],
    timeout_seconds: 8,
  });
  await proxy.held;
  // Long enough for a look the wait made at its start to be answered.
  await new Promise((resolve) => setTimeout(resolve, 300));
  const made = structured(
    await agent.call("replace_in_document", {
      id: "view-race",
      search: "one",
      replace: "ONE",
      suggest: true,
    }),
  );
  proxy.release();
  const answer = (await waiting).structuredContent as {
    suggestions: { id: string }[];
  };
  assert.ok(performance.now() - started < 5000);
  assert.deepEqual(
    answer.suggestions.map((s) => s.id),
    [made.suggestion_id],
  );
});
