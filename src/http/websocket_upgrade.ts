/**
 * The handshake of a server WebSocket on {@linkcode HttpListener}: check
 * the upgrade request, hand the handler a stand-in response, and let the
 * connection claim the socket to run once it wrote the `101`.
 *
 * @module
 */

import { ServerWebSocket, type WebSocketLimits } from "./websocket.ts";

const pending = new WeakMap<Response, ServerWebSocket>();

/**
 * Upgrade `request` to a WebSocket: return `response` from the handler of
 * an {@linkcode HttpListener}, which answers `101` and hands the connection
 * to `socket` (its `open` event follows).
 *
 * @param request A WebSocket upgrade request.
 * @param limits The socket's bounds.
 * @returns The socket and the response to return.
 * @throws {TypeError} If `request` is not a valid WebSocket upgrade.
 *
 * @example Upgrade in a handler
 * ```ts
 * import { upgradeWebSocket } from "./websocket_upgrade.ts";
 * import assert from "node:assert/strict";
 *
 * const { socket, response } = upgradeWebSocket(new Request("http://127.0.0.1/", {
 *   headers: {
 *     upgrade: "websocket",
 *     connection: "Upgrade",
 *     "sec-websocket-version": "13",
 *     "sec-websocket-key": "dGhlIHNhbXBsZSBub25jZQ==",
 *   },
 * }));
 * assert.equal(socket.readyState, 0);
 * assert.ok(response instanceof Response);
 * ```
 */
export function upgradeWebSocket(
  request: Request,
  limits: WebSocketLimits = {},
): { socket: ServerWebSocket; response: Response } {
  const problem = upgradeProblem(request);
  if (problem !== undefined) {
    throw new TypeError(
      `Cannot upgrade the request to a WebSocket as ${problem}`,
    );
  }
  const socket = new ServerWebSocket(
    request.headers.get("sec-websocket-key")!,
    limits,
  );
  // A stand-in: the connection writes the 101 itself.
  const response = new Response(null, { status: 200 });
  pending.set(response, socket);
  return { socket, response };
}

/**
 * The socket a handler's `response` upgrades to, taken out; or
 * `undefined` for an ordinary response.
 *
 * @param response What the handler returned.
 * @returns The socket to run on the connection, if any.
 *
 * @example
 * ```ts
 * import { claimUpgrade } from "./websocket_upgrade.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(claimUpgrade(new Response("hi")), undefined);
 * ```
 */
export function claimUpgrade(
  response: Response,
): ServerWebSocket | undefined {
  const socket = pending.get(response);
  pending.delete(response);
  return socket;
}

function upgradeProblem(request: Request): string | undefined {
  const headers = request.headers;
  if (request.method !== "GET") {
    return `its method is not GET: current method is ${request.method}`;
  }
  if (headers.get("upgrade")?.toLowerCase() !== "websocket") {
    return `its upgrade header is not websocket: current value is ${
      JSON.stringify(headers.get("upgrade"))
    }`;
  }
  if (!/(^|,)\s*upgrade\s*(,|$)/i.test(headers.get("connection") ?? "")) {
    return `its connection header lacks upgrade: current value is ${
      JSON.stringify(headers.get("connection"))
    }`;
  }
  if (headers.get("sec-websocket-version") !== "13") {
    return `its sec-websocket-version is not 13: current value is ${
      JSON.stringify(headers.get("sec-websocket-version"))
    }`;
  }
  const key = headers.get("sec-websocket-key") ?? "";
  if (!/^[A-Za-z0-9+/]{22}==$/.test(key)) {
    return `its sec-websocket-key is not 16 bytes in base64: current value is ${
      JSON.stringify(key)
    }`;
  }
  return undefined;
}
