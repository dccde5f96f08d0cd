// The MCP handshake as raw JSON-RPC messages, for tests that speak to a
// server without the SDK's client (over piped stdio, TCP or plain HTTP).

/** The initialize request, id 1. */
export const INITIALIZE = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: {
    protocolVersion: "2025-11-25",
    capabilities: {},
    clientInfo: { name: "raw", version: "1.0.0" },
  },
} as const;

/** The notification that ends the handshake. */
export const INITIALIZED = {
  jsonrpc: "2.0",
  method: "notifications/initialized",
} as const;
