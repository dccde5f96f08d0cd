/**
 * The MCP layer, the only one that imports the MCP SDK: the server
 * factory, the adapter that registers the tool registry, resources,
 * logging, and the Streamable HTTP server.
 *
 * @module
 */

export {
  type HttpServer,
  type HttpServerOptions,
  serveHttp,
} from "./http_server.ts";
export { INSTRUCTIONS } from "./instructions.ts";
export {
  createServer,
  type CreateServerOptions,
  type McpTransport,
  RustpadMcpServer,
} from "./server.ts";
export { serveStdio } from "./stdio.ts";
