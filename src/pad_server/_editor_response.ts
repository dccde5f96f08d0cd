// The editor page and its scripts over HTTP: each compressed once, on its
// first request, and sent compressed from then on to browsers that accept
// gzip. The page is revalidated by its entity tag; a script's name carries
// its content's hash, so a browser keeps it for good.

import {
  EDITOR_ASSETS,
  EDITOR_PAGE,
  EDITOR_PAGE_ETAG,
} from "./_editor_page.ts";

/** One file to serve: its bytes, its headers, its gzip once made. */
interface Served {
  readonly bytes: Uint8Array<ArrayBuffer>;
  readonly headers: Readonly<Record<string, string>>;
  gzipped?: Uint8Array<ArrayBuffer>;
  compressing?: Promise<void>;
}

const encoder = new TextEncoder();
const page: Served = {
  bytes: encoder.encode(EDITOR_PAGE),
  headers: {
    "content-type": "text/html; charset=utf-8",
    "cache-control": "no-cache",
    etag: EDITOR_PAGE_ETAG,
    vary: "accept-encoding",
    // Everything the page needs comes from this server.
    "content-security-policy":
      "default-src 'none'; script-src 'self'; style-src 'unsafe-inline'; connect-src 'self'; img-src data:",
  },
};
const assets = new Map<string, Served>();

/** The editor page, or `304` when the browser has this one already. */
export function pageResponse(request: Request): Response {
  if (request.headers.get("if-none-match") === EDITOR_PAGE_ETAG) {
    return new Response(null, { status: 304, headers: page.headers });
  }
  return served(request, page);
}

/** One of the page's scripts, by its file name under `/assets/`. */
export function assetResponse(request: Request, name: string): Response {
  let asset = assets.get(name);
  if (asset === undefined) {
    asset = {
      bytes: encoder.encode(EDITOR_ASSETS[name] ?? ""),
      headers: {
        "content-type": "text/javascript; charset=utf-8",
        "cache-control": "public, max-age=31536000, immutable",
        vary: "accept-encoding",
      },
    };
    assets.set(name, asset);
  }
  return served(request, asset);
}

function served(request: Request, file: Served): Response {
  file.compressing ??= new Response(
    new Blob([file.bytes]).stream().pipeThrough(
      new CompressionStream("gzip"),
    ),
  ).bytes().then((bytes) => void (file.gzipped = bytes));
  const gzip = file.gzipped !== undefined &&
    /\bgzip\b/.test(request.headers.get("accept-encoding") ?? "");
  const body = request.method === "HEAD"
    ? null
    : gzip
    ? file.gzipped!
    : file.bytes;
  return new Response(body, {
    status: 200,
    headers: gzip
      ? { ...file.headers, "content-encoding": "gzip" }
      : file.headers,
  });
}
