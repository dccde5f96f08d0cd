/**
 * The addresses of a Rustpad server, built from its base URL so that a path
 * prefix (a server behind `https://example.com/rustpad/`) is kept.
 *
 * @module
 */

import { checkPadId } from "./pad_id.ts";

/**
 * Parse and check a Rustpad base URL: `http` or `https`, no query or
 * fragment. The result always ends with `/`, so relative paths keep any
 * prefix.
 *
 * @param base The base URL, such as `https://rustpad.io`.
 * @returns The normalised base URL.
 * @throws {TypeError} If `base` is not an absolute http(s) URL.
 *
 * @example
 * ```ts
 * import { parseBaseUrl } from "../mod.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(parseBaseUrl("https://example.com/pad").href, "https://example.com/pad/");
 * ```
 */
export function parseBaseUrl(base: string | URL): URL {
  let url: URL;
  try {
    url = new URL(base);
  } catch {
    throw new TypeError(
      `Cannot use Rustpad URL as it is not an absolute URL: current value is ${
        JSON.stringify(String(base))
      }`,
    );
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new TypeError(
      `Cannot use Rustpad URL as only http and https are accepted: current value is ${
        JSON.stringify(String(base))
      }`,
    );
  }
  if (url.search !== "" || url.hash !== "" || url.username || url.password) {
    throw new TypeError(
      `Cannot use Rustpad URL as it carries a query, fragment or credentials: current value is ${
        JSON.stringify(String(base))
      }`,
    );
  }
  if (!url.pathname.endsWith("/")) url.pathname += "/";
  return url;
}

/**
 * The HTTP address of an API route under the base URL.
 *
 * @param base A base URL from {@linkcode parseBaseUrl}.
 * @param path The route below `api/`, such as `stats` or `text/abc`.
 * @returns The absolute URL.
 *
 * @example
 * ```ts
 * import { apiUrl, parseBaseUrl } from "../mod.ts";
 * import assert from "node:assert/strict";
 *
 * const base = parseBaseUrl("http://127.0.0.1:3030/prefix");
 * assert.equal(apiUrl(base, "stats").href, "http://127.0.0.1:3030/prefix/api/stats");
 * ```
 */
export function apiUrl(base: URL, path: string): URL {
  return new URL(`api/${path}`, base);
}

/**
 * The WebSocket address of a pad's collaboration session: `ws` for `http`,
 * `wss` for `https`.
 *
 * @param base A base URL from {@linkcode parseBaseUrl}.
 * @param padId The pad id; checked.
 * @returns The `ws:` or `wss:` URL.
 * @throws {TypeError} If `padId` is not a valid pad id.
 *
 * @example
 * ```ts
 * import { parseBaseUrl, socketUrl } from "../mod.ts";
 * import assert from "node:assert/strict";
 *
 * const base = parseBaseUrl("https://rustpad.io");
 * assert.equal(socketUrl(base, "abc").href, "wss://rustpad.io/api/socket/abc");
 * ```
 */
export function socketUrl(base: URL, padId: string): URL {
  const url = apiUrl(base, `socket/${checkPadId(padId)}`);
  url.protocol = url.protocol === "https:" ? "wss:" : "ws:";
  return url;
}

/**
 * The shareable editor URL of a pad: `<base>/#<id>`.
 *
 * @param base A base URL from {@linkcode parseBaseUrl}.
 * @param padId The pad id; checked.
 * @returns The editor URL as a string.
 * @throws {TypeError} If `padId` is not a valid pad id.
 *
 * @example
 * ```ts
 * import { editorUrl, parseBaseUrl } from "../mod.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(editorUrl(parseBaseUrl("https://rustpad.io"), "abc"), "https://rustpad.io/#abc");
 * ```
 */
export function editorUrl(base: URL, padId: string): string {
  return `${base.href}#${checkPadId(padId)}`;
}
