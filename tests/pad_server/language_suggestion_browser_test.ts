// An agent's suggested language change, made over MCP, in the pad server's
// page in a real headless Chromium: listed in the suggestions panel as a
// language change, and a click on its Accept sets the pad's language for
// everyone. Fails, saying why, when no Chromium can be found.

import assert from "node:assert/strict";
import { structured } from "../_mcp.ts";
import { connectWithDesk } from "../tools/_suggestions.ts";
import { Browser } from "./_browser.ts";

Deno.test("a suggested set_language shows in the page's panel as a language change, and a click on Accept sets the language", async () => {
  await using h = await connectWithDesk();
  structured(
    await h.call("append_to_document", { id: "lang-page", text: "x = 1\n" }),
  );
  const made = structured(
    await h.call("set_language", {
      id: "lang-page",
      language: "python",
      suggest: true,
    }),
  );
  assert.equal(made.status, "suggested");
  await using browser = await Browser.launch();
  const page = await browser.newPage();
  await page.goto(`${h.pads.url}/#lang-page`);
  await page.waitFor(
    `document.querySelector("#suggestion-list li p")?.textContent === "Set the language to python"`,
    "the language change in the panel",
  );
  assert.notEqual(
    await page.evaluate<string>(`document.querySelector("#language").value`),
    "python",
  );
  await page.click("#suggestion-list li button.accept");
  await page.waitFor(
    `document.querySelector("#language").value === "python" && document.querySelector("#suggestions").hidden`,
    "the language set and the panel emptied",
  );
  const info = structured(
    await h.call("get_document_info", { id: "lang-page" }),
  );
  assert.equal(info.language, "python");
  assert.equal(await h.text("lang-page"), "x = 1\n");
});
