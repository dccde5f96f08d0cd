// An --embedded agent is badged as an agent in a person's page from its
// presence alone: the pad server marked its socket when it joined.

import assert from "node:assert/strict";
import { Browser } from "../pad_server/_browser.ts";
import { TestClient } from "../pad_server/_test_client.ts";
import { scratchHome } from "./_run.ts";
import { embedded } from "./_embedded.ts";

Deno.test("an --embedded agent in a pad is badged as an agent in a person's page with no suggestion listed (its socket presented the agent secret), and a raw socket that says it is an agent is not", async () => {
  await using home = await scratchHome();
  await using agent = await embedded(["--embedded"], {
    ...home.env,
    RUSTPAD_USER_NAME: "Scribe",
  });
  const result = await agent.call("append_to_document", {
    id: "badge",
    text: "written by the agent\n",
  });
  assert.equal(result.isError, undefined, JSON.stringify(result));
  const listed = await (await fetch(`${agent.url}api/suggestions/badge`))
    .json();
  // No suggestion lists it: the agent's own socket (its secret) told the
  // pad server, which lists its user id among the agents.
  assert.deepEqual(listed.suggestions, []);
  assert.equal(listed.agentIds.length, 1);
  const liar = new TestClient(agent.url.slice(0, -1), "badge");
  await using browser = await Browser.launch();
  try {
    liar.send('{"ClientInfo":{"name":"Liar","hue":3,"agent":true}}');
    const page = await browser.newPage();
    await page.goto(`${agent.url}#badge`);
    await page.waitFor(
      `[...document.querySelectorAll("#people li")].some((li) => li.textContent === "Scribe" && li.querySelector(".agent-badge"))`,
      "the agent with its badge in the people list",
    );
    await page.waitFor(
      `[...document.querySelectorAll("#people li")].some((li) => li.textContent === "Liar")`,
      "the liar in the people list",
    );
    assert.equal(
      await page.evaluate<boolean>(
        `[...document.querySelectorAll("#people li")].some((li) => li.textContent === "Liar" && li.querySelector(".agent-badge") !== null)`,
      ),
      false,
    );
  } finally {
    await liar.close();
  }
});
