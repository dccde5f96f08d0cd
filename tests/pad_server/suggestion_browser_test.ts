// An agent's suggestion in the pad server's page, in a real headless
// Chromium: shown in place as a tracked change, moving with a person's
// typing, and decided with a click. The desk is the test's own
// (`_test_desk.ts`); the page reads and decides through the pad server's
// HTTP API. Each test fails, saying why, when no Chromium can be found.

import assert from "node:assert/strict";
import { TextOperation } from "../../src/ot/operation.ts";
import {
  encodeMessage,
  parseServerMessage,
} from "../../src/rustpad/protocol.ts";
import { startPadServer } from "../../src/pad_server/mod.ts";
import { Browser } from "./_browser.ts";
import { OneSuggestionDesk } from "./_test_desk.ts";
import { TestClient, waitUntil } from "./_test_client.ts";

const ARTIFACTS = new URL("../../.ci/out/", import.meta.url);
/** The page's text, without what suggestions and carets draw in it. */
const TEXT = `[...document.querySelectorAll("#editor .cm-line")].map((line) => {
  const copy = line.cloneNode(true);
  for (const drawn of copy.querySelectorAll(".suggestion-inserted, .suggestion-actions")) {
    drawn.remove();
  }
  return copy.textContent;
}).join("\\n")`;
const SOURCE = 'fn main() {\n    println!("hello");\n}\n';

/** The operations a raw socket's history told. */
function history(frames: readonly string[]): TextOperation[] {
  return frames.map(parseServerMessage).flatMap((message) =>
    "History" in message
      ? message.History.operations.map(({ operation }) => operation)
      : []
  );
}

/** The text a raw socket's history adds up to. */
function historyText(frames: readonly string[]): string {
  return history(frames).reduce((text, op) => op.apply(text), "");
}

Deno.test("a pending suggestion shows in the page as struck and inserted text in the agent's colour, moves with a person's typing, and a click on Accept lands it once", async () => {
  const desk = new OneSuggestionDesk();
  await using server = await startPadServer({
    pads: { review: { text: SOURCE, language: "rust" } },
    suggestions: desk,
  });
  await using browser = await Browser.launch();
  await desk.join(server.url, "review");
  const person = new TestClient(server.url, "review");
  try {
    await person.next(2);
    person.send(encodeMessage({ ClientInfo: { name: "Rosy Otter", hue: 20 } }));
    // Replace "hello" and add a line after the call.
    const hello = SOURCE.indexOf("hello");
    const lineEnd = SOURCE.indexOf("\n", hello) + 1;
    desk.suggest(
      new TextOperation().retain(hello).delete(5).insert("hello, reviewer")
        .retain(lineEnd - hello - 5).insert('    println!("checked");\n')
        .retain(SOURCE.length - lineEnd),
      "Greet the reviewer and say it was checked",
      hello,
    );

    const page = await browser.newPage();
    await page.goto(`${server.url}/#review`);
    await page.waitFor(
      `${TEXT} === ${JSON.stringify(SOURCE)}`,
      "the text",
    );
    await page.waitFor(
      `document.querySelector(".suggestion-deleted")?.textContent === "hello"`,
      "the deleted text struck through",
    );
    const look = await page.evaluate<{
      decoration: string;
      inserted: string[];
      hue: string;
      author: string;
    }>(`(() => {
      const deleted = document.querySelector(".suggestion-deleted");
      const inserted = [...document.querySelectorAll(".suggestion-inserted")];
      return {
        decoration: getComputedStyle(deleted).textDecorationLine,
        inserted: inserted.map((node) => node.textContent),
        hue: inserted[0].style.getPropertyValue("--hue"),
        author: document.querySelector(".suggestion-actions .suggestion-author").textContent,
      };
    })()`);
    assert.equal(look.decoration, "line-through");
    // The inserted line is a line of its own, above the one it goes before.
    assert.deepEqual(look.inserted, [
      "hello, reviewer",
      '    println!("checked");',
    ]);
    assert.equal(look.hue, "280");
    assert.equal(look.author, "Agent Smith");
    // The side panel lists it with the agent's summary and a badge.
    await page.waitFor(
      `document.querySelector("#suggestion-list li p")?.textContent === "Greet the reviewer and say it was checked"`,
      "the suggestion in the panel",
    );

    // A person types a line before it: the marks move with the text.
    person.send(encodeMessage({
      Edit: {
        revision: history(person.frames).length,
        operation: TextOperation.fromJSON(["// reviewed\n", SOURCE.length]),
      },
    }));
    await page.waitFor(
      `${TEXT}.startsWith("// reviewed\\nfn main()")`,
      "the person's line",
    );
    await page.waitFor(
      `document.querySelector(".suggestion-deleted")?.textContent === "hello"`,
      "the struck text still on hello",
    );
    await page.waitFor(
      `[...document.querySelectorAll("#people li")].some((li) => li.textContent === "Agent Smith" && li.querySelector(".agent-badge"))`,
      "the agent with its badge in the people list",
    );
    await page.waitFor(
      `document.querySelector('.remote-caret[data-name="Agent Smith"] .caret-label .agent-badge')`,
      "the agent's caret label with its badge",
    );
    await Deno.mkdir(ARTIFACTS, { recursive: true });
    await page.screenshot(new URL("suggestion.png", ARTIFACTS).pathname);

    // The page's own typing moves them too, once the list has it.
    await page.type("/* ok */ ");
    await page.waitFor(
      `${TEXT}.startsWith("/* ok */ // reviewed")`,
      "the page's own typing",
    );
    assert.ok(
      await waitUntil(() => desk.text.startsWith("/* ok */ "), 5000),
      "the desk hears the page's typing",
    );
    await page.waitFor(
      `Number(document.querySelector("#suggestions").dataset.revision) === ${desk.revision}`,
      "the list of the revision with the page's typing",
    );
    assert.equal(
      await page.evaluate<string>(
        `document.querySelector(".suggestion-deleted")?.textContent`,
      ),
      "hello",
    );
    const name = await page.evaluate<string>(
      `document.querySelector("#name").value`,
    );
    await page.click(".suggestion-actions button.accept");
    const expected =
      '/* ok */ // reviewed\nfn main() {\n    println!("hello, reviewer");\n' +
      '    println!("checked");\n}\n';
    assert.ok(
      await waitUntil(() => historyText(person.frames) === expected, 5000),
      `the person's socket: ${JSON.stringify(historyText(person.frames))}`,
    );
    const overHttp = await fetch(`${server.url}/api/text/review`);
    assert.equal(await overHttp.text(), expected);
    assert.equal(desk.decidedBy, name);
    assert.equal(desk.decisions, 1);
    await page.waitFor(
      `${TEXT} === ${JSON.stringify(expected)}`,
      "the page's text",
    );
    await page.waitFor(
      `!document.querySelector(".suggestion-deleted, .suggestion-inserted") && document.querySelector("#suggestions").hidden`,
      "the marks gone once decided",
    );
  } finally {
    await person.close();
    await desk.close();
  }
});

