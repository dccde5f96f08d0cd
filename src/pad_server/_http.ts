// The HTTP side of the pad server: which route a request is, and the plain
// answers, apart from the socket handling.

import { checkPadId } from "../rustpad/pad_id.ts";
import { EDITOR_PAGE, EDITOR_PAGE_ETAG } from "./_editor_page.ts";

export const TEXT_PLAIN = "text/plain; charset=utf-8";
const PAD_ROUTE = /^\/api\/(text|socket)\/([^/]+)$/;

/** What a request asks for. */
export type Route =
  | { kind: "stats" }
  | { kind: "text"; padId: string }
  | { kind: "socket"; padId: string }
  | { kind: "page" }
  | { kind: "not-found" };

/** Which route `request` is, as the real server's router sees it. */
export function routeOf(request: Request): Route {
  const { pathname } = new URL(request.url);
  const api = pathname === "/api" || pathname.startsWith("/api/");
  // The editor page, as the real server serves its web client outside /api/.
  if (!api) {
    return request.method === "GET" || request.method === "HEAD"
      ? { kind: "page" }
      : { kind: "not-found" };
  }
  if (request.method !== "GET") return { kind: "not-found" };
  if (pathname === "/api/stats") return { kind: "stats" };
  const match = PAD_ROUTE.exec(pathname);
  const padId = match?.[2] === undefined ? undefined : decode(match[2]);
  if (padId === undefined) return { kind: "not-found" };
  return match?.[1] === "text"
    ? { kind: "text", padId }
    : { kind: "socket", padId };
}

/**
 * Why a socket request cannot be upgraded, as a response, or `undefined`
 * if it can.
 */
export function refuseUpgrade(
  request: Request,
  padId: string,
  closing: boolean,
): Response | undefined {
  try {
    checkPadId(padId);
  } catch (error) {
    return reply(400, (error as Error).message, TEXT_PLAIN);
  }
  const upgradeHeader = request.headers.get("upgrade");
  if (upgradeHeader?.toLowerCase() !== "websocket") {
    return reply(
      400,
      `Cannot open a pad socket as the request is not a WebSocket upgrade: current upgrade header is ${
        JSON.stringify(upgradeHeader)
      }`,
      TEXT_PLAIN,
    );
  }
  if (closing) {
    return reply(
      503,
      "Cannot open a pad socket as the server is shutting down: current state is closing",
      TEXT_PLAIN,
    );
  }
  return undefined;
}

export function reply(
  status: number,
  body: string | Uint8Array<ArrayBuffer>,
  contentType: string,
): Response {
  const bytes = typeof body === "string"
    ? new TextEncoder().encode(body)
    : body;
  return new Response(bytes, {
    status,
    headers: {
      "content-type": contentType,
      "content-length": String(bytes.length),
    },
  });
}

function decode(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

const PAGE_BYTES = new TextEncoder().encode(EDITOR_PAGE);
const PAGE_HEADERS = {
  "content-type": "text/html; charset=utf-8",
  "cache-control": "no-cache",
  etag: EDITOR_PAGE_ETAG,
  vary: "accept-encoding",
};
const PAGE_POLICY =
  "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; connect-src 'self'; img-src data:";
let gzipped: Uint8Array<ArrayBuffer> | undefined;
let compressing: Promise<void> | undefined;

/**
 * The editor page, or `304` when the browser has this one already. It is
 * compressed once, on the first request, and sent compressed from then on
 * to browsers that accept gzip. Only `frameAncestors` may frame it.
 */
export function pageResponse(
  request: Request,
  frameAncestors: string,
): Response {
  const headers = {
    ...PAGE_HEADERS,
    // Everything the page needs comes from this server.
    "content-security-policy":
      `${PAGE_POLICY}; frame-ancestors ${frameAncestors}`,
  };
  if (request.headers.get("if-none-match") === EDITOR_PAGE_ETAG) {
    return new Response(null, { status: 304, headers });
  }
  compressing ??= new Response(
    new Blob([PAGE_BYTES]).stream().pipeThrough(new CompressionStream("gzip")),
  ).bytes().then((bytes) => void (gzipped = bytes));
  const gzip = gzipped !== undefined &&
    /\bgzip\b/.test(request.headers.get("accept-encoding") ?? "");
  const body = request.method === "HEAD" ? null : gzip ? gzipped! : PAGE_BYTES;
  const length = String(gzip ? gzipped!.length : PAGE_BYTES.length);
  return new Response(body, {
    status: 200,
    headers: gzip
      ? { ...headers, "content-encoding": "gzip", "content-length": length }
      : { ...headers, "content-length": length },
  });
}
