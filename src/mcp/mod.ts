/**
 * The MCP layer, the only one that imports the MCP SDK: the server
 * factory, the adapter that registers the tool registry, resources,
 * logging, and the Streamable HTTP server.
 *
 * @module
 */

export { type HttpServer, serveHttp } from "./http_server.ts";
export type { HttpServerOptions } from "./http_options.ts";
export { INSTRUCTIONS } from "./instructions.ts";
export {
  createServer,
  type CreateServerOptions,
  type McpTransport,
  RustpadMcpServer,
} from "./server.ts";
export { serveStdio } from "./stdio.ts";
