// A suggested write answers who is at the lines it would change, as a write
// does; a pending suggestion's expiry is a decision the agent hears in
// wait_for_change when it falls due, in memory and on Redis; set_language
// is suggested, decided and heard like the text writes.

import assert from "node:assert/strict";
import { loadConfig } from "../../src/mod.ts";
import { startPadServer } from "../../src/testing/mod.ts";
import { connect, type Harness, structured, textOf } from "../_mcp.ts";
import { startRedis, twoReplicas } from "../_redis.ts";
import { connectWithDesk, decide, listed } from "./_suggestions.ts";
import { padWithAnn } from "./_pads.ts";

Deno.test("a suggested write says who is inside or next to the lines it would change, and nothing when nobody is", async () => {
  await using h = await connectWithDesk();
  await using _ann = await padWithAnn(
    h,
    "sn-near",
    "one\ntwo\nthree\nfour\n",
    9,
  );
  const inside = await h.call("replace_in_document", {
    id: "sn-near",
    search: "three",
    replace: "3",
    suggest: true,
  });
  assert.equal(structured(inside).status, "suggested");
  assert.deepEqual(structured(inside).people_nearby, [
    { name: "Ann", line: 3, where: "inside" },
  ]);
  assert.match(textOf(inside), /People's cursors are at the change/);
  const next = structured(
    await h.call("replace_in_document", {
      id: "sn-near",
      search: "four",
      replace: "4",
      suggest: true,
    }),
  );
  assert.deepEqual(next.people_nearby, [
    { name: "Ann", line: 3, where: "next to" },
  ]);
  const far = structured(
    await h.call("replace_in_document", {
      id: "sn-near",
      search: "one",
      replace: "1",
      suggest: true,
    }),
  );
  assert.equal(far.status, "suggested");
  assert.equal(far.people_nearby, undefined);
  assert.equal(await h.text("sn-near"), "one\ntwo\nthree\nfour\n");
});

/** Suggest on `id`, then wait well past the 1 s TTL: the wait's answer. */
async function suggestAndWait(
  h: Harness,
  id: string,
): Promise<{ made: Record<string, unknown>; heard: Record<string, unknown> }> {
  structured(await h.call("append_to_document", { id, text: "one\n" }));
  const made = structured(
    await h.call("append_to_document", { id, text: "two\n", suggest: true }),
  );
  const heard = structured(
    await h.call("wait_for_change", {
      id,
      since_revision: made.revision as number,
      timeout_seconds: 10,
    }),
  );
  return { made, heard };
}

Deno.test("a pending suggestion's expiry wakes wait_for_change with the verdict, without anyone reading the suggestions", async () => {
  await using h = await connectWithDesk({
    env: { RUSTPAD_SUGGEST_TTL: "1" },
  });
  const { made, heard } = await suggestAndWait(h, "sn-expire");
  // Woken by the expiry, not by the 10 s timeout.
  assert.equal(heard.timed_out, false);
  assert.equal(heard.changed, false);
  assert.deepEqual(heard.decisions, [{
    suggestion_id: made.suggestion_id,
    status: "expired",
    reason: "no one decided it within RUSTPAD_SUGGEST_TTL",
  }]);
  const [shown] = (await listed(h, "sn-expire")).suggestions;
  assert.equal(shown?.status, "expired");
  assert.equal(await h.text("sn-expire"), "one\n");
});

Deno.test("on Redis, a pending suggestion's expiry wakes wait_for_change, and the other replica lists it expired", async () => {
  await using redis = await startRedis();
  await using pads = await startPadServer();
  const config = loadConfig({
    RUSTPAD_URL: pads.url,
    RUSTPAD_SUGGEST_TTL: "1",
  });
  await using replicas = await twoReplicas(redis.url, config);
  const { a, b } = replicas;
  await using agent = await connect({ backend: a, pads });
  const { made, heard } = await suggestAndWait(agent, "sn-redis");
  assert.equal(heard.timed_out, false);
  assert.deepEqual(
    (heard.decisions as { suggestion_id: string; status: string }[])
      .map(({ suggestion_id, status }) => ({ suggestion_id, status })),
    [{ suggestion_id: made.suggestion_id, status: "expired" }],
  );
  const onB = await b.suggestions.list("sn-redis");
  assert.deepEqual(onB.suggestions.map((s) => s.status), ["expired"]);
});

Deno.test("a suggested set_language changes nothing until accepted over HTTP, then sets the language; a rejected one never does", async () => {
  await using h = await connectWithDesk();
  const languageOf = async (id: string) =>
    structured(await h.call("get_document_info", { id })).language;
  structured(
    await h.call("append_to_document", { id: "sn-lang", text: "x\n" }),
  );
  const before = await languageOf("sn-lang");
  const made = structured(
    await h.call("set_language", {
      id: "sn-lang",
      language: "python",
      suggest: true,
    }),
  );
  assert.equal(made.status, "suggested");
  assert.match(String(made.suggestion_id), /\S/);
  assert.equal(await languageOf("sn-lang"), before);
  const [shown] = (await listed(h, "sn-lang")).suggestions as {
    id: string;
    status: string;
    hunks: unknown[];
    language?: string;
  }[];
  assert.deepEqual(
    { status: shown?.status, hunks: shown?.hunks, language: shown?.language },
    { status: "pending", hunks: [], language: "python" },
  );
  const accepted = await decide(
    h,
    "sn-lang",
    String(made.suggestion_id),
    "accept",
    "Ann",
  );
  assert.equal(accepted.status, 200);
  assert.equal(accepted.body.status, "accepted");
  assert.equal(await languageOf("sn-lang"), "python");
  assert.equal(await h.text("sn-lang"), "x\n");

  const other = structured(
    await h.call("set_language", {
      id: "sn-lang",
      language: "rust",
      suggest: true,
    }),
  );
  const rejected = await decide(
    h,
    "sn-lang",
    String(other.suggestion_id),
    "reject",
    "Bo",
  );
  assert.equal(rejected.status, 200);
  // The agent hears both verdicts; the language made no revision.
  const heard = structured(
    await h.call("wait_for_change", {
      id: "sn-lang",
      since_revision: other.revision as number,
      timeout_seconds: 10,
    }),
  );
  assert.deepEqual(heard.decisions, [
    {
      suggestion_id: made.suggestion_id,
      status: "accepted",
      decided_by: "Ann",
      landed_revision: made.revision,
    },
    {
      suggestion_id: other.suggestion_id,
      status: "rejected",
      decided_by: "Bo",
    },
  ]);
  assert.equal(await languageOf("sn-lang"), "python");
});
