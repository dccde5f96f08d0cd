// The rows of the variables table for a team: named bearer tokens and the
// state that replicas share in Redis, spread into VARIABLES in
// _variables.ts. A password is never echoed, in the URL or on its own.

import { pathValue } from "./_embedded_variables.ts";
import { notAccepted, quote, type ValueParser } from "./_parse.ts";
import { ConfigError } from "./config_error.ts";
import type { Settings, Variable } from "./settings.ts";
import { MIN_TOKEN_LENGTH } from "./listen.ts";

type StateKey = "httpTokensFile" | "stateUrl" | "statePassword";

const MAX_SECRET_LENGTH = 4096;

/** The URL as a message may show it: credentials hidden. */
function shownUrl(value: string): string {
  const at = value.lastIndexOf("@");
  if (at === -1) return quote(value);
  const scheme = /^[a-z][a-z0-9+.-]*:\/\//i.exec(value)?.[0] ?? "";
  return quote(`${scheme}(credentials hidden)${value.slice(at)}`);
}

/**
 * `redis://` or `rediss://` (TLS), a host, an optional port and database
 * number, credentials allowed; no path beyond the database, no query.
 */
function stateUrlValue(): ValueParser<URL | undefined> {
  return (value, name) => {
    if (value === undefined) return undefined;
    let url: URL | undefined;
    try {
      url = new URL(value.trim());
    } catch {
      url = undefined;
    }
    if (
      url === undefined || (url.protocol !== "redis:" &&
        url.protocol !== "rediss:") ||
      url.hostname === "" || url.search !== "" || url.hash !== "" ||
      !/^(\/\d{0,5})?$/.test(url.pathname)
    ) {
      throw new ConfigError(
        name,
        `${name}=${
          shownUrl(value)
        } is not accepted: expected redis://HOST[:PORT][/DB] or rediss://HOST[:PORT][/DB] (TLS), credentials as redis://:PASSWORD@HOST or in RUSTPAD_STATE_PASSWORD`,
      );
    }
    return url;
  };
}

/** A password: never echoed; no control characters. */
function passwordValue(): ValueParser<string | undefined> {
  return (value, name) => {
    if (value === undefined) return undefined;
    if (value.length > MAX_SECRET_LENGTH || /\p{Cc}/u.test(value)) {
      throw notAccepted(
        name,
        value,
        `expected at most ${MAX_SECRET_LENGTH} characters without control characters`,
        true,
      );
    }
    return value;
  };
}

/** The team rows, in --help order. */
export const STATE_VARIABLES: {
  readonly [K in StateKey]-?: Variable<Settings[K]>;
} = {
  httpTokensFile: {
    name: "RUSTPAD_MCP_TOKENS",
    meaning:
      `A file of named bearer tokens for --http, one "name token" per line (# comments and blank lines allowed; names of 1 to 64 letters, digits, '.', '_' or '-'; tokens of at least ${MIN_TOKEN_LENGTH} characters, each unique). Each name is an identity: its own collaborator in pads, shown as "RUSTPAD_USER_NAME (name)", with its own sessions and idempotency keys. RUSTPAD_MCP_TOKEN, if also set, stays the unnamed identity.`,
    default: "none",
    parse: pathValue("/etc/rustpad-mcp/tokens"),
  },
  stateUrl: {
    name: "RUSTPAD_STATE_URL",
    meaning:
      "Redis that --http replicas share their state in, redis://HOST[:PORT][/DB] or rediss:// for TLS: used confirm_tokens, idempotency records and which identity each pad connection is. Refusing or not answering at start: exit code 2, at once for a refusal; losing it and getting it back later is one line each on stderr. Unset: that state lives in this process's memory.",
    default: "unset (memory)",
    parse: stateUrlValue(),
  },
  statePassword: {
    name: "RUSTPAD_STATE_PASSWORD",
    meaning:
      "The Redis password, when it is not in RUSTPAD_STATE_URL; never printed.",
    default: "none",
    parse: passwordValue(),
  },
};
