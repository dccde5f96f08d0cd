// The HTTP side of the pad server: which route a request is, and the plain
// answers, apart from the socket handling.

import { checkPadId } from "../rustpad/pad_id.ts";

export const TEXT_PLAIN = "text/plain; charset=utf-8";
const PAD_ROUTE = /^\/api\/(text|socket)\/([^/]+)$/;

/** What a request asks for. */
export type Route =
  | { kind: "stats" }
  | { kind: "text"; padId: string }
  | { kind: "socket"; padId: string }
  | { kind: "editor"; pathname: string }
  | { kind: "not-found" };

/** Which route `request` is, as the real server's router sees it. */
export function routeOf(request: Request): Route {
  const { pathname } = new URL(request.url);
  const api = pathname === "/api" || pathname.startsWith("/api/");
  // The editor page and its scripts, as the real server serves its web
  // client outside /api/ (which of the two, `_editor_response.ts` says).
  if (!api) {
    return request.method === "GET" || request.method === "HEAD"
      ? { kind: "editor", pathname }
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
