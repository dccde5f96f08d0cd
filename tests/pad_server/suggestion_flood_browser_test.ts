// Twenty whole-pad suggestions in the pad server's page, in a real
// headless Chromium: the page shows them from the pushed list, a person
// still types into the pad, and one more suggestion appears with no reload.

import assert from "node:assert/strict";
import { startPadServer } from "../../src/testing/mod.ts";
import { RawPerson } from "../_person.ts";
import { agentApi, SECRET } from "./_agents.ts";
import { Browser } from "./_browser.ts";
import { FLOOD, flood, MAX_CODE_POINTS, wholePad } from "./_flood.ts";

const COUNT = `document.querySelector("#suggestion-count").textContent`;

Deno.test("a page on a pad with twenty whole-pad suggestions shows them all, takes a person's typing, and shows one more pushed to it", async () => {
  // One code point short of the bound, so that a person may type one.
  const text = wholePad("base", MAX_CODE_POINTS - 1);
  await using pads = await startPadServer({
    agentSecret: SECRET,
    pads: { flood: { text } },
  });
  await using _person = await RawPerson.open(pads.url, "flood");
  await flood(pads.url, "flood", text, 1);
  await using browser = await Browser.launch();
  const page = await browser.newPage();
  await page.goto(`${pads.url}/#flood`);
  await page.waitFor(
    `${COUNT} === "${FLOOD}"`,
    "the twenty suggestions",
    30_000,
  );
  assert.equal(
    await page.evaluate<number>(
      `document.querySelectorAll("#suggestion-list .suggestion-whole").length`,
    ),
    FLOOD,
  );

  // Responsive: a person's keystroke reaches the pad.
  await page.evaluate(`document.querySelector(".cm-content").focus()`);
  await page.type("Z");
  const until = Date.now() + 10_000;
  let served = "";
  while (Date.now() < until && !served.startsWith("Z")) {
    served = await (await fetch(`${pads.url}/api/text/flood`)).text();
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  assert.ok(
    served.startsWith("Zbase"),
    `the keystroke reached the pad: ${served.indexOf("Z")}`,
  );

  // Pushed: one more, held now, shows without a reload.
  const { revision } = (await agentApi(pads.url, "suggestions/flood")).body;
  const held = await agentApi(pads.url, "suggestions/flood", {
    identity: "",
    agent: "another",
    author: { name: "rustpad-mcp", hue: 100 },
    summary: "One more",
    revision,
    operation: ["!", [...served].length],
    diff: "+!",
    ttlMs: 60_000,
    identities: 1,
  });
  assert.equal(held.status, 201, String(held.body.error));
  await page.waitFor(`${COUNT} === "${FLOOD + 1}"`, "the pushed suggestion");
});
