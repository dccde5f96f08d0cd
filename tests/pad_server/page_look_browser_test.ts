// The pad server's page as a person keeps it open, in a real headless
// Chromium: highlighting for the pad's language, fetched when first used;
// the tab's title; the copy-link button; the system's dark theme; the
// people on a phone; caret labels that cover no text. Each test fails,
// saying why, when no Chromium can be found.

import assert from "node:assert/strict";
import { startPadServer } from "../../src/pad_server/mod.ts";
import { encodeMessage } from "../../src/rustpad/protocol.ts";
import { Browser, type Page } from "./_browser.ts";
import { OneSuggestionDesk } from "./_test_desk.ts";
import { TestClient } from "./_test_client.ts";

const RUST = 'fn main() {\n    let n = 3;\n    println!("{n}");\n}\n';
const SCRIPTS =
  `performance.getEntriesByType("resource").filter((entry) => entry.name.includes("/assets/")).length`;

/** Someone on a raw socket, named, with a caret at `at`. */
async function personAt(
  url: string,
  padId: string,
  name: string,
  at: number,
): Promise<TestClient> {
  const person = new TestClient(url, padId);
  await person.next(2);
  person.send(encodeMessage({ ClientInfo: { name, hue: name.length * 47 } }));
  person.send(encodeMessage({ CursorData: { cursors: [at], selections: [] } }));
  return person;
}

/** The computed `property` of the first element `selector` matches. */
function styleOf(page: Page, selector: string, property: string) {
  return page.evaluate<string>(
    `getComputedStyle(document.querySelector(${JSON.stringify(selector)}))[${
      JSON.stringify(property)
    }]`,
  );
}

/** The lightness of a CSS `rgb(...)` colour, 0 to 1. */
function lightness(colour: string): number {
  const [r, g, b] = colour.match(/\d+/g)!.map(Number);
  return (0.2126 * r! + 0.7152 * g! + 0.0722 * b!) / 255;
}

Deno.test("a rust pad is highlighted once its parser is fetched, another language's parser is fetched only when chosen, the tab is titled with the pad and Copy link copies its link", async () => {
  await using server = await startPadServer({
    pads: { "notes-42": { text: RUST, language: "rust" } },
  });
  await using browser = await Browser.launch();
  const page = await browser.newPage();
  await page.grant(server.url, [
    "clipboardReadWrite",
    "clipboardSanitizedWrite",
  ]);
  await page.goto(`${server.url}/#notes-42`);
  await page.waitFor(
    `[...document.querySelectorAll(".tok-keyword")].some((span) => span.textContent === "fn")`,
    "fn highlighted as a keyword",
  );
  assert.equal(
    await page.evaluate<string>("document.title"),
    "notes-42 · Rustpad",
  );
  assert.equal(
    await page.evaluate<string>(
      `document.querySelector(".tok-string")?.textContent`,
    ),
    '"{n}"',
  );
  const fetched = await page.evaluate<number>(SCRIPTS);
  await page.evaluate(`(() => {
    const select = document.querySelector("#language");
    select.value = "python";
    select.dispatchEvent(new Event("change"));
  })()`);
  await page.waitFor(`${SCRIPTS} > ${fetched}`, "python's parser fetched");
  // The pad is still Rust to the python parser's eye: "fn" is no keyword.
  await page.waitFor(
    `![...document.querySelectorAll(".tok-keyword")].some((span) => span.textContent === "fn")`,
    "the rust highlighting replaced",
  );

  await page.click("#copy-link");
  await page.waitFor(
    `document.querySelector("#copy-link").textContent === "Copied"`,
    "the copy to be confirmed",
  );
  assert.equal(
    await page.evaluate<string>("navigator.clipboard.readText()"),
    `${server.url}/#notes-42`,
  );
});

Deno.test("with the system's theme dark, the page, the editor and its highlighting turn dark", async () => {
  await using server = await startPadServer({
    pads: { dusk: { text: RUST, language: "rust" } },
  });
  await using browser = await Browser.launch();
  const looks: Record<string, { editor: string; keyword: string }> = {};
  for (const scheme of ["light", "dark"]) {
    const page = await browser.newPage();
    await page.send("Emulation.setEmulatedMedia", {
      features: [{ name: "prefers-color-scheme", value: scheme }],
    });
    await page.goto(`${server.url}/#dusk`);
    await page.waitFor(
      `document.querySelector(".tok-keyword")`,
      "highlighting",
    );
    looks[scheme] = {
      editor: await styleOf(page, "#editor .cm-editor", "backgroundColor"),
      keyword: await styleOf(page, ".tok-keyword", "color"),
    };
    if (scheme === "dark") {
      await page.screenshot(
        new URL("../../.ci/out/editor-dark.png", import.meta.url).pathname,
      );
    }
  }
  assert.ok(lightness(looks.light!.editor) > 0.9, looks.light!.editor);
  assert.ok(lightness(looks.dark!.editor) < 0.15, looks.dark!.editor);
  assert.notEqual(looks.light!.keyword, looks.dark!.keyword);
  assert.ok(lightness(looks.dark!.keyword) > lightness(looks.dark!.editor));
});

