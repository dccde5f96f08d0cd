// The rows of the variables table for HTTP mode and replicas, spread into
// VARIABLES in _variables.ts. Kept here so the parsers that only
// these variables use (listen address, bearer token, shared secret) live
// beside them.

import {
  integerValue,
  listValue,
  notAccepted,
  type ValueParser,
} from "./_parse.ts";
import type { Settings, Variable } from "./settings.ts";
import { type ListenAddress, MIN_TOKEN_LENGTH, parseListen } from "./listen.ts";

const MIN_SECRET_BYTES = 32;
const MAX_SECRET_LENGTH = 4096;

type HttpKey =
  | "listen"
  | "httpToken"
  | "allowedHosts"
  | "allowedOrigins"
  | "sessionIdleS"
  | "maxSessions"
  | "maxConnections"
  | "requestTimeoutMs"
  | "keepAliveTimeoutMs"
  | "maxMessageBytes"
  | "confirmSecret";

/** `[HOST:]PORT`, as `--http` takes it; `undefined` when unset. */
export function listenValue(): ValueParser<ListenAddress | undefined> {
  return (value, name) => {
    if (value === undefined) return undefined;
    const address = parseListen(value);
    if (address === undefined) {
      throw notAccepted(
        name,
        value,
        "expected [HOST:]PORT such as 8080, 127.0.0.1:8080 or [::1]:8080, port 0 to 65535",
      );
    }
    return address;
  };
}

/** A secret: never echoed, no whitespace or control characters. */
function secretValue<T>(
  minimum: string,
  long: (text: string) => boolean,
  convert: (text: string) => T,
): ValueParser<T | undefined> {
  return (value, name) => {
    if (value === undefined) return undefined;
    const text = value.trim();
    if (
      !long(text) || text.length > MAX_SECRET_LENGTH || /[\s\p{Cc}]/u.test(text)
    ) {
      throw notAccepted(
        name,
        value,
        `expected ${minimum} without spaces or control characters, such as the output of: openssl rand -base64 48`,
        true,
      );
    }
    return convert(text);
  };
}

/** The HTTP rows, in --help order. */
export const HTTP_VARIABLES: {
  readonly [K in HttpKey]-?: Variable<Settings[K]>;
} = {
  listen: {
    name: "RUSTPAD_MCP_LISTEN",
    meaning:
      "Serve MCP over Streamable HTTP at /mcp on [HOST:]PORT instead of stdio, like --http; HOST defaults to 127.0.0.1.",
    default: "unset (stdio)",
    parse: listenValue(),
  },
  httpToken: {
    name: "RUSTPAD_MCP_TOKEN",
    meaning:
      `Bearer token HTTP clients must send, at least ${MIN_TOKEN_LENGTH} characters; required to listen on anything but loopback.`,
    default: "none",
    parse: secretValue(
      `at least ${MIN_TOKEN_LENGTH} characters`,
      (text) => text.length >= MIN_TOKEN_LENGTH,
      (text) => text,
    ),
  },
  allowedHosts: {
    name: "RUSTPAD_MCP_ALLOWED_HOSTS",
    meaning:
      "Comma-separated Host header values HTTP requests may carry besides localhost, 127.0.0.1 and [::1]: name or name:port.",
    default: "loopback names only",
    parse: listValue({
      fallback: [],
      check: (item) =>
        /^[A-Za-z0-9.-]+(:\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](:\d{1,5})?$/.test(
          item,
        ),
      accepted: "host names, optionally with :port",
    }),
  },
  allowedOrigins: {
    name: "RUSTPAD_MCP_ALLOWED_ORIGINS",
    meaning:
      "Comma-separated browser origins allowed besides loopback ones, such as https://agents.example.com.",
    default: "loopback origins only",
    parse: listValue({
      fallback: [],
      check: (item) => /^https?:\/\/[^/\s]+$/.test(item),
      accepted: "origins such as https://agents.example.com (no path)",
    }),
  },
  sessionIdleS: {
    name: "RUSTPAD_MCP_SESSION_IDLE_S",
    meaning:
      "Close an HTTP session after this many seconds without a request: an integer from 1 to 604800.",
    default: "1800",
    parse: integerValue({
      min: 1,
      max: 604_800,
      fallback: 1800,
      unit: "seconds",
    }),
  },
  maxSessions: {
    name: "RUSTPAD_MCP_MAX_SESSIONS",
    meaning:
      "The most live HTTP sessions; a new one beyond it gets 503, as does one beyond an identity's fair share (the limit divided by the number of bearer tokens): an integer from 1 to 100000.",
    default: "1000",
    parse: integerValue({ min: 1, max: 100_000, fallback: 1000 }),
  },
  maxConnections: {
    name: "RUSTPAD_MCP_MAX_CONNECTIONS",
    meaning:
      "The most open HTTP connections; one more is closed as soon as it is accepted. Lowered to three quarters of the open-file limit (ulimit -n) when that is smaller: an integer from 1 to 1000000.",
    default: "1024",
    parse: integerValue({ min: 1, max: 1_000_000, fallback: 1024 }),
  },
  requestTimeoutMs: {
    name: "RUSTPAD_MCP_REQUEST_TIMEOUT_MS",
    meaning:
      "How long an HTTP request's headers and body may take to arrive; later, 408 and the connection closes. Response streams are not limited: an integer from 1 to 3600000.",
    default: "10000",
    parse: integerValue({
      min: 1,
      max: 3_600_000,
      fallback: 10_000,
      unit: "milliseconds",
    }),
  },
  keepAliveTimeoutMs: {
    name: "RUSTPAD_MCP_KEEP_ALIVE_TIMEOUT_MS",
    meaning:
      "Close an HTTP connection idle this long between requests: an integer from 1 to 3600000.",
    default: "5000",
    parse: integerValue({
      min: 1,
      max: 3_600_000,
      fallback: 5000,
      unit: "milliseconds",
    }),
  },
  maxMessageBytes: {
    name: "RUSTPAD_MCP_MAX_MESSAGE_BYTES",
    meaning:
      "The largest JSON-RPC message read: an HTTP request body (larger gets 413) or a stdio line (larger gets a JSON-RPC error and is skipped). The default fits a whole-pad edit escaped as JSON: an integer from 65536 to 67108864.",
    default: "8388608 (8 MiB)",
    parse: integerValue({
      min: 65_536,
      max: 67_108_864,
      fallback: 8 * 1024 * 1024,
      unit: "bytes",
    }),
  },
  confirmSecret: {
    name: "RUSTPAD_CONFIRM_SECRET",
    meaning:
      `Key that signs confirm_token and edit_id, at least ${MIN_SECRET_BYTES} bytes; replicas behind one load balancer share it so a token from one is accepted by another.`,
    default: "random per process",
    parse: secretValue(
      `at least ${MIN_SECRET_BYTES} bytes`,
      (text) => new TextEncoder().encode(text).length >= MIN_SECRET_BYTES,
      (text) => new TextEncoder().encode(text),
    ),
  },
};
