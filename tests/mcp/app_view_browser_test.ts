// The pad's view in a chat (MCP Apps), end to end in a real headless
// Chromium: the test host (examples/app_host) runs ext-apps' AppBridge
// with the v2 SDK client connected to this server over Streamable HTTP; an
// agent (another v2 client) suggests; a person clicks Accept in the view.
// Each test fails, saying why, when no Chromium can be found.

import assert from "node:assert/strict";
import { startAppHost } from "../../examples/app_host/serve.ts";
import { Browser, type Page } from "../pad_server/_browser.ts";
import { TestClient, waitUntil } from "../pad_server/_test_client.ts";
import {
  encodeMessage,
  parseServerMessage,
} from "../../src/rustpad/protocol.ts";
import type { TextOperation } from "../../src/ot/operation.ts";
import { modernHttp } from "../_modern.ts";

const ARTIFACTS = new URL("../../.ci/out/", import.meta.url);
const SOURCE = "# Plan\n\nShip the view on Friday.\nTell the team.\n";

/** The view's text, without what suggestions draw in it. */
const VIEW_TEXT =
  `[...document.querySelectorAll("#editor .cm-line")].map((line) => {
  const copy = line.cloneNode(true);
  for (const drawn of copy.querySelectorAll(".suggestion-inserted, .suggestion-actions")) {
    drawn.remove();
  }
  return copy.textContent;
}).join("\\n")`;

/** A page's JavaScript context, as Chromium announced it. */
interface FrameContext {
  id: number;
  origin: string;
}

/**
 * Evaluate in the view's frame (sandboxed, so the host page cannot reach
 * into it): in the frame's own execution context, the latest one with an
 * opaque origin.
 */
class ViewFrame {
  readonly #page: Page;
  readonly #contexts: FrameContext[];

  constructor(page: Page, contexts: FrameContext[]) {
    this.#page = page;
    this.#contexts = contexts;
  }

  async evaluate<T>(expression: string): Promise<T> {
    const context = this.#contexts.findLast((each) =>
      each.origin === "null" || each.origin === "://"
    );
    if (context === undefined) throw new Error("The view has not loaded");
    return await this.#page.evaluate<T>(expression, context.id);
  }

  async waitFor(expression: string, what: string, ms = 15_000): Promise<void> {
    const until = Date.now() + ms;
    let last: unknown;
    while (Date.now() < until) {
      try {
        if (await this.evaluate<boolean>(`!!(${expression})`)) return;
      } catch (error) {
        last = error;
      }
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    const status = await this.evaluate<string>(
      `document.getElementById("status")?.textContent`,
    ).catch((error) => String(error));
    throw new Error(
      `Timed out waiting for ${what} in the view (${last}); its status: ${status}`,
    );
  }

  /** The middle of what `selector` matches in the view, in page pixels. */
  async point(selector: string): Promise<{ x: number; y: number }> {
    const frame = await this.#page.evaluate<{ x: number; y: number }>(
      `(() => { const box = document.querySelector("#view iframe").getBoundingClientRect(); return { x: box.x, y: box.y }; })()`,
    );
    const inner = await this.evaluate<{ x: number; y: number } | null>(
      `(() => { const box = document.querySelector(${
        JSON.stringify(selector)
      })?.getBoundingClientRect(); return box ? { x: box.x + box.width / 2, y: box.y + box.height / 2 } : null; })()`,
    );
    if (inner === null) {
      throw new Error(`Nothing in the view matches ${selector}`);
    }
    return { x: frame.x + inner.x, y: frame.y + inner.y };
  }

  async click(selector: string): Promise<void> {
    const at = await this.point(selector);
    for (const type of ["mousePressed", "mouseReleased"]) {
      await this.#page.send("Input.dispatchMouseEvent", {
        type,
        ...at,
        button: "left",
        clickCount: 1,
      });
    }
  }
}

