// Who may talk to the HTTP server: the bearer token, compared in constant
// time, and the Host and Origin allow-lists that stop DNS rebinding (a web
// page whose name resolves to 127.0.0.1 must not reach a server on the
// person's machine). Each check returns a refusal Response, or undefined.

import { equalInConstantTime, sha256 } from "../digest/mod.ts";
import { MIN_TOKEN_LENGTH } from "../config/listen.ts";

/** Host names that always mean this machine. */
const LOOPBACK_NAMES = ["localhost", "127.0.0.1", "[::1]"];

/** A JSON-RPC error body with an HTTP status, as the SDK answers errors. */
export function jsonError(
  status: number,
  message: string,
  headers: Record<string, string> = {},
): Response {
  return new Response(
    JSON.stringify({
      jsonrpc: "2.0",
      error: { code: -32000, message },
      id: null,
    }),
    {
      status,
      headers: { "content-type": "application/json", ...headers },
    },
  );
}

/** A bearer token and the identity it names (`""`: the unnamed one). */
export interface TokenIdentity {
  readonly name: string;
  readonly token: string;
}

/**
 * Checks `Authorization: Bearer <token>` against the tokens, each naming an
 * identity: every token's digest is compared, whichever matches, so the
 * time taken says nothing about which one did or how close a guess came.
 */
export class BearerCheck {
  readonly #expected: { name: string; digest: Uint8Array }[];

  constructor(tokens: readonly TokenIdentity[]) {
    this.#expected = tokens.map(({ name, token }) => ({
      name,
      digest: sha256(token),
    }));
  }

  /**
   * The identity of the request's token, or 401 with `WWW-Authenticate`
   * unless it carries one of the tokens.
   */
  check(request: Request): { identity: string } | Response {
    const header = request.headers.get("authorization") ?? "";
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
    const given = sha256(match?.[1] ?? "");
    let identity: string | undefined;
    for (const { name, digest } of this.#expected) {
      if (equalInConstantTime(digest, given) && match !== null) {
        identity ??= name;
      }
    }
    if (identity !== undefined) return { identity };
    const error = match === null ? "invalid_request" : "invalid_token";
    return jsonError(
      401,
      match === null
        ? "Cannot serve the request as it has no bearer token: send Authorization: Bearer <token> with RUSTPAD_MCP_TOKEN or one of RUSTPAD_MCP_TOKENS"
        : "Cannot serve the request as its bearer token is wrong: send the server's RUSTPAD_MCP_TOKEN or one of RUSTPAD_MCP_TOKENS",
      { "www-authenticate": `Bearer realm="rustpad-mcp", error="${error}"` },
    );
  }
}

/** Refuse short tokens, and two identities with one name or one token. */
export function checkIdentities(tokens: readonly TokenIdentity[]): void {
  const short = tokens.find(({ token }) => token.length < MIN_TOKEN_LENGTH);
  const names = new Set(tokens.map(({ name }) => name));
  const secrets = new Set(tokens.map(({ token }) => token));
  const problem = short !== undefined
    ? `the token of identity ${
      JSON.stringify(short.name)
    } must be at least ${MIN_TOKEN_LENGTH} characters: current length is ${short.token.length}`
    : names.size < tokens.length || secrets.size < tokens.length
    ? "two identities share a name or a token: give each its own"
    : undefined;
  if (problem) throw new RangeError(`Cannot serve HTTP as ${problem}`);
}

/** Options for {@linkcode OriginCheck}. */
export interface OriginCheckOptions {
  /** Extra Host values: `name` (any port) or `name:port`. */
  allowedHosts: readonly string[];
  /** Extra origins, such as `https://agents.example.com`. */
  allowedOrigins: readonly string[];
}

/** The Host and Origin allow-lists. */
export class OriginCheck {
  readonly #hosts: Set<string>;
  readonly #origins: Set<string>;

  constructor(options: OriginCheckOptions) {
    this.#hosts = new Set(
      [...LOOPBACK_NAMES, ...options.allowedHosts].map((host) =>
        host.toLowerCase()
      ),
    );
    this.#origins = new Set(
      options.allowedOrigins.map((origin) => origin.toLowerCase()),
    );
  }

  /** 403 unless Host is allowed and Origin, when present, is allowed. */
  check(request: Request): Response | undefined {
    const host = (request.headers.get("host") ?? "").toLowerCase();
    if (!this.#hostAllowed(host)) {
      return jsonError(
        403,
        `Cannot serve the request as its Host header ${
          JSON.stringify(host)
        } is not allowed: add it to RUSTPAD_MCP_ALLOWED_HOSTS`,
      );
    }
    const origin = request.headers.get("origin");
    if (origin !== null && !this.#originAllowed(origin.toLowerCase())) {
      return jsonError(
        403,
        `Cannot serve the request as its Origin ${
          JSON.stringify(origin)
        } is not allowed: add it to RUSTPAD_MCP_ALLOWED_ORIGINS`,
      );
    }
    return undefined;
  }

  #hostAllowed(host: string): boolean {
    if (this.#hosts.has(host)) return true;
    const name = /^(.*?)(?::\d+)?$/.exec(host)?.[1] ?? host;
    return name !== "" && this.#hosts.has(name);
  }

  #originAllowed(origin: string): boolean {
    if (this.#origins.has(origin)) return true;
    let url: URL;
    try {
      url = new URL(origin);
    } catch {
      return false;
    }
    return (url.protocol === "http:" || url.protocol === "https:") &&
      LOOPBACK_NAMES.includes(url.hostname);
  }
}
