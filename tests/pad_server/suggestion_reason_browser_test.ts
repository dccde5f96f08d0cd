// From the agent to the person, in a real headless Chromium: an agent's
// suggestion with its reason (`summary`) made through the MCP tools shows
// in the pad server's page with that reason; the person's Accept there
// lands it, recorded under the name their page announced; and another
// person's caret label never moves a line of the page's text.

import assert from "node:assert/strict";
import { structured } from "../_mcp.ts";
import { RawPerson } from "../_person.ts";
import { connectWithDesk } from "../tools/_suggestions.ts";
import { Browser } from "./_browser.ts";

const REASON = "Thursday is the agreed release day (team call, 3 Dec).";

Deno.test("an agent's suggestion reaches the page with its reason, and the person's Accept there lands it under the name their page announced", async () => {
  await using h = await connectWithDesk();
  await h.call("create_document", { id: "why", text: "Ship on Friday.\n" });
  const held = structured(
    await h.call("replace_in_document", {
      id: "why",
      search: "Friday",
      replace: "Thursday",
      suggest: true,
      summary: REASON,
    }),
  );
  assert.equal(held.status, "suggested");
  await using browser = await Browser.launch();
  const page = await browser.newPage();
  await page.goto(`${h.pads.url}/#why`);
  await page.waitFor(
    `document.querySelector("#suggestion-list li p")?.textContent === ${
      JSON.stringify(REASON)
    }`,
    "the agent's reason in the panel",
  );
  assert.equal(
    await page.evaluate<string>(
      `document.querySelector("#suggestion-count").textContent`,
    ),
    "1",
  );
  const name = await page.evaluate<string>(
    `document.querySelector("#name").value`,
  );
  await page.click("#suggestion-list li button.accept");
  await page.waitFor(
    `document.querySelector("#suggestions").hidden`,
    "the panel emptied once decided",
  );
  assert.equal(await h.text("why"), "Ship on Thursday.\n");
  const listed = structured(await h.call("list_suggestions", { id: "why" }));
  const [decided] = listed.suggestions as {
    status: string;
    decided_by: string;
    summary: string;
  }[];
  assert.deepEqual(
    [decided!.status, decided!.decided_by, decided!.summary],
    ["accepted", name, REASON],
  );
});

Deno.test("another person's caret label floats over the text: no line of the page moves as the caret comes and goes", async () => {
  await using h = await connectWithDesk();
  const text = "first line\nsecond line\nthird line\n";
  await h.call("create_document", { id: "carets", text });
  await using browser = await Browser.launch();
  const page = await browser.newPage();
  await page.goto(`${h.pads.url}/#carets`);
  await page.waitFor(
    `document.querySelectorAll("#editor .cm-line").length >= 3`,
    "the text",
  );
  const tops =
    `[...document.querySelectorAll("#editor .cm-line")].map((line) => Math.round(line.getBoundingClientRect().top)).join()`;
  const before = await page.evaluate<string>(tops);
  await using ada = await RawPerson.open(h.pads.url, "carets");
  await ada.introduce("Ada Lovelace");
  for (const at of [text.indexOf("second"), 3]) {
    ada.moveCursor(at);
    await page.waitFor(
      `document.querySelector(".remote-caret")?.dataset.name === "Ada Lovelace" && document.querySelector(".remote-caret").closest(".cm-line") === document.querySelectorAll("#editor .cm-line")[${
        at === 3 ? 0 : 1
      }]`,
      `Ada's caret at ${at}`,
    );
    const label = await page.evaluate<{ height: number; visible: boolean }>(
      `(() => { const box = document.querySelector(".caret-label").getBoundingClientRect(); return { height: box.height, visible: getComputedStyle(document.querySelector(".caret-label")).display !== "none" }; })()`,
    );
    assert.ok(label.visible && label.height > 0, "the label shows");
    assert.equal(await page.evaluate<string>(tops), before, `caret at ${at}`);
  }
});
