// The rows of the variables table for the embedded pad server (`--embedded`
// or RUSTPAD_URL=embedded), spread into VARIABLES in _variables.ts.

import {
  booleanValue,
  choiceValue,
  integerValue,
  listValue,
  notAccepted,
  textValue,
  type ValueParser,
} from "./_parse.ts";
import { listenValue } from "./_http_variables.ts";
import type { ListenAddress } from "./listen.ts";
import type { Settings, Variable } from "./settings.ts";

type EmbeddedKey =
  | "embeddedPublic"
  | "embeddedDatabase"
  | "embeddedListen"
  | "embeddedPublicHost"
  | "embeddedAllowedOrigins"
  | "embeddedMaxConnections"
  | "embeddedMaxSocketsPerPad"
  | "padServerIdleSeconds"
  | "embeddedSync"
  | "agentSecretFile"
  | "agentSecretText";

/** An origin as a browser sends it: scheme://host[:port], nothing more. */
function isOrigin(item: string): boolean {
  try {
    const url = new URL(item);
    return url.origin !== "null" && url.origin === item.replace(/\/$/, "");
  } catch {
    return false;
  }
}

const MAX_PATH_LENGTH = 4096;
/** Rustpad's own port: the embedded pad server's URLs stay the same. */
const DEFAULT_EMBEDDED_LISTEN: ListenAddress = {
  hostname: "127.0.0.1",
  port: 3030,
};

/** A file path: trimmed, no control characters; `undefined` when unset. */
export function pathValue(
  example = "pads.sqlite",
): ValueParser<string | undefined> {
  return (value, name) => {
    if (value === undefined) return undefined;
    const path = value.trim();
    if (path.length > MAX_PATH_LENGTH || /\p{Cc}/u.test(path)) {
      throw notAccepted(
        name,
        value,
        `expected a file path of at most ${MAX_PATH_LENGTH} characters without control characters, such as ${example}, or memory`,
      );
    }
    return path;
  };
}

/** A path, or `false` for the word `memory` (any case). */
function databaseValue(): ValueParser<string | false | undefined> {
  const path = pathValue();
  return (value, name) =>
    value?.trim().toLowerCase() === "memory" ? false : path(value, name);
}

/** The embedded pad server's rows, in --help order. */
export const EMBEDDED_VARIABLES: {
  readonly [K in EmbeddedKey]-?: Variable<Settings[K]>;
} = {
  embeddedPublic: {
    name: "RUSTPAD_EMBEDDED_PUBLIC",
    meaning:
      "true, 1 or yes: let --embedded listen on an address other than loopback. Pad ids are the pads' only access control, so anyone who can reach the port and guess or learn an id reads and edits that pad.",
    default: "false",
    parse: booleanValue(false),
  },
  embeddedDatabase: {
    name: "RUSTPAD_EMBEDDED_DB",
    meaning:
      "SQLite file the embedded pad server persists pads in, as the real server does: a pad is written a few seconds after it changes and when the server stops, and restored when it starts again. By default rustpad-mcp/pads.sqlite in the user's data directory: $XDG_DATA_HOME or ~/.local/share, ~/Library/Application Support on macOS, %LOCALAPPDATA% on Windows. The word memory keeps pads in memory only.",
    default: "the user's data directory",
    parse: databaseValue(),
  },
  embeddedListen: {
    name: "RUSTPAD_EMBEDDED_LISTEN",
    meaning:
      "[HOST:]PORT the embedded pad server listens on unless --embedded gives one; HOST defaults to 127.0.0.1, port 0 picks a free port. When the pad server of the same pads already runs (its address is in the data directory), --embedded joins it wherever it listens; when the port is taken by another pad server (Rustpad), the tools use that one; when by anything else, the first free one of the 9 ports after it, else any free port.",
    default: "127.0.0.1:3030",
    parse: (value, name) =>
      listenValue()(value, name) ?? DEFAULT_EMBEDDED_LISTEN,
  },
  embeddedPublicHost: {
    name: "RUSTPAD_EMBEDDED_PUBLIC_HOST",
    meaning:
      "The host name people reach the embedded pad server by beyond loopback, such as pads.example.com (with RUSTPAD_EMBEDDED_PUBLIC=true). A request whose Host is another name, not an IP address or localhost, gets 403, so a web page cannot rebind its own name to the pad server.",
    default: "unset (IP addresses and localhost only)",
    parse: textValue({ fallback: undefined, maxLength: 253 }),
  },
  embeddedAllowedOrigins: {
    name: "RUSTPAD_EMBEDDED_ALLOWED_ORIGINS",
    meaning:
      "Comma-separated origins, besides the pad server's own, whose web pages may open pad sockets, read pads and frame the editor, such as https://app.example. Requests from other pages' origins get 403.",
    default: "unset (the server's own origin only)",
    parse: listValue({
      fallback: [],
      check: isOrigin,
      accepted: "origins such as https://app.example",
    }),
  },
  embeddedMaxConnections: {
    name: "RUSTPAD_EMBEDDED_MAX_CONNECTIONS",
    meaning:
      "The most open connections (HTTP and pad sockets) of the embedded pad server; one more is closed as soon as it is accepted. Lowered to three quarters of the open-file limit (ulimit -n) when that is smaller: an integer from 1 to 1000000.",
    default: "1024",
    parse: integerValue({ min: 1, max: 1_000_000, fallback: 1024 }),
  },
  embeddedMaxSocketsPerPad: {
    name: "RUSTPAD_EMBEDDED_MAX_SOCKETS_PER_PAD",
    meaning:
      "The most sockets open on one pad of the embedded pad server; one more is closed at once with code 1013 and the reason: an integer from 1 to 1000000.",
    default: "256",
    parse: integerValue({ min: 1, max: 1_000_000, fallback: 256 }),
  },
  padServerIdleSeconds: {
    name: "RUSTPAD_PAD_SERVER_IDLE_SECONDS",
    meaning:
      "Seconds the pad server (deno task pad-server, or the one --embedded starts as a process of its own) goes on with no person and no agent connected before it stops: no socket open and no request, while every running --embedded agent asks every few seconds. 0 keeps it running until SIGTERM: an integer from 0 to 31536000.",
    default: "3600",
    parse: integerValue({ min: 0, max: 31_536_000, fallback: 3600 }),
  },
  embeddedSync: {
    name: "RUSTPAD_EMBEDDED_SYNC",
    meaning:
      "How the embedded pad server's commits reach the disk: normal (every acknowledged edit survives kill -9; a power cut may lose the last moments) or full (a power cut too, each commit synced first, slower); see docs/pad_store.md.",
    default: "normal",
    parse: choiceValue(["normal", "full"], "normal"),
  },
  agentSecretFile: {
    name: "RUSTPAD_AGENT_SECRET_FILE",
    meaning:
      "Without --embedded: a file whose first line is the agent secret (agent.secret) of the pad server RUSTPAD_URL names, so that this server's sessions keep their suggestions there and show as agents; --embedded finds it by itself.",
    default: "unset",
    parse: pathValue("agent.secret"),
  },
  agentSecretText: {
    name: "RUSTPAD_AGENT_SECRET",
    meaning:
      "The agent secret itself, in place of RUSTPAD_AGENT_SECRET_FILE; never printed.",
    default: "unset",
    parse: textValue({ fallback: undefined, maxLength: 256, secret: true }),
  },
};
