// The pad server's web editor in a real headless Chromium: a person types
// while the agent writes through MCP, two pages share a pad, and a page
// lives through a restart of the pad server. Each test fails, saying why,
// when no Chromium can be found: none passes without a browser.

import assert from "node:assert/strict";
// @ts-types="@modelcontextprotocol/sdk/client/index"
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
// @ts-types="@modelcontextprotocol/sdk/client/stdio"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { SqlitePadDatabase, startPadServer } from "../../src/pad_server/mod.ts";
import { Browser, type Page } from "./_browser.ts";
import { waitUntil } from "./_test_client.ts";
import { scratchHome } from "../cli/_run.ts";
import { childEnv } from "../_child_env.ts";

const MOD = new URL("../../mod.ts", import.meta.url).pathname;
const ARTIFACTS = new URL("../../.ci/out/", import.meta.url);
const TEXT = `[...document.querySelectorAll("#editor .cm-line")]
  .map((line) => line.textContent).join("\\n")`;
const CONNECTED =
  `document.querySelector("#status").dataset.status === "connected"`;

function count(text: string, part: string): number {
  return text.split(part).length - 1;
}

async function serverText(url: string, padId: string): Promise<string> {
  return await (await fetch(`${url}/api/text/${padId}`)).text();
}

const GRAPHEMES = new Intl.Segmenter("en", { granularity: "grapheme" });

/**
 * Type `text` a character at a time, as a person at a keyboard: a joined
 * emoji such as 👨‍👩‍👧 comes in whole, as an emoji picker inserts it.
 */