/** A page whose frames' execution contexts are tracked from the start. */
async function viewPage(
  browser: Browser,
): Promise<{ page: Page; view: ViewFrame }> {
  const contexts: FrameContext[] = [];
  browser.on("Runtime.executionContextCreated", (params) => {
    const context = params.context as FrameContext & {
      auxData?: { isDefault?: boolean };
    };
    if (context.auxData?.isDefault === false) return;
    contexts.push({ id: context.id, origin: context.origin });
  });
  const page = await browser.newPage();
  await page.send("Emulation.setDeviceMetricsOverride", {
    width: 1000,
    height: 720,
    deviceScaleFactor: 1,
    mobile: false,
  });
  return { page, view: new ViewFrame(page, contexts) };
}

/** The text a raw socket's history adds up to. */
function historyText(frames: readonly string[]): string {
  return frames.map(parseServerMessage).flatMap((message) =>
    "History" in message
      ? message.History.operations.map(({ operation }) => operation)
      : []
  ).reduce((text: string, op: TextOperation) => op.apply(text), "");
}

Deno.test("the view in a chat host shows the pad's text and the agent's suggestion, a click on Accept lands it exactly once, and a selection reaches the model's context", async () => {
  await using host = await startAppHost({
    pads: { plan: { text: SOURCE } },
  });
  await using browser = await Browser.launch();
  await using agent = await modernHttp(host.mcpUrl);
  const person = new TestClient(host.padsUrl, "plan");
  try {
    const { page, view } = await viewPage(browser);
    const opened = performance.now();
    await page.goto(
      `${host.url.href}?pad=plan&tool=list_suggestions`,
    );
    await view.waitFor(
      `${VIEW_TEXT} === ${JSON.stringify(SOURCE)}`,
      "the pad's text",
    );
    const toFirstText = performance.now() - opened;
    const inView = Number(
      await view.evaluate<string>(
        "document.documentElement.dataset.firstTextMs",
      ),
    );
    assert.ok(inView > 0, "the view records when its first text showed");
    console.log(
      `view: first text ${inView} ms after the view's load; ${
        Math.round(toFirstText)
      } ms after the host page was opened`,
    );
    const hostTools = await page.evaluate<string[]>("host.modelTools");
    assert.ok(hostTools.includes("get_document"));
    assert.ok(
      !hostTools.some((name) => name.startsWith("view_")),
      "the view's tools are hidden from the model",
    );

    // The agent suggests: the view shows it in place, and in its list.
    const suggested = await agent.call("replace_in_document", {
      id: "plan",
      search: "Friday",
      replace: "Thursday",
      suggest: true,
    });
    assert.equal(
      (suggested.structuredContent as { status?: string }).status,
      "suggested",
    );
    await view.waitFor(
      // The smallest change: "Fri" becomes "Thurs".
      `document.querySelector(".suggestion-deleted")?.textContent === "Fri"`,
      "the suggestion's deleted text struck through",
    );
    assert.equal(
      await view.evaluate<string>(
        `document.querySelector(".suggestion-inserted").textContent`,
      ),
      "Thurs",
    );

    // A selection goes to the model's context.
    await view.click(".cm-line");
    await page.press("Home", 36);
    await page.press("End", 35, 8);
    await page.waitFor(
      `host.modelContext.some((c) => c.structuredContent?.text === "# Plan")`,
      "the selection in the model's context",
    );
    const context = await page.evaluate<
      {
        content: { text: string }[];
        structuredContent: Record<string, unknown>;
      }[]
    >("host.modelContext");
    const sent = context.findLast((c) =>
      c.structuredContent?.text === "# Plan"
    )!;
    assert.equal(sent.structuredContent.pad, "plan");
    assert.match(sent.content[0]!.text, /selected lines 1-1 of pad "plan"/);
    await Deno.mkdir(ARTIFACTS, { recursive: true });
    // The artifact; docs/app.png is a copy of one, taken by hand.
    await page.screenshot(new URL("app.png", ARTIFACTS).pathname);

    // Accept, in the view: the host asks the person in its own dialog,
    // and once they confirm, the pad changes once.
    await person.next(2);
    await view.click(`#suggestion-list button.accept`);
    await page.waitFor(
      `document.querySelector("#ask").open`,
      "the host's dialog",
    );
    const [dialog] = await page.evaluate<string[]>("host.dialogs");
    assert.match(dialog!, /^Accept suggestion \S+ on pad "plan", made by /);
    await page.click("#ask-yes");
    const expected = SOURCE.replace("Friday", "Thursday");
    await view.waitFor(
      `${VIEW_TEXT} === ${
        JSON.stringify(expected)
      } && !document.querySelector(".suggestion-deleted")`,
      "the accepted text without marks",
    );
    // What changed since the view opened, and who: the agent is another
    // MCP session than the host's, so get_changes names it as such.
    await view.waitFor(
      `document.querySelector("#change-list li")?.textContent === "line 3: another agent on this server"`,
      "the accepted line listed with its author",
    );
    const overHttp = await (await fetch(`${host.padsUrl}/api/text/plan`))
      .text();
    assert.equal(overHttp, expected);
    assert.ok(
      await waitUntil(
        () => historyText(person.frames).includes("Thursday"),
        5000,
      ),
      "the person's socket hears the accepted edit",
    );
    assert.equal(historyText(person.frames), expected);
    assert.equal(overHttp.split("Thursday").length, 2, "landed exactly once");

    // The view names who decided.
    await view.waitFor(
      `document.querySelector("#decision-list li")?.textContent.startsWith("Accepted by a person in the chat: ")`,
      "who decided, in the view",
    );
    // The decision is the person's, in the host's dialog.
    const listed = await agent.call("list_suggestions", { id: "plan" });
    const [decided] = (listed.structuredContent as {
      suggestions: { status: string; decided_by?: string }[];
    }).suggestions;
    assert.equal(decided?.status, "accepted");
    assert.equal(decided?.decided_by, "a person in the chat");
  } finally {
    await person.close();
  }
});

