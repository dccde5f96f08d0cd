/**
 * Where the server listens for MCP over HTTP and what that demands: the
 * `[HOST:]PORT` syntax of `--http` and `RUSTPAD_MCP_LISTEN`, which addresses
 * are loopback only, and the shortest bearer token accepted. Read by the
 * configuration, the command line and the HTTP server alike.
 *
 * @module
 */

/** The minimum length of `RUSTPAD_MCP_TOKEN`. */
export const MIN_TOKEN_LENGTH = 32;

/**
 * Whether a bind address or host name is loopback only.
 *
 * @param hostname A name or address, IPv6 with or without brackets.
 * @returns `true` for `localhost`, `::1` and `127.0.0.0/8`.
 */
export function isLoopback(hostname: string): boolean {
  const name = hostname.toLowerCase().replace(/^\[(.*)\]$/, "$1");
  return name === "localhost" || name === "::1" || /^127\./.test(name);
}

/** Where to listen, from `--http` or `RUSTPAD_MCP_LISTEN`. */
export interface ListenAddress {
  /** The host name or address to bind, IPv6 without brackets. */
  hostname: string;
  /** The port; 0 picks a free port. */
  port: number;
}

/**
 * Parse `[HOST:]PORT`: `8080`, `0.0.0.0:8080`, `[::1]:8080`. The host
 * defaults to 127.0.0.1; port 0 picks a free port.
 *
 * @param text The address as given; surrounding whitespace is ignored.
 * @returns The address, or `undefined` if it is not of that form or the
 * port is over 65535.
 */
export function parseListen(text: string): ListenAddress | undefined {
  const match = /^(?:(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+):)?(\d{1,5})$/.exec(
    text.trim(),
  );
  if (match === null) return undefined;
  const port = Number(match[2]);
  if (port > 65535) return undefined;
  const host = match[1] ?? "127.0.0.1";
  return { hostname: host.replace(/^\[(.*)\]$/, "$1"), port };
}