async function typeSlowly(page: Page, text: string): Promise<void> {
  for (const { segment } of GRAPHEMES.segment(text)) {
    await page.type(segment);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/**
 * Wait until every page shows `expected` and the server has it too: the
 * last keystrokes may still be on their way when typing returns.
 */
async function settled(
  pages: Page[],
  url: string,
  padId: string,
  expected: string,
): Promise<void> {
  let seen: string[] = [];
  for (let i = 0; i < 500; i++) {
    seen = [
      await serverText(url, padId),
      ...await Promise.all(pages.map((page) => page.evaluate<string>(TEXT))),
    ];
    if (seen.every((text) => text === expected)) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  assert.fail(
    `Expected ${
      JSON.stringify(expected)
    } on the server and every page: current texts are ${JSON.stringify(seen)}`,
  );
}

Deno.test("a person types into the page while the agent appends through MCP: both texts land exactly once, and the page shows the agent's text and name", async () => {
  await using browser = await Browser.launch();
  await using home = await scratchHome();
  const transport = new StdioClientTransport({
    command: Deno.execPath(),
    args: ["run", "-A", MOD, "--embedded"],
    env: childEnv({
      ...home.env,
      RUSTPAD_USER_NAME: "Agent Smith",
      RUSTPAD_USER_HUE: "280",
    }),
    stderr: "pipe",
  });
  let stderr = "";
  transport.stderr?.on("data", (chunk: Uint8Array) => {
    stderr += new TextDecoder().decode(chunk);
  });
  const agent = new Client({ name: "browser-test", version: "1.0.0" });
  await agent.connect(transport);
  try {
    assert.ok(
      await waitUntil(() => /embedded pad server at http/.test(stderr), 5000),
      stderr,
    );
    const url = /embedded pad server at (http:\/\/\S+?)\/ /.exec(stderr)![1]!;
    const append = (text: string) =>
      agent.callTool({
        name: "append_to_document",
        arguments: { id: "trial", text },
      });
    await append("# Shared notes\n");

    const page = await browser.newPage();
    await page.goto(`${url}/#trial`);
    await page.waitFor(CONNECTED, "the page to connect");
    await page.waitFor(`${TEXT}.startsWith("# Shared notes")`, "the text");
    const firstText = await page.evaluate<number>(
      `performance.getEntriesByName("rustpad:first-text")[0].startTime`,
    );
    console.log(`page load to first text: ${firstText.toFixed(0)} ms`);

    const person = "A person was here 🎉 👨‍👩‍👧 ";
    const lines = [1, 2, 3, 4, 5].map((n) => `agent line ${n} ✅\n`);
    await Promise.all([
      typeSlowly(page, person),
      (async () => {
        for (const line of lines) await append(line);
      })(),
    ]);
    const text = `${person}# Shared notes\n${lines.join("")}`;
    await settled([page], url, "trial", text);
    assert.equal(count(text, person), 1, text);
    for (const line of lines) assert.equal(count(text, line), 1, text);
    assert.ok(text.startsWith(person), text);
    assert.ok(text.endsWith(lines.join("")), text);

    await page.waitFor(
      `[...document.querySelectorAll("#people li")].some((li) => li.textContent === "Agent Smith")`,
      "the agent in the people list",
    );
    await page.waitFor(
      `document.querySelector('.remote-caret[data-name="Agent Smith"]')`,
      "the agent's caret",
    );
    await Deno.mkdir(ARTIFACTS, { recursive: true });
    await page.screenshot(new URL("editor.png", ARTIFACTS).pathname);
  } finally {
    await agent.close();
  }
});

Deno.test("two pages on one pad, typing at once at either end, converge on the server's text; undo takes back only one's own typing, and the language follows the selector", async () => {
  await using browser = await Browser.launch();
  await using server = await startPadServer({
    pads: { pair: { text: "middle" } },
  });
  const [ada, bob] = [await browser.newPage(), await browser.newPage()];
  for (const page of [ada, bob]) {
    await page.goto(`${server.url}/#pair`);
    await page.waitFor(`${TEXT} === "middle"`, "the pad's text");
  }
  // Bob goes to the end of the text; Ada stays at its start.
  await bob.press("End", 35, 2);
  await Promise.all([
    typeSlowly(ada, "Ada 🎈 "),
    typeSlowly(bob, " Bob 𝄞"),
  ]);
  await settled([ada, bob], server.url, "pair", "Ada 🎈 middle Bob 𝄞");
  assert.equal(
    await ada.evaluate<number>(
      `document.querySelectorAll("#people li").length`,
    ),
    2,
  );

  // Ctrl+Z on Ada's page undoes what Ada typed, not what Bob typed after it.
  await ada.press("z", 90, 2);
  await settled([ada, bob], server.url, "pair", "middle Bob 𝄞");

  await bob.evaluate(`(() => {
    const select = document.querySelector("#language");
    select.value = "rust";
    select.dispatchEvent(new Event("change"));
  })()`);
  await ada.waitFor(
    `document.querySelector("#language").value === "rust"`,
    "Bob's language on Ada's page",
  );
});

Deno.test("a page opened without #id gets a random pad, and lives through the pad server restarting: it reconnects, shows the text restored from SQLite, and typing goes on", async () => {
  const path = await Deno.makeTempFile({ suffix: ".sqlite" });
  await using browser = await Browser.launch();
  try {
    let database = new SqlitePadDatabase(path);
    let server = await startPadServer({ database, snapshotIntervalMs: 50 });
    const { port } = server;
    const page = await browser.newPage();
    // No #id: the page picks a random pad and writes it into the URL.
    await page.goto(`${server.url}/`);
    await page.waitFor(CONNECTED, "the page to connect");
    const hash = await page.evaluate<string>("location.hash");
    assert.match(hash, /^#[a-z0-9]{6}$/);
    const padId = hash.slice(1);
    await typeSlowly(page, "kept 🎉");
    assert.ok(
      await waitUntil(() => database.get(padId)?.text === "kept 🎉", 3000),
      "persisted",
    );
    await server.close();
    database.close();
    await page.waitFor(
      `document.querySelector("#status").dataset.status === "disconnected"`,
      "the page to see the server gone",
    );
    database = new SqlitePadDatabase(path);
    server = await startPadServer({ database, port });
    try {
      await page.waitFor(CONNECTED, "the page to reconnect", 15_000);
      assert.equal(await page.evaluate<string>(TEXT), "kept 🎉");
      await typeSlowly(page, " again");
      await settled([page], server.url, padId, "kept 🎉 again");
    } finally {
      await server.close();
      database.close();
    }
  } finally {
    await Deno.remove(path);
  }
});

Deno.test("a page refuses typing that would take the pad past the server's 262,144 code points, says so and stays connected; typing that fits still lands", async () => {
  await using browser = await Browser.launch();
  // 262,140 code points: 2,621 lines of 99 letters, then 🎉 and 39 more.
  const full = `${"a".repeat(99)}\n`.repeat(2621) + `🎉${"b".repeat(39)}`;
  await using server = await startPadServer({ pads: { full: { text: full } } });
  const page = await browser.newPage();
  await page.goto(`${server.url}/#full`);
  await page.waitFor(CONNECTED, "the page to connect");
  await page.waitFor(
    `document.querySelector("#editor .cm-line")?.textContent.startsWith("aaa")`,
    "the pad's text",
  );
  await page.type("12345"); // 262,145: one too many
  await page.waitFor(
    `!document.querySelector("#limit").hidden`,
    "the page to say the pad is full",
  );
  assert.match(
    await page.evaluate<string>(`document.querySelector("#limit").textContent`),
    /262,144/,
  );
  await new Promise((resolve) => setTimeout(resolve, 300));
  assert.equal(
    await page.evaluate<string>(
      `document.querySelector("#status").dataset.status`,
    ),
    "connected",
  );
  assert.equal(await serverText(server.url, "full"), full);
  await page.type("1234");
  await settled([], server.url, "full", `1234${full}`);
  assert.equal(
    await page.evaluate<string>(
      `document.querySelector("#status").dataset.status`,
    ),
    "connected",
  );
});
