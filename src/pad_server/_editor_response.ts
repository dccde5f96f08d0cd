// The editor page and its scripts over HTTP: each compressed once, on its
// first request, and sent compressed from then on to browsers that accept
// gzip. The page is revalidated by its entity tag; a script's name carries
// its content's hash, so a browser keeps it for good. The pad server
// imports this module (and the 1.2 MB bundle with it) on the first request
// for the page, not at start.

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

/**
 * The page's script at `pathname` if it names one under `/assets/`, or
 * else the editor page. Only `frameAncestors` may frame the page.
 */
export function editorResponse(
  request: Request,
  pathname: string,
  frameAncestors: string,
): Response {
  const name = pathname.slice("/assets/".length);
  return pathname.startsWith("/assets/") && Object.hasOwn(EDITOR_ASSETS, name)
    ? assetResponse(request, name)
    : pageResponse(request, frameAncestors);
}

/**
 * The editor page, or `304` when the browser has this one already. Only
 * `frameAncestors` may frame it.
 */
function pageResponse(
  request: Request,
  frameAncestors: string,
): Response {
  const headers = {
    ...page.headers,
    "content-security-policy": `${
      page.headers["content-security-policy"]
    }; frame-ancestors ${frameAncestors}`,
  };
  if (request.headers.get("if-none-match") === EDITOR_PAGE_ETAG) {
    return new Response(null, { status: 304, headers });
  }
  return served(request, { ...page, headers }, page);
}

/** One of the page's scripts, by its file name under `/assets/`. */
function assetResponse(request: Request, name: string): Response {
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

/** `file` with `headers`, its gzip kept on `cache` (the file itself). */
function served(request: Request, file: Served, cache = file): Response {
  cache.compressing ??= new Response(
    new Blob([cache.bytes]).stream().pipeThrough(
      new CompressionStream("gzip"),
    ),
  ).bytes().then((bytes) => void (cache.gzipped = bytes));
  const gzip = cache.gzipped !== undefined &&
    /\bgzip\b/.test(request.headers.get("accept-encoding") ?? "");
  const bytes = gzip ? cache.gzipped! : cache.bytes;
  const length = String(bytes.length);
  return new Response(request.method === "HEAD" ? null : bytes, {
    status: 200,
    headers: gzip
      ? {
        ...file.headers,
        "content-encoding": "gzip",
        "content-length": length,
      }
      : { ...file.headers, "content-length": length },
  });
}
