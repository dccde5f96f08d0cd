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

const IPV4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;

/**
 * Whether an address is loopback only, decided on the parsed address and
 * never on how a name reads: `127.0.0.1.example.com` is a name, and names
 * other than `localhost` are not loopback (resolve them, then ask about
 * the address).
 *
 * @param hostname An address (IPv6 with or without brackets) or `localhost`.
 * @returns `true` for `localhost`, `127.0.0.0/8`, `::1` and `127.0.0.0/8`
 * mapped into IPv6 (`::ffff:127.0.0.1`).
 *
 * @example
 * ```ts
 * import { isLoopback } from "./listen.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(isLoopback("127.0.0.2"), true);
 * assert.equal(isLoopback("[::1]"), true);
 * assert.equal(isLoopback("127.0.0.1.attacker.example"), false);
 * ```
 */
export function isLoopback(hostname: string): boolean {
  const name = hostname.toLowerCase().replace(/^\[(.*)\]$/, "$1");
  if (name === "localhost") return true;
  const v4 = IPV4.exec(name);
  if (v4 !== null) {
    return v4.slice(1).every((part) => Number(part) <= 255) && v4[1] === "127";
  }
  if (!name.includes(":")) return false;
  let address: string;
  try {
    address = new URL(`http://[${name}]/`).hostname;
  } catch {
    return false;
  }
  // The URL parser writes IPv6 in its shortest form, mapped IPv4 in hex.
  return address === "[::1]" ||
    /^\[::ffff:7f[0-9a-f]{2}:[0-9a-f]{1,4}\]$/.test(address);
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