Deno.test("the view follows the host's theme as it changes", async () => {
  await using host = await startAppHost({ pads: { plan: { text: SOURCE } } });
  await using browser = await Browser.launch();
  const { page, view } = await viewPage(browser);
  await page.goto(`${host.url.href}?pad=plan&tool=list_suggestions`);
  await view.waitFor(`${VIEW_TEXT} === ${JSON.stringify(SOURCE)}`, "the text");
  const background = () =>
    view.evaluate<string>(
      `getComputedStyle(document.querySelector("#editor .cm-editor")).backgroundColor`,
    );
  assert.equal(
    await view.evaluate<string>("document.documentElement.dataset.theme"),
    "light",
  );
  const light = await background();
  await page.evaluate(`host.setTheme("dark")`);
  await view.waitFor(
    `document.documentElement.dataset.theme === "dark"`,
    "the dark theme",
  );
  assert.notEqual(await background(), light);
});

Deno.test("the view shows who is in the pad with their carets, the agent's named with its badge", async () => {
  await using host = await startAppHost({ pads: { plan: { text: SOURCE } } });
  await using browser = await Browser.launch();
  await using agent = await modernHttp(host.mcpUrl);
  const person = new TestClient(host.padsUrl, "plan");
  try {
    await person.next(2);
    person.send(encodeMessage({ ClientInfo: { name: "Rosy Otter", hue: 20 } }));
    person.send(
      encodeMessage({ CursorData: { cursors: [2], selections: [] } }),
    );
    const { page, view } = await viewPage(browser);
    await page.goto(`${host.url.href}?pad=plan&tool=list_suggestions`);
    await view.waitFor(
      `${VIEW_TEXT} === ${JSON.stringify(SOURCE)}`,
      "the text",
    );
    // The agent's edit leaves its caret at the end of what it wrote.
    await agent.call("append_to_document", {
      id: "plan",
      text: "Owner: Ada.\n",
    });
    const labels = `[...document.querySelectorAll(".caret-label")]`;
    await view.waitFor(
      `${labels}.some((label) => label.dataset.name === "rustpad-mcp" && label.querySelector(".agent-badge"))`,
      "the agent's caret, named, with its badge",
    );
    await view.waitFor(
      `${labels}.some((label) => label.dataset.name === "Rosy Otter" && !label.querySelector(".agent-badge"))`,
      "the person's caret, named",
    );
    const people = await view.evaluate<string[]>(
      `[...document.querySelectorAll("#people li")].map((item) => item.textContent)`,
    );
    assert.deepEqual([...people].sort(), ["Rosy Otter", "rustpad-mcp"]);
  } finally {
    await person.close();
  }
});
