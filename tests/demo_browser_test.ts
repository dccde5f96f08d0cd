// The demo as a newcomer meets it, with a real headless Chromium as the
// person: they open the pad the demo names, the scripted agent and Ada
// write beside them, the agent proposes a change as a suggestion with its
// reason, the person accepts it in the page, and the agent reports the
// verdict with the person's name. The page is photographed on the way:
// .ci/out/demo-suggestion.png (the suggestion waiting) and
// .ci/out/demo-editor.png (after it landed, the agent writing on); the
// README's docs/suggestion.png and docs/editor.png are copies of these.

import assert from "node:assert/strict";
import { Browser } from "./pad_server/_browser.ts";
import { scratchHome } from "./cli/_run.ts";
import { Demo, keptText } from "./_demo.ts";

const ARTIFACTS = new URL("../.ci/out/", import.meta.url);
const REASON = "Record that the plan shipped on Thursday, as the team agreed.";
/** The person in the page: green, where the agent is blue and Ada orange. */
const PERSON = { name: "Grace Hopper", hue: 140 };

Deno.test("the demo's agent proposes a change with its reason, a person accepts it in the page, and the agent reports the verdict with their name", async () => {
  await using home = await scratchHome();
  await using demo = new Demo(home, []);
  const [, base] = await demo.until(
    /^Open (http:\S+)\/#demo in a browser[^]*Waiting up to 300 s/m,
  );
  await using browser = await Browser.launch();
  const page = await browser.newPage();
  // The person's name and colour, kept by the page as a visitor's are: set
  // on the pad server's origin before the page opens the pad.
  await page.goto(`${base}/api/stats`);
  await page.evaluate(
    `localStorage.setItem("rustpad-user", ${
      JSON.stringify(JSON.stringify(PERSON))
    }); true`,
  );
  await page.goto(`${base}/#demo`);
  await page.waitFor(
    `document.querySelector("#name")?.value === ${
      JSON.stringify(PERSON.name)
    } && document.querySelector("#status").dataset.status === "connected"`,
    "the page connected as the person",
  );
  await demo.until(/Grace Hopper opened the pad: the agent starts/);
  await demo.until(/Allow it\? \[y\/N\] /);
  await demo.answer("y");
  await demo.until(/accept or reject it in the page at http:\S+#demo/i);
  await page.waitFor(
    `document.querySelector("#suggestion-list li p")?.textContent === ${
      JSON.stringify(REASON)
    } && document.querySelector(".suggestion-actions")`,
    "the suggestion with its reason in the page",
  );
  await Deno.mkdir(ARTIFACTS, { recursive: true });
  await page.screenshot(new URL("demo-suggestion.png", ARTIFACTS).pathname);
  await page.click(".suggestion-actions button.accept");
  await demo.until(
    /The agent hears: suggestion \S+ accepted by Grace Hopper\./,
  );
  await page.waitFor(
    `document.querySelector("#suggestions").hidden && document.querySelector(".cm-content").textContent.includes("shipped on Thursday")`,
    "the accepted change in the page",
  );
  await demo.until(/> append_to_document: /);
  await page.waitFor(
    `document.querySelector(".remote-caret .caret-label .agent-badge")`,
    "the agent's caret, badged",
  );
  await page.screenshot(new URL("demo-editor.png", ARTIFACTS).pathname);
  demo.interrupt();
  assert.equal(await demo.exit(), 0, demo.stdout);
  assert.match(
    await keptText(home, "demo") ?? "",
    /^# Plan 🚀 shipped on Thursday 🎉\n\nAll done\.\n- The pad keeps/,
  );
});
