// The rows of the variables table for the embedded pad server (`--embedded`
// or RUSTPAD_URL=embedded), spread into VARIABLES in _variables.ts.

import { booleanValue, notAccepted, type ValueParser } from "./_parse.ts";
import type { Settings, Variable } from "./settings.ts";

type EmbeddedKey = "embeddedPublic" | "embeddedDatabase";

const MAX_PATH_LENGTH = 4096;

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
        `expected a file path of at most ${MAX_PATH_LENGTH} characters without control characters, such as ${example}`,
      );
    }
    return path;
  };
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
      "SQLite file the embedded pad server persists pads in, as the real server does: a pad is written a few seconds after it changes and restored when the server starts again. Unset: pads live in memory only.",
    default: "unset (memory only)",
    parse: pathValue(),
  },
};
