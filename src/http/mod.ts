/**
 * Our HTTP/1.1 server, written where `Deno.serve` falls short (2.9 never
 * closes a connection that stops halfway through its head, and its listener
 * ends on the first accept error such as EMFILE): an accept loop that caps
 * connections and survives accept errors, a head parser, a body reader with
 * a byte cap and a shared byte budget, and a response writer, all behind a
 * `{fetch}`-style handler (`(request: Request) => Promise<Response>`), the
 * shape `Deno.serve` and the MCP SDK's web-standard transports take. The day
 * Deno bounds a half-sent head, this layer can give way to `Deno.serve`.
 *
 * @module
 */

export {
  HttpListener,
  type HttpListenerOptions,
  listenError,
  openFileLimit,
} from "./listener.ts";
export { tooLarge } from "./_body.ts";
export { HttpBodyError } from "./_reader.ts";
export { ServerWebSocket, type WebSocketLimits } from "./websocket.ts";
export { claimUpgrade, upgradeWebSocket } from "./websocket_upgrade.ts";
export { concatBytes } from "./bytes.ts";
