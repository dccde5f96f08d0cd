// The shared pad server outlives the agent that started it, as a person in
// a real headless Chromium sees it: two --embedded agents on one pad server
// process, the first exits while the person types, and the page stays
// connected to the same pad, which the second agent goes on reading and
// writing.

import assert from "node:assert/strict";
import { waitFor } from "../_wait.ts";
import { Browser, type Page } from "../pad_server/_browser.ts";
import { scratchHome } from "./_run.ts";
import { embedded } from "./_embedded.ts";

const TEXT = `[...document.querySelectorAll("#editor .cm-line")]
  .map((line) => line.textContent).join("\\n")`;
const STATUS = `document.querySelector("#status")`;

async function serverText(url: string, pad: string): Promise<string> {
  return await (await fetch(`${url}api/text/${pad}`)).text();
}

/** Type `text` a character at a time, as a person at a keyboard. */
async function typeSlowly(page: Page, text: string): Promise<void> {
  for (const character of text) {
    await page.type(character);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Whether a process `pid` runs (a reaped child has no /proc entry). */
function running(pid: number): boolean {
  try {
    return !Deno.readTextFileSync(`/proc/${pid}/stat`).includes(") Z ");
  } catch {
    return false;
  }
}

/** Wait until `condition` holds, for up to `ms` (a process starts slowly). */
function until(
  condition: () => boolean | Promise<boolean>,
  what: string,
  ms = 15_000,
): Promise<void> {
  return waitFor(condition, what, ms);
}

Deno.test("the first --embedded agent, which started the pad server, exits while a person types in a real browser: the page never shows Disconnected, everything typed is in the pad, and the second agent reads it and its edit appears in the page", async () => {
  await using home = await scratchHome();
  const first = await embedded(["--embedded"], {
    ...home.env,
    RUSTPAD_USER_NAME: "First",
  });
  await using second = await embedded(["--embedded"], {
    ...home.env,
    RUSTPAD_USER_NAME: "Second",
  });
  await using browser = await Browser.launch();
  try {
    const serverPid = Number(
      /pad server process (\d+) started/.exec(first.stderr())?.[1],
    );
    assert.ok(serverPid > 0, first.stderr());
    assert.notEqual(serverPid, first.pid);
    assert.match(
      second.stderr(),
      new RegExp(`pad server process ${serverPid} joined`),
    );
    assert.equal(second.url, first.url);
    const url = first.url;
    const appended = await first.call("append_to_document", {
      id: "live",
      text: "first agent\n",
    });
    assert.equal(appended.isError, undefined, JSON.stringify(appended));

    const page = await browser.newPage();
    await page.goto(`${url}#live`);
    await page.waitFor(
      `${STATUS}.dataset.status === "connected" && ${TEXT} === "first agent\\n"`,
      "the page connected, showing the first agent's line",
    );
    // Every status the page shows from here on, as it shows it.
    await page.evaluate(`(() => {
      const status = ${STATUS};
      window.seenStatuses = [status.dataset.status + ": " + status.textContent];
      new MutationObserver(() => {
        window.seenStatuses.push(status.dataset.status + ": " + status.textContent);
      }).observe(status, { attributes: true, childList: true, characterData: true, subtree: true });
    })()`);

    // The person types, and goes on typing while the first agent exits.
    let left = false;
    let during = "";
    let before = 0;
    const leaving = (async () => {
      await until(() => during.length >= 10, "ten characters typed");
      before = during.length;
      await first[Symbol.asyncDispose]();
      await until(() => !running(first.pid), "the first agent's exit");
      left = true;
    })();
    const phrase = "typed while the first agent leaves. ";
    for (let i = 0; !left && i < 2000; i++) {
      const character = phrase[i % phrase.length]!;
      await page.type(character);
      during += character;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    await leaving;
    // How many went out while it was exiting is up to the machine's speed.
    console.log(
      `characters typed in the page while the first agent exited: ${
        during.length - before
      }`,
    );
    assert.ok(running(serverPid), "the pad server outlives the first agent");
    const after = "and after it left. ";
    await typeSlowly(page, after);

    const expected = `${during}${after}first agent\n`;
    await until(
      async () =>
        await serverText(url, "live").catch(() => null) === expected &&
        await page.evaluate<string>(TEXT) === expected,
      `${JSON.stringify(expected)} in the pad and the page`,
    );
    const read = await second.call("get_document", { id: "live" });
    assert.equal(read.isError, undefined, JSON.stringify(read));
    const answer = read.content.map((part) =>
      part.type === "text" ? part.text : ""
    ).join("");
    assert.ok(answer.includes(expected), answer);

    const edited = await second.call("append_to_document", {
      id: "live",
      text: "second agent\n",
    });
    assert.equal(edited.isError, undefined, JSON.stringify(edited));
    await page.waitFor(
      `${TEXT} === ${JSON.stringify(`${expected}second agent\n`)}`,
      "the second agent's line in the page",
    );
    assert.equal(
      await serverText(url, "live"),
      `${expected}second agent\n`,
    );
    const seen = await page.evaluate<string[]>("window.seenStatuses");
    assert.deepEqual(
      seen.filter((status) => !status.startsWith("connected: Connected")),
      [],
      `the page showed ${JSON.stringify(seen)}`,
    );
    assert.ok(
      !(await page.evaluate<string>("document.body.innerText")).includes(
        "Disconnected",
      ),
    );
  } finally {
    await first[Symbol.asyncDispose]();
  }
});
