// Who may use the pad server: a request whose Host is a name other than
// this server's own (DNS rebinding: a page of evil.example resolving its
// name to 127.0.0.1) or whose Origin is another site's (a page a person
// visits opening a socket to their pads) is refused with 403. The real
// Rustpad checks neither; pad ids are guessable, so we do.

import { reply, TEXT_PLAIN } from "./_http.ts";

/** Which hosts and origins the server answers. */
export interface AccessPolicy {
  /** A host name the server is reached by beyond loopback, lower case. */
  readonly publicHost: string | undefined;
  /** Origins allowed besides the server's own, such as `https://host.example`. */
  readonly allowedOrigins: ReadonlySet<string>;
}

const IPV4 = /^\d{1,3}(?:\.\d{1,3}){3}$/;

/**
 * The policy of the options, checked.
 *
 * @throws {TypeError} If an allowed origin is not `scheme://host[:port]`.
 */
export function accessPolicy(
  publicHost: string | undefined,
  allowedOrigins: readonly string[] = [],
): AccessPolicy {
  const origins = new Set<string>();
  for (const origin of allowedOrigins) {
    let parsed: URL | undefined;
    try {
      parsed = new URL(origin);
    } catch {
      parsed = undefined;
    }
    if (parsed === undefined || parsed.origin === "null") {
      throw new TypeError(
        `Cannot allow the origin as it is not scheme://host[:port]: current value is ${
          JSON.stringify(origin)
        }; write it as a browser sends it, such as https://host.example`,
      );
    }
    origins.add(parsed.origin);
  }
  return {
    publicHost: publicHost?.trim().toLowerCase() || undefined,
    allowedOrigins: origins,
  };
}

/**
 * A 403 for a request from a foreign Host or Origin, or `undefined` when it
 * may be served. An IP address or `localhost` as the Host cannot be a
 * rebound name; any other name must be the public one.
 */
export function refuseForeign(
  request: Request,
  policy: AccessPolicy,
): Response | undefined {
  const url = new URL(request.url);
  const host = url.hostname;
  const known = IPV4.test(host) || host.startsWith("[") ||
    host === "localhost" || host.endsWith(".localhost") ||
    host === policy.publicHost;
  if (!known) {
    return reply(
      403,
      `Cannot serve the request as its Host is not this server's name: current Host is ${
        JSON.stringify(url.host)
      }; open the pad by the server's address, or set RUSTPAD_EMBEDDED_PUBLIC to the host name it is reached by`,
      TEXT_PLAIN,
    );
  }
  const origin = request.headers.get("origin");
  if (origin === null) return undefined;
  const own = origin === `http://${url.host}` ||
    origin === `https://${url.host}` || policy.allowedOrigins.has(origin);
  if (own) return undefined;
  return reply(
    403,
    `Cannot serve the request as it comes from a page of another site: current Origin is ${
      JSON.stringify(origin)
    }; open the editor from this server, or add the origin to RUSTPAD_EMBEDDED_ALLOWED_ORIGINS`,
    TEXT_PLAIN,
  );
}

/** The page's `frame-ancestors`: this server and the allowed origins. */
export function frameAncestors(policy: AccessPolicy): string {
  return ["'self'", ...policy.allowedOrigins].join(" ");
}
