/**
 * The shape of the server's configuration: {@linkcode Config} as
 * `loadConfig` returns it, and the types of the table of environment
 * variables it is read with (`_variables.ts`). It imports none of the
 * modules that read the variables, so they can all import it.
 *
 * @module
 */

import type { ValueParser } from "./_parse.ts";
import type { ToolName } from "./tool_names.ts";

/** The server's settings, as {@linkcode loadConfig} returns them. */
export interface Config {
  /**
   * Base URL of the Rustpad server, from `parseBaseUrl`: http or https,
   * always ending in `/`.
   *
   * @default {new URL("https://rustpad.io/")}
   */
  readonly rustpadUrl: URL;
  /**
   * The tools to register: (allow list or all) minus the deny list, then
   * only the read tools if {@linkcode Config.readOnly}. Never empty.
   */
  readonly tools: ReadonlySet<ToolName>;
  /**
   * Whether only the read tools are registered.
   *
   * @default {false}
   */
  readonly readOnly: boolean;
  /**
   * Whether confirmations may use a form elicitation when the client
   * supports it; when false they always use the two-call token path.
   *
   * @default {true}
   */
  readonly elicitation: boolean;
  /**
   * The name shown to the people in a pad the server writes to.
   *
   * @default {"rustpad-mcp"}
   */
  readonly userName: string;
  /**
   * The colour (hue, 0 to 359) shown to the people in a pad.
   *
   * @default {200}
   */
  readonly userHue: number;
  /**
   * Bound on every network wait, in milliseconds.
   *
   * @default {15000}
   */
  readonly timeoutMs: number;
  /**
   * The most pads open at once (one upstream socket each); idle ones close
   * least recently used first to make room.
   *
   * @default {100}
   */
  readonly maxOpenPads: number;
  /**
   * Which write tools ask a person first: `destructive` (those annotated
   * destructive, on their own rules), `always` (every write) or `never`.
   *
   * @default {"destructive"}
   */
  readonly confirm: "destructive" | "always" | "never";
  /**
   * Whether write tools hold their change as a suggestion for people to
   * accept: `offer` (when the call passes `suggest: true`), `always` (by
   * default) or `never` (the parameter is not offered).
   *
   * @default {"offer"}
   */
  readonly suggest: "offer" | "always" | "never";
  /**
   * Seconds a pending suggestion waits for a decision before it expires.
   *
   * @default {3600}
   */
  readonly suggestTtlS: number;
  /**
   * Whether a write to a non-empty pad needs a read of it on the same MCP
   * connection first.
   *
   * @default {false}
   */
  readonly requireRead: boolean;
  /**
   * Where to serve MCP over Streamable HTTP (`RUSTPAD_MCP_LISTEN`, or the
   * `--http` flag); stdio when unset.
   *
   * @default {undefined}
   */
  readonly listen:
    | { readonly hostname: string; readonly port: number }
    | undefined;
  /**
   * The bearer token HTTP clients must send; required off loopback.
   *
   * @default {undefined}
   */
  readonly httpToken: string | undefined;
  /**
   * Host header values allowed besides loopback names.
   *
   * @default {[]}
   */
  readonly allowedHosts: readonly string[];
  /**
   * Browser origins allowed besides loopback ones.
   *
   * @default {[]}
   */
  readonly allowedOrigins: readonly string[];
  /**
   * Seconds without a request before an HTTP session is closed.
   *
   * @default {1800}
   */
  readonly sessionIdleS: number;
  /**
   * The most live HTTP sessions.
   *
   * @default {1000}
   */
  readonly maxSessions: number;
  /**
   * The most open HTTP connections (lower at a low open-file limit).
   *
   * @default {1024}
   */
  readonly maxConnections: number;
  /**
   * Milliseconds an HTTP request's headers and body may take to arrive.
   *
   * @default {10000}
   */
  readonly requestTimeoutMs: number;
  /**
   * Milliseconds an HTTP connection may sit idle between requests.
   *
   * @default {5000}
   */
  readonly keepAliveTimeoutMs: number;
  /**
   * The largest JSON-RPC message read, in bytes: an HTTP request body or a
   * stdio line.
   *
   * @default {8388608}
   */
  readonly maxMessageBytes: number;
  /**
   * The key confirmation tokens are signed with, shared by replicas.
   *
   * @default {undefined (32 random bytes per process)}
   */
  readonly confirmSecret: Uint8Array | undefined;
  /**
   * The file of named bearer tokens (`RUSTPAD_MCP_TOKENS`), read at start
   * by `readTokenFile`.
   *
   * @default {undefined}
   */
  readonly httpTokensFile: string | undefined;
  /**
   * The Redis replicas share their state in; memory when unset.
   *
   * @default {undefined}
   */
  readonly stateUrl: URL | undefined;
  /**
   * The Redis password, when the URL has none.
   *
   * @default {undefined}
   */
  readonly statePassword: string | undefined;
  /**
   * Whether the embedded pad server (`--embedded`) may listen on an address
   * other than loopback.
   *
   * @default {false}
   */
  readonly embeddedPublic: boolean;
  /**
   * The SQLite file the embedded pad server persists pads in: `undefined`
   * for `pads.sqlite` in the user's data directory (the command line finds
   * it), `false` for memory only (`RUSTPAD_EMBEDDED_DB=memory`).
   *
   * @default {undefined}
   */
  readonly embeddedDatabase: string | false | undefined;
  /**
   * Where the embedded pad server listens unless `--embedded` says: the
   * port is kept across restarts, so the editor URLs the tools answered
   * with keep working.
   *
   * @default {{ hostname: "127.0.0.1", port: 3030 }}
   */
  readonly embeddedListen: {
    readonly hostname: string;
    readonly port: number;
  };
  /**
   * The host name the embedded pad server is reached by beyond loopback.
   *
   * @default {undefined}
   */
  readonly embeddedPublicHost: string | undefined;
  /**
   * Origins, besides its own, whose pages may use the embedded pad server.
   *
   * @default {[]}
   */
  readonly embeddedAllowedOrigins: readonly string[];
  /**
   * The most open connections of the embedded pad server.
   *
   * @default {1024}
   */
  readonly embeddedMaxConnections: number;
  /**
   * The most sockets open on one pad of the embedded pad server.
   *
   * @default {256}
   */
  readonly embeddedMaxSocketsPerPad: number;
  /**
   * Seconds the embedded pad server, a process of its own, goes on with no
   * socket open and no request (agents running ask every few seconds)
   * before it stops; 0: never.
   *
   * @default {3600}
   */
  readonly padServerIdleSeconds: number;
  /**
   * How the embedded pad server's SQLite commits reach the disk: `normal`
   * survives `kill -9`, `full` a power cut too (see docs/pad_store.md).
   *
   * @default {"normal"}
   */
  readonly embeddedSync: "normal" | "full";
  /**
   * A file whose first line is the agent secret of the pad server at
   * RUSTPAD_URL (its `agent.secret`), for an agent without `--embedded`.
   */
  readonly agentSecretFile: string | undefined;
  /**
   * The agent secret of the pad server at RUSTPAD_URL itself; never printed.
   */
  readonly agentSecretText: string | undefined;
  /**
   * The agent secret of the embedded pad server (its `agent.secret`),
   * presented when pad sockets open so people see this server's sessions
   * as agents. Not a variable: `--embedded` reads it from the pad server's
   * data directory once it joins it.
   */
  readonly agentSecret?: string;
  /**
   * Whether {@linkcode Config.rustpadUrl} is the embedded pad server's, the
   * one `--embedded` joined or started. Not a variable.
   */
  readonly embedded?: boolean;
}

/** One environment variable and how to read it. */
export interface Variable<T> {
  readonly name: string;
  /** One or two sentences for --help and README. */
  readonly meaning: string;
  /** The default as --help shows it. */
  readonly default: string;
  readonly parse: ValueParser<T>;
}

/** What the variables give, before the tool lists combine into `tools`. */
export type Settings =
  & Omit<
    Config,
    "tools" | "agentSecret" | "embedded"
  >
  & {
    readonly allowTools: ReadonlySet<ToolName> | undefined;
    readonly denyTools: ReadonlySet<ToolName> | undefined;
  };