Deno.test("on a 390x844 phone the people list is on screen below the text, the agent in it with its badge", async () => {
  const desk = new OneSuggestionDesk();
  await using server = await startPadServer({
    pads: { phone: { text: "shopping list\n" } },
    suggestions: desk,
  });
  await using browser = await Browser.launch();
  await desk.join(server.url, "phone");
  const person = await personAt(server.url, "phone", "Rosy Otter", 0);
  try {
    const page = await browser.newPage();
    await page.send("Emulation.setDeviceMetricsOverride", {
      width: 390,
      height: 844,
      deviceScaleFactor: 1,
      mobile: true,
    });
    await page.goto(`${server.url}/#phone`);
    await page.waitFor(
      `document.querySelectorAll("#people li").length === 3 && document.querySelector("#people .agent-badge")`,
      "three people, one an agent",
    );
    const boxes = await page.evaluate<
      { top: number; bottom: number; left: number; right: number }[]
    >(`[...document.querySelectorAll("#people li"), document.querySelector("#editor")]
      .map((node) => node.getBoundingClientRect().toJSON())`);
    const editor = boxes.pop()!;
    for (const box of boxes) {
      assert.ok(box.top >= editor.bottom - 1, "below the text");
      assert.ok(box.bottom <= 844 && box.right <= 390, JSON.stringify(box));
      assert.ok(box.right > box.left, "drawn");
    }
    assert.ok(editor.bottom - editor.top > 300, "the text keeps most room");
    await page.screenshot(
      new URL("../../.ci/out/editor-phone.png", import.meta.url).pathname,
    );
  } finally {
    await person.close();
    await desk.close();
  }
});

Deno.test("caret labels float over the text without moving a line, stay inside the editor, and two carets at one place get a label each", async () => {
  const text = "first line\nsecond line of text\nthird";
  await using server = await startPadServer({ pads: { carets: { text } } });
  await using browser = await Browser.launch();
  const people = [
    await personAt(server.url, "carets", "Ada", 0),
    await personAt(server.url, "carets", "Bob Builder", 18),
    await personAt(server.url, "carets", "Cy", 18),
    await personAt(server.url, "carets", "Dee", 20),
  ];
  try {
    const page = await browser.newPage();
    await page.goto(`${server.url}/#carets`);
    await page.waitFor(
      `document.querySelectorAll(".caret-label").length === 4`,
      "four caret labels",
    );
    const { labels, lines, content } = await page.evaluate<{
      labels: DOMRect[];
      lines: number[];
      content: DOMRect;
    }>(`(() => {
      const labels = [...document.querySelectorAll(".caret-label")]
        .map((label) => label.getBoundingClientRect().toJSON());
      const lines = [...document.querySelectorAll("#editor .cm-line")]
        .map((line) => line.getBoundingClientRect().height);
      const content = document.querySelector(".cm-content")
        .getBoundingClientRect().toJSON();
      return { labels, lines, content };
    })()`);
    const overlap = (a: DOMRect, b: DOMRect) =>
      a.left < b.right - 0.5 && b.left < a.right - 0.5 &&
      a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5;
    assert.equal(lines.length, 3);
    // A line with carets is as tall as one without: nothing pads it.
    assert.deepEqual(lines, lines.map(() => lines[0]), `heights ${lines}`);
    for (const label of labels) {
      assert.ok(label.right - label.left > 10, "a label is drawn");
      assert.ok(label.top >= content.top, "inside the editor, not above it");
    }
    for (const [i, a] of labels.entries()) {
      for (const b of labels.slice(i + 1)) {
        assert.ok(!overlap(a, b), `${JSON.stringify(a)} ${JSON.stringify(b)}`);
      }
    }
    await page.screenshot(
      new URL("../../.ci/out/editor-carets.png", import.meta.url).pathname,
    );
  } finally {
    for (const person of people) await person.close();
  }
});
