// Two replicas (two backends of the team server, each with its own pad
// connections) on one real Redis: a suggestion one replica's agent made is
// decided through the other's suggestions API, lands once, and the agent
// hears the verdict on its own replica.

import assert from "node:assert/strict";
import { loadConfig } from "../../src/mod.ts";
import type { Backend } from "../../src/backend/backend.ts";
import { startPadServer } from "../../src/testing/mod.ts";
import { connect, structured } from "../_mcp.ts";
import { startRedis, twoReplicas } from "../_redis.ts";
import { decide, listed } from "../tools/_suggestions.ts";

Deno.test("replicas on Redis decide each other's suggestions: accepted on B lands once, a second decision on A is refused, and A's agent hears both verdicts", async () => {
  await using redis = await startRedis();
  // The pad server's page decides through replica B.
  const deciding: { b?: Backend } = {};
  await using pads = await startPadServer({
    suggestions: {
      list: (pad) => deciding.b!.suggestions.list(pad),
      decide: (pad, id, verdict, by) =>
        deciding.b!.suggestions.decide(pad, id, verdict, by),
    },
  });
  const config = loadConfig({ RUSTPAD_URL: pads.url });
  await using replicas = await twoReplicas(redis.url, config);
  const { a, b } = replicas;
  deciding.b = b;
  await using agent = await connect({ backend: a, pads });

  structured(
    await agent.call("append_to_document", { id: "r-pad", text: "one\n" }),
  );
  const kept = structured(
    await agent.call("append_to_document", {
      id: "r-pad",
      text: "two\n",
      suggest: true,
    }),
  );
  const dropped = structured(
    await agent.call("append_to_document", {
      id: "r-pad",
      text: "three\n",
      suggest: true,
    }),
  );
  // Replica B knows them from Redis alone.
  const onB = await listed(agent, "r-pad");
  assert.deepEqual(onB.suggestions.map((s) => s.status), [
    "pending",
    "pending",
  ]);

  const waiting = agent.call("wait_for_change", {
    id: "r-pad",
    since_revision: 1,
    timeout_seconds: 10,
  });
  const accepted = await decide(
    agent,
    "r-pad",
    String(kept.suggestion_id),
    "accept",
    "Ann",
  );
  assert.equal(accepted.status, 200);
  assert.equal(await agent.text("r-pad"), "one\ntwo\n");
  const heard = structured(await waiting);
  assert.equal(heard.changed, true);

  // Rejected on B; A's agent hears it by its replica's look at Redis.
  const rejected = await decide(
    agent,
    "r-pad",
    String(dropped.suggestion_id),
    "reject",
    "Bo",
  );
  assert.equal(rejected.status, 200);
  const later = structured(
    await agent.call("wait_for_change", {
      id: "r-pad",
      since_revision: 2,
      timeout_seconds: 10,
    }),
  );
  const decisions = [
    ...(heard.decisions as unknown[] ?? []),
    ...(later.decisions as unknown[] ?? []),
  ];
  assert.deepEqual(
    decisions.map((d) => (d as { status: string }).status).sort(),
    ["accepted", "rejected"],
  );

  // A second decision, now on replica A, changes nothing.
  const again = await a.suggestions.decide(
    "r-pad",
    String(kept.suggestion_id),
    "accept",
    "Cy",
  );
  assert.equal(again.ok, false);
  const twice = await a.suggestions.decide(
    "r-pad",
    String(dropped.suggestion_id),
    "accept",
    "Cy",
  );
  assert.equal(twice.ok, false);
  assert.equal(await agent.text("r-pad"), "one\ntwo\n");
});
