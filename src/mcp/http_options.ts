/**
 * The options of the Streamable HTTP server: address, auth, allow-lists
 * and limits.
 *
 * @module
 */

/** Options for `serveHttp`. */
export interface HttpServerOptions {
  /**
   * The address to bind. Anything but loopback requires `token`.
   *
   * @default {"127.0.0.1"}
   */
  hostname?: string;
  /**
   * The port; 0 picks a free one.
   *
   * @default {0}
   */
  port?: number;
  /**
   * The bearer token of the unnamed identity, at least 32 characters.
   * With neither it nor `identities`, no token is asked (loopback only).
   */
  token?: string | undefined;
  /**
   * Named bearer tokens (`RUSTPAD_MCP_TOKENS`), each an identity: its own
   * collaborator in pads, its own sessions and idempotency keys.
   */
  identities?: readonly { name: string; token: string }[];
  /** Host header values allowed besides loopback names: `name` or `name:port`. */
  allowedHosts?: readonly string[];
  /** Origins allowed besides loopback ones, such as `https://app.example`. */
  allowedOrigins?: readonly string[];
  /**
   * Close a session after this long without a request.
   *
   * @default {1800000}
   */
  sessionIdleMs?: number;
  /**
   * The most live sessions; a new one beyond this gets 503.
   *
   * @default {1000}
   */
  maxSessions?: number;
  /**
   * How long {@linkcode HttpServer.shutdown} lets calls in flight finish.
   *
   * @default {10000}
   */
  drainMs?: number;
  /**
   * The most open connections; one more is closed as soon as it is
   * accepted. Lowered to three quarters of the open-file limit when that
   * is smaller.
   *
   * @default {1024}
   */
  maxConnections?: number;
  /**
   * How long a request's head and body may take to arrive, from its first
   * byte (or the connection's start); later, 408 and the connection closes.
   *
   * @default {10000}
   */
  requestTimeoutMs?: number;
  /**
   * How long a connection may sit idle between requests before it closes.
   *
   * @default {5000}
   */
  keepAliveTimeoutMs?: number;
  /**
   * The largest request body, in bytes; a larger one gets 413. Four such
   * bodies may be read at once; more wait their turn.
   *
   * @default {8388608}
   */
  maxMessageBytes?: number;
  /**
   * Where access-log lines and notices go.
   *
   * @default {console.error}
   */
  log?: (line: string) => void;
}
