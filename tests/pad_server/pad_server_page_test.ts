import assert from "node:assert/strict";
import { startPadServer } from "../../src/pad_server/mod.ts";
import {
  editorSourcesDigest,
  OUTPUT,
  recordedSourcesDigest,
} from "../../scripts/bundle_editor.ts";

/** The scripts the page links, fetched as a browser does on first load. */
async function firstLoad(url: string): Promise<Uint8Array<ArrayBuffer>[]> {
  const page = await (await fetch(`${url}/`)).bytes();
  const html = new TextDecoder().decode(page);
  const scripts = [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+)"/g)]
    .map(([, path]) => path!);
  const bodies = [page];
  for (const path of new Set(scripts)) {
    const response = await fetch(`${url}${path}`);
    assert.equal(response.status, 200, path);
    bodies.push(await response.bytes());
  }
  return bodies;
}

Deno.test("every path outside /api/ and the page's own /assets/ answers the editor page, which loads nothing from elsewhere", async () => {
  await using server = await startPadServer();
  for (
    const path of ["/", "/trial", "/some/deep/path?x=1", "/apiary", "/assets/x"]
  ) {
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
      /default-src 'none'; script-src 'self';.*connect-src 'self'/,
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

Deno.test("the committed editor page was built from the editor's sources as they are now", async () => {
  const committed = await Deno.readTextFile(OUTPUT);
  const recorded = recordedSourcesDigest(committed);
  assert.ok(recorded, "the committed page records its sources' digest");
  assert.equal(
    recorded,
    await editorSourcesDigest(),
    "src/pad_server/_editor_page.ts is stale: run deno task bundle and commit it",
  );
});

Deno.test("the page's scripts are answered at /assets/ as JavaScript a browser keeps for good, gzip-compressed to one that accepts it", async () => {
  await using server = await startPadServer();
  const html = await (await fetch(`${server.url}/`)).text();
  const entry = /<script type="module" src="(\/assets\/page-[0-9a-f]{8}\.js)">/
    .exec(html)?.[1];
  assert.ok(entry, html);
  const response = await fetch(`${server.url}${entry}`);
  assert.equal(response.status, 200);
  assert.equal(
    response.headers.get("content-type"),
    "text/javascript; charset=utf-8",
  );
  assert.match(response.headers.get("cache-control") ?? "", /immutable/);
  const code = await response.text();
  // The pad's socket, and a language fetched only when a pad uses it.
  assert.match(code, /\/api\/socket\//);
  assert.match(code, /import\("\.\/[\w-]+\.js"\)/);
  let gzip: string | null = null;
  for (let i = 0; i < 100 && gzip === null; i++) {
    const again: Response = await fetch(`${server.url}${entry}`, {
      headers: { "accept-encoding": "gzip" },
    });
    gzip = again.headers.get("content-encoding");
    assert.equal(await again.text(), code);
    if (gzip === null) await new Promise((resolve) => setTimeout(resolve, 10));
  }
  assert.equal(gzip, "gzip");
});

Deno.test("the editor page's first load (the page and the scripts it links) stays under 300 KB, and under 100 KB gzip-compressed", async () => {
  await using server = await startPadServer();
  const bodies = await firstLoad(server.url);
  let bytes = 0;
  let gzipBytes = 0;
  for (const body of bodies) {
    bytes += body.length;
    gzipBytes += (await new Response(
      new Blob([body]).stream().pipeThrough(new CompressionStream("gzip")),
    ).bytes()).length;
  }
  assert.ok(bodies.length >= 2, `${bodies.length} files`);
  assert.ok(bytes < 300_000, `${bytes} bytes`);
  assert.ok(gzipBytes < 100_000, `${gzipBytes} bytes gzip`);
});
