import assert from "node:assert/strict";
import { startPadServer } from "../../src/testing/mod.ts";
import { spawnCli } from "../_http.ts";
import { uiClient } from "../mcp/_ui_client.ts";
import { RawPerson } from "../_person.ts";
import { SECRET } from "./_agents.ts";
import { FLOOD, flood, MAX_CODE_POINTS, wholePad } from "./_flood.ts";

const MIB = 1024 * 1024;

/** The structured content of a successful call over the v2 client. */
function structured(result: {
  isError?: boolean | undefined;
  structuredContent?: unknown;
  content: unknown;
}): Record<string, unknown> {
  if (result.isError) {
    throw new Error(`Expected success, got ${JSON.stringify(result.content)}`);
  }
  return result.structuredContent as Record<string, unknown>;
}

Deno.test("twenty whole-pad suggestions: the people's list stays under 1 MiB with every entry cut and saying so, and each one is fetched whole on its own", async () => {
  const text = wholePad("base");
  await using pads = await startPadServer({
    agentSecret: SECRET,
    pads: { flood: { text } },
  });
  await using _person = await RawPerson.open(pads.url, "flood");
  const ids = await flood(pads.url, "flood", text, 1);
  const response = await fetch(`${pads.url}/api/suggestions/flood`);
  const body = await response.text();
  assert.equal(response.status, 200);
  assert.ok(body.length < MIB, `the list is ${body.length} bytes`);
  const list = JSON.parse(body);
  assert.equal(list.suggestions.length, FLOOD);
  for (const suggestion of list.suggestions) {
    assert.equal(suggestion.status, "pending");
    // The whole change is known: its lengths in UTF-16 units.
    assert.ok(suggestion.cut.inserted > MAX_CODE_POINTS);
    assert.equal(suggestion.cut.deleted, text.length);
  }
  const whole =
    await (await fetch(`${pads.url}/api/suggestions/flood/${ids[7]}`))
      .json();
  assert.equal(whole.cut, undefined);
  assert.equal(whole.hunks[0].deleted, text);
  assert.equal(whole.hunks[0].inserted, wholePad("s7"));
});

Deno.test("twenty whole-pad suggestions: view_read_pad and list_suggestions answer them bounded, and the pushed stream sends the bounded list", async () => {
  const text = wholePad("base");
  await using pads = await startPadServer({
    agentSecret: SECRET,
    pads: { flood: { text } },
  });
  // An MCP server over HTTP, the view's client declaring the extension.
  await using mcp = await spawnCli({
    RUSTPAD_URL: pads.url,
    RUSTPAD_AGENT_SECRET: SECRET,
  });
  await using h = await uiClient(mcp.url);
  structured(await h.call("get_document", { id: "flood" }));
  await flood(pads.url, "flood", text, 1);

  const view = structured(await h.call("view_read_pad", { id: "flood" }));
  const viewed = view.suggestions as { cut?: unknown }[];
  assert.equal(viewed.length, FLOOD);
  assert.ok(viewed.every((suggestion) => suggestion.cut !== undefined));
  // The pad's own text, and at most 20 × 2,000 units of suggestions.
  const viewSize = JSON.stringify(view).length;
  assert.ok(viewSize < 2 * MIB, `view_read_pad answered ${viewSize} bytes`);

  const listed = structured(await h.call("list_suggestions", { id: "flood" }));
  const entries = listed.suggestions as { diff: string }[];
  assert.equal(entries.length, FLOOD);
  for (const entry of entries) assert.match(entry.diff, /\(diff cut: \d+ more/);
  const listSize = JSON.stringify(listed).length;
  assert.ok(listSize < MIB, `list_suggestions answered ${listSize} bytes`);

  const stream = await fetch(`${pads.url}/api/suggestion-events/flood`);
  assert.equal(stream.headers.get("content-type"), "text/event-stream");
  const reader = stream.body!.pipeThrough(new TextDecoderStream()).getReader();
  let event = "";
  while (!event.includes("\n\n")) event += (await reader.read()).value ?? "";
  await reader.cancel();
  assert.match(event, /^event: list\ndata: /);
  assert.ok(event.length < MIB);
  assert.equal(JSON.parse(event.split("data: ")[1]!).suggestions.length, FLOOD);
});
