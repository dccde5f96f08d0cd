// The pad server's suggestion routes over HTTP, answered by the desk it
// was given (the page's test desk) or by none: the list, a decision, and
// the refusals the contract in suggestion_desk.ts names.

import assert from "node:assert/strict";
import { TextOperation } from "../../src/ot/operation.ts";
import { startPadServer } from "../../src/pad_server/mod.ts";
import { OneSuggestionDesk } from "./_test_desk.ts";
import { RawPerson } from "../_person.ts";

function decide(url: string, body: unknown): Promise<Response> {
  return fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

Deno.test("GET /api/suggestions/{id} answers an empty list and a decision 404 when the pad server has no desk", async () => {
  await using server = await startPadServer();
  const list = await fetch(`${server.url}/api/suggestions/notes`);
  assert.equal(list.status, 200);
  assert.equal(list.headers.get("content-type"), "application/json");
  assert.deepEqual(await list.json(), {
    revision: 0,
    suggestions: [],
    agentIds: [],
  });
  const refused = await decide(`${server.url}/api/suggestions/notes/s1`, {
    verdict: "accept",
  });
  assert.equal(refused.status, 404);
  assert.match((await refused.json()).error, /holds no suggestions/);
});

Deno.test("POST /api/suggestions/{id}/{sid} accepts once with 200 as the person the user_id's pad socket announced, refuses a second decision with 409, an unknown id with 404, a user not in the pad with 403 and a malformed body (a free-text name included) with 400", async () => {
  const desk = new OneSuggestionDesk();
  await using server = await startPadServer({
    pads: { api: { text: "colour" } },
    suggestions: desk,
  });
  await desk.join(server.url, "api");
  try {
    desk.suggest(TextOperation.fromJSON([4, -1, 1]), "American spelling", 4);
    const listed = await (await fetch(`${server.url}/api/suggestions/api`))
      .json();
    assert.equal(listed.revision, 1);
    assert.deepEqual(listed.suggestions[0].hunks, [
      { from: 4, to: 5, deleted: "u", inserted: "" },
    ]);
    assert.equal(listed.agentIds.length, 1);

    const base = `${server.url}/api/suggestions/api`;
    for (const body of ['{"verdict":"maybe"}', "not json", { by: "Ada" }]) {
      const bad = await decide(`${base}/s1`, body);
      assert.equal(bad.status, 400, JSON.stringify(body));
      assert.match((await bad.json()).error, /Cannot decide a suggestion/);
    }
    const missing = await decide(`${base}/s9`, { verdict: "accept" });
    assert.equal(missing.status, 404);
    await missing.body?.cancel();

    const forged = await decide(`${base}/s1`, { verdict: "accept", by: "Ada" });
    assert.equal(forged.status, 400, "a name in the body is refused");
    assert.match((await forged.json()).error, /comes from their pad socket/);
    const stranger = await decide(`${base}/s1`, {
      verdict: "accept",
      user_id: 999,
    });
    assert.equal(stranger.status, 403, "a user not in the pad is refused");
    await stranger.body?.cancel();
    await using ada = await RawPerson.open(server.url, "api");
    await ada.introduce("Ada");
    const accepted = await decide(`${base}/s1`, {
      verdict: "accept",
      user_id: ada.id,
    });
    assert.equal(accepted.status, 200);
    const view = await accepted.json();
    assert.equal(view.status, "accepted");
    assert.equal(view.decidedBy, "Ada");
    assert.equal(
      await (await fetch(`${server.url}/api/text/api`)).text(),
      "color",
    );
    const again = await decide(`${base}/s1`, { verdict: "reject" });
    assert.equal(again.status, 409);
    const refusal = await again.json();
    assert.match(refusal.error, /current status is accepted/);
    assert.equal(refusal.suggestion.status, "accepted");
    assert.equal(
      await (await fetch(`${server.url}/api/text/api`)).text(),
      "color",
    );
    // GET of one answers it whole; no other method is a route.
    const one = await fetch(`${base}/s1`);
    assert.equal((await one.json()).status, "accepted");
    const wrong = await fetch(`${base}/s1`, { method: "PUT" });
    assert.equal(wrong.status, 404);
    await wrong.body?.cancel();
  } finally {
    await desk.close();
  }
});
