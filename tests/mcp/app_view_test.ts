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

  Deno.test(`${era} era: a client declaring io.modelcontextprotocol/ui sees the writes and list_suggestions linked to ui://rustpad/pad, no read linked, and the view's tools as app-only`, async () => {
    await using h = await startHttp();
    await using ui = await uiClient(h.server.url, { era });
    const { tools } = await ui.client.listTools();
    const byName = new Map(tools.map((tool) => [tool.name, tool]));
    assert.deepEqual(tools.map((tool) => tool.name), [
      ...TOOL_NAMES,
      ...VIEW_TOOLS,
    ]);
    const linked = TOOL_NAMES.filter((name) =>
      byName.get(name)!._meta !== undefined
    );
    assert.deepEqual(linked, [
      "create_document",
      "set_document",
      "append_to_document",
      "replace_in_document",
      "edit_document",
      "set_language",
      "undo_last_edit",
      "list_suggestions",
      "withdraw_suggestion",
    ]);
    for (const name of linked) {
      const meta = byName.get(name)!._meta as {
        ui?: { resourceUri?: string; visibility?: string[] };
      };
      assert.equal(meta.ui?.resourceUri, "ui://rustpad/pad", name);
      assert.equal(meta.ui?.visibility, undefined, `${name} is the model's`);
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