Deno.test("Reject all in the page's panel drops the pending suggestion and changes nothing in the pad", async () => {
  const desk = new OneSuggestionDesk();
  await using server = await startPadServer({
    pads: { keep: { text: "keep me\n" } },
    suggestions: desk,
  });
  await using browser = await Browser.launch();
  await desk.join(server.url, "keep");
  try {
    desk.suggest(TextOperation.fromJSON([-4, "lose", 4]), "Lose it", 0);
    const page = await browser.newPage();
    await page.goto(`${server.url}/#keep`);
    await page.waitFor(
      `!document.querySelector("#suggestions").hidden`,
      "the panel",
    );
    await page.click("#reject-all");
    await page.waitFor(
      `document.querySelector("#suggestions").hidden`,
      "the panel emptied",
    );
    assert.equal(desk.decisions, 1);
    assert.equal(
      await (await fetch(`${server.url}/api/text/keep`)).text(),
      "keep me\n",
    );
    assert.equal(await page.evaluate<string>(TEXT), "keep me\n");
  } finally {
    await desk.close();
  }
});

Deno.test("a decision the pad server refuses (409) shows its reason beside the button the person clicked and in the panel, and changes nothing", async () => {
  const desk = new OneSuggestionDesk();
  await using server = await startPadServer({
    pads: { late: { text: "draft\n" } },
    suggestions: desk,
  });
  await using browser = await Browser.launch();
  await desk.join(server.url, "late");
  try {
    desk.suggest(TextOperation.fromJSON([-5, "final", 1]), "Finalise", 0);
    const page = await browser.newPage();
    await page.goto(`${server.url}/#late`);
    await page.waitFor(`document.querySelector(".suggestion-actions")`, "it");
    const reason =
      "Cannot accept suggestion s1 as people changed the text it deletes: current status is outdated";
    desk.refuseNext = reason;
    const button = await page.evaluate<number>(
      `document.querySelector(".suggestion-actions button.accept").getBoundingClientRect().bottom`,
    );
    await page.click(".suggestion-actions button.accept");
    await page.waitFor(
      `document.querySelector("#suggestion-error").textContent === ${
        JSON.stringify(reason)
      }`,
      "the reason shown",
    );
    // Where the person clicked, though the suggestion's marks are redrawn.
    await page.waitFor(
      `document.querySelector(".decision-failure")?.textContent === ${
        JSON.stringify(reason)
      }`,
      "the reason beside the button clicked",
    );
    const note = await page.evaluate<number>(
      `document.querySelector(".decision-failure").getBoundingClientRect().top`,
    );
    assert.ok(
      note >= button && note - button < 20,
      `the note's top ${note} is just under the button's bottom ${button}`,
    );
    assert.equal(
      await page.evaluate<boolean>(
        `document.querySelector("#suggestion-error").hidden`,
      ),
      false,
    );
    assert.equal(
      await (await fetch(`${server.url}/api/text/late`)).text(),
      "draft\n",
    );
  } finally {
    await desk.close();
  }
});
