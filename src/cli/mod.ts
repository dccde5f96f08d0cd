/**
 * The command line: flags, configuration from the environment, and the MCP
 * server on stdio or over HTTP. The top layer; it may import every other.
 *
 * @module
 */

export { main } from "./cli.ts";
