import assert from "node:assert/strict";
import { startPadServer } from "../../src/pad_server/mod.ts";
import { buildEditorModule, OUTPUT } from "../../scripts/bundle_editor.ts";

Deno.test("every path outside /api/ answers the editor page, which loads nothing from elsewhere", async () => {
  await using server = await startPadServer();
  for (const path of ["/", "/trial", "/some/deep/path?x=1", "/apiary"]) {
    const response = await fetch(`${server.url}${path}`);
    const body = await response.text();
    assert.equal(response.status, 200, path);
    assert.equal(
      response.headers.get("content-type"),
      "text/html; charset=utf-8",
    );
    assert.match(body, /<title>Rustpad<\/title>/);
    assert.doesNotMatch(body, /(src|href)\s*=\s*["']?(https?:)?\/\//i);
    assert.match(
      response.headers.get("content-security-policy") ?? "",
      /default-src 'none'.*connect-src 'self'/,
    );
  }
  const head = await fetch(`${server.url}/`, { method: "HEAD" });
  assert.equal(head.status, 200);
  assert.equal(await head.text(), "");
  const post = await fetch(`${server.url}/`, { method: "POST" });
  assert.equal(post.status, 404);
  await post.body?.cancel();
  // Serving the page opened no pad.
  const stats = await (await fetch(`${server.url}/api/stats`)).json();
  assert.equal(stats.num_documents, 0);
});

Deno.test("the page is answered 304 to a browser that has it, and gzip-compressed to one that accepts it", async () => {
  await using server = await startPadServer();
  const first = await fetch(`${server.url}/`);
  const etag = first.headers.get("etag");
  const plain = await first.bytes();
  assert.match(etag ?? "", /^"[0-9a-f]{16}"$/);
  const again = await fetch(`${server.url}/`, {
    headers: { "if-none-match": etag! },
  });
  assert.equal(again.status, 304);
  await again.body?.cancel();
  let compressed: Response | undefined;
  for (let i = 0; i < 100; i++) {
    // The page is compressed once, in the background of the first request.
    const raw = await fetch(`${server.url}/`, {
      headers: { "accept-encoding": "gzip" },
    });
    if (raw.headers.get("content-encoding") === "gzip") {
      compressed = raw;
      break;
    }
    await raw.body?.cancel();
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  assert.ok(compressed, "a gzip answer");
  // fetch unzips the body; the length on the wire stays in the header.
  const wire = Number(compressed.headers.get("content-length"));
  assert.ok(wire > 0 && wire < plain.length / 2, `${wire} < ${plain.length}`);
  assert.deepEqual(await compressed.bytes(), plain);
});

Deno.test("the committed editor page is exactly what deno task bundle builds from the sources now", async () => {
  const committed = await Deno.readTextFile(OUTPUT);
  assert.ok(
    committed === await buildEditorModule(),
    "src/pad_server/_editor_page.ts is stale: run deno task bundle and commit it",
  );
});

Deno.test("the editor page stays under 300 KB, and under 100 KB gzip-compressed", async () => {
  await using server = await startPadServer();
  const page = await (await fetch(`${server.url}/`)).bytes();
  const gzip = await new Response(
    new Blob([page]).stream().pipeThrough(new CompressionStream("gzip")),
  ).bytes();
  assert.ok(page.length < 300_000, `${page.length} bytes`);
  assert.ok(gzip.length < 100_000, `${gzip.length} bytes gzip`);
});
