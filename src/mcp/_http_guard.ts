// Who may talk to the HTTP server: the bearer token, compared in constant
// time, and the Host and Origin allow-lists that stop DNS rebinding (a web
// page whose name resolves to 127.0.0.1 must not reach a server on the
// person's machine). Each check returns a refusal Response, or undefined.

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

async function sha256(text: string): Promise<Uint8Array> {
  return new Uint8Array(
    await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)),
  );
}

/** Checks `Authorization: Bearer <token>` against one token. */
export class BearerCheck {
  readonly #expected: Promise<Uint8Array>;

  constructor(token: string) {
    this.#expected = sha256(token);
  }

  /** 401 with `WWW-Authenticate` unless the request carries the token. */
  async check(request: Request): Promise<Response | undefined> {
    const header = request.headers.get("authorization") ?? "";
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
    // Compare digests, so the time taken says nothing about the length or
    // the first differing character of the token.
    const given = await sha256(match?.[1] ?? "");
    const expected = await this.#expected;
    let difference = match === null ? 1 : 0;
    for (let i = 0; i < expected.length; i++) {
      difference |= expected[i]! ^ given[i]!;
    }
    if (difference === 0) return undefined;
    const error = match === null ? "invalid_request" : "invalid_token";
    return jsonError(
      401,
      match === null
        ? "Cannot serve the request as it has no bearer token: send Authorization: Bearer <RUSTPAD_MCP_TOKEN>"
        : "Cannot serve the request as its bearer token is wrong: send the server's RUSTPAD_MCP_TOKEN",
      { "www-authenticate": `Bearer realm="rustpad-mcp", error="${error}"` },
    );
  }
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
