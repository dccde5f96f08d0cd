// The pad's view (MCP Apps) at the protocol: what a client that declares
// io.modelcontextprotocol/ui sees and may call, what one that does not
// sees (exactly today's tools/list) and is refused, in both eras, over
// Streamable HTTP with the v2 SDK client.

import assert from "node:assert/strict";
import { TOOL_NAMES } from "../../src/mod.ts";
import { startHttp } from "../_http.ts";
import { uiClient, VIEW_MIME_TYPE } from "./_ui_client.ts";

const SNAPSHOT = new URL("../snapshots/tools_list.json", import.meta.url);
const VIEW_TOOLS = ["view_read_pad", "view_wait_pad", "view_decide_suggestion"];

for (const era of ["modern", "legacy"] as const) {
  Deno.test(`${era} era: a client without io.modelcontextprotocol/ui gets exactly today's tools/list, no _meta.ui, and cannot call the view's tools`, async () => {
    await using h = await startHttp();
    await using plain = await uiClient(h.server.url, { era, views: false });
    const { tools } = await plain.client.listTools();
    const today = JSON.parse(await Deno.readTextFile(SNAPSHOT)).default;
    assert.deepEqual(JSON.parse(JSON.stringify(tools)), today);
    assert.ok(tools.every((tool) => tool._meta === undefined));
    const refused = await plain.call("view_read_pad", { id: "notes" });
    assert.equal(refused.isError, true);
    assert.match(
      (refused.content as { text: string }[])[0]!.text,
      /Cannot call tool "view_read_pad" as it serves the pad's view: current client does not declare the io\.modelcontextprotocol\/ui extension/,
    );
  });

  Deno.test(`${era} era: a client declaring io.modelcontextprotocol/ui sees every single-pad tool linked to ui://rustpad/pad and the view's tools as app-only`, async () => {
    await using h = await startHttp();
    await using ui = await uiClient(h.server.url, { era });
    const { tools } = await ui.client.listTools();
    const byName = new Map(tools.map((tool) => [tool.name, tool]));
    assert.deepEqual(tools.map((tool) => tool.name), [
      ...TOOL_NAMES,
      ...VIEW_TOOLS,
    ]);
    for (const name of TOOL_NAMES) {
      const meta = byName.get(name)!._meta as
        | { ui?: { resourceUri?: string; visibility?: string[] } }
        | undefined;
      if (name === "get_stats") {
        assert.equal(meta, undefined, "get_stats works on no pad");
        continue;
      }
      assert.equal(meta?.ui?.resourceUri, "ui://rustpad/pad", name);
      assert.equal(meta?.ui?.visibility, undefined, `${name} is the model's`);
    }
    for (const name of VIEW_TOOLS) {
      const meta = byName.get(name)!._meta as {
        ui: { visibility: string[] };
      };
      assert.deepEqual(meta.ui.visibility, ["app"], name);
    }
  });
}

Deno.test("the view is one self-contained text/html;profile=mcp-app document under 500 KB that fetches nothing", async () => {
  await using h = await startHttp();
  await using ui = await uiClient(h.server.url);
  const { contents } = await ui.client.readResource({
    uri: "ui://rustpad/pad",
  });
  assert.equal(contents.length, 1);
  const [view] = contents as { mimeType: string; text: string }[];
  assert.equal(view!.mimeType, VIEW_MIME_TYPE);
  const bytes = new TextEncoder().encode(view!.text).length;
  assert.ok(bytes < 500 * 1024, `the view is ${bytes} bytes`);
  assert.match(view!.text, /^<!doctype html>/);
  // No element loads anything: scripts and styles are inline.
  assert.doesNotMatch(
    view!.text,
    /<(script|link|img|iframe)\b[^>]*\b(src|href)=/i,
  );
  assert.doesNotMatch(
    view!.text,
    /\bfetch\(|new WebSocket\(|XMLHttpRequest|import\(/,
  );
});

Deno.test("a decision in the view is the person's: refused when the host says the model made it, recorded with the person's name when the view did", async () => {
  await using h = await startHttp();
  await using ui = await uiClient(h.server.url);
  await ui.call("create_document", { id: "plan", text: "Ship on Friday.\n" });
  const held = await ui.call("replace_in_document", {
    id: "plan",
    search: "Friday",
    replace: "Thursday",
    suggest: true,
  });
  const suggestionId = (held.structuredContent as { suggestion_id: string })
    .suggestion_id;
  const decide = { id: "plan", suggestion_id: suggestionId, verdict: "accept" };

  const byModel = await ui.call("view_decide_suggestion", decide, {
    "rustpad-mcp/host": { initiator: "model" },
  });
  assert.equal(byModel.isError, true);
  assert.match(
    (byModel.content as { text: string }[])[0]!.text,
    /current call was initiated by "model", not the view/,
  );
  assert.equal(h.pads.text("plan"), "Ship on Friday.\n");

  const byPerson = await ui.call("view_decide_suggestion", decide, {
    "rustpad-mcp/host": { initiator: "app", person: "Grace Hopper" },
  });
  assert.equal(byPerson.isError, undefined);
  const answer = byPerson.structuredContent as {
    text: string;
    decided: { status: string; decidedBy: string };
  };
  assert.equal(answer.decided.status, "accepted");
  assert.equal(answer.decided.decidedBy, "Grace Hopper");
  assert.equal(answer.text, "Ship on Thursday.\n");
  assert.equal(
    await (await fetch(`${h.pads.url}/api/text/plan`)).text(),
    "Ship on Thursday.\n",
  );
  const again = await ui.call("view_decide_suggestion", decide, {
    "rustpad-mcp/host": { initiator: "app", person: "Grace Hopper" },
  });
  assert.equal(again.isError, true, "a decision is final");
});
