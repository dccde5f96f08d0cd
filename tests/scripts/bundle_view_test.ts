import assert from "node:assert/strict";
import {
  buildViewHtml,
  buildViewModule,
  MAX_VIEW_BYTES,
  OUTPUT,
} from "../../scripts/bundle_view.ts";

Deno.test("the committed pad view (src/mcp/_pad_view_html.ts) is what its sources build: run deno task bundle:view after changing them", async () => {
  const committed = await Deno.readTextFile(OUTPUT);
  assert.ok(
    committed === await buildViewModule(),
    "src/mcp/_pad_view_html.ts is stale: run deno task bundle:view",
  );
});

Deno.test("the pad view is one document under 500 KB with its script and style inline", async () => {
  const html = await buildViewHtml();
  const bytes = new TextEncoder().encode(html).length;
  assert.ok(bytes <= MAX_VIEW_BYTES, `the view is ${bytes} bytes`);
  assert.equal(html.match(/<script\b/g)?.length, 1);
  assert.doesNotMatch(html, /<script\b[^>]*\bsrc=/);
  assert.doesNotMatch(html, /<link\b/);
  assert.doesNotMatch(html, /\/\* (STYLE|SCRIPT) \*\//);
});
