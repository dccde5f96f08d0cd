/**
 * The file of named bearer tokens that `RUSTPAD_MCP_TOKENS` points to: one
 * `name token` per line, so tokens stay out of process listings and the
 * environment. A bad line stops the server at start with one message naming
 * the line number, never the token.
 *
 * @module
 */

import { ConfigError } from "./config_error.ts";
import { MIN_TOKEN_LENGTH } from "./listen.ts";

/** One named bearer token: an identity. */
export interface NamedToken {
  /** 1 to 64 of `A-Z a-z 0-9 . _ -`. */
  readonly name: string;
  /** At least 32 characters, no whitespace. */
  readonly token: string;
}

const NAME_PATTERN = /^[A-Za-z0-9._-]{1,64}$/;
const MAX_TOKEN_LENGTH = 4096;
/** A file of more than this many identities is refused. */
const MAX_IDENTITIES = 10_000;
const VARIABLE = "RUSTPAD_MCP_TOKENS";

/**
 * Read the identities of a token file's text.
 *
 * @param text The file's contents.
 * @param file The file's path, for messages.
 * @param unnamed `RUSTPAD_MCP_TOKEN`, if set: no named token may repeat it.
 * @returns The identities, in file order.
 * @throws {ConfigError} On the first bad line: a name or token missing or
 * malformed, or a name or token already used.
 *
 * @example
 * ```ts
 * import { parseTokenFile } from "./token_file.ts";
 * import assert from "node:assert/strict";
 *
 * const text = "# the team\nalice " + "a".repeat(32) + "\n\nbob " + "b".repeat(32) + "\n";
 * assert.deepEqual(parseTokenFile(text, "tokens").map((id) => id.name), ["alice", "bob"]);
 * assert.throws(() => parseTokenFile("alice short", "tokens"), /"tokens" line 1/);
 * ```
 */
export function parseTokenFile(
  text: string,
  file: string,
  unnamed?: string,
): NamedToken[] {
  const identities: NamedToken[] = [];
  const names = new Set<string>();
  const tokens = new Set<string>(unnamed === undefined ? [] : [unnamed]);
  const lines = text.split(/\r?\n/);
  for (const [index, raw] of lines.entries()) {
    const line = raw.trim();
    if (line === "" || line.startsWith("#")) continue;
    const refuse = (why: string) =>
      new ConfigError(
        VARIABLE,
        `${VARIABLE} file ${JSON.stringify(file)} line ${
          index + 1
        } is not accepted: ${why}`,
      );
    const [name = "", token, ...rest] = line.split(/\s+/);
    if (!NAME_PATTERN.test(name)) {
      throw refuse(
        "expected \"name token\" with a name of 1 to 64 letters, digits, '.', '_' or '-'",
      );
    }
    if (token === undefined || rest.length > 0) {
      throw refuse(
        `expected "name token": a name, one space and a token without spaces`,
      );
    }
    if (
      token.length < MIN_TOKEN_LENGTH || token.length > MAX_TOKEN_LENGTH ||
      /\p{Cc}/u.test(token)
    ) {
      throw refuse(
        `the token of ${name} must be ${MIN_TOKEN_LENGTH} to ${MAX_TOKEN_LENGTH} characters without control characters (current length ${token.length}), such as the output of: openssl rand -base64 48`,
      );
    }
    if (names.has(name)) throw refuse(`the name ${name} is used twice`);
    if (tokens.has(token)) {
      throw refuse(
        `the token of ${name} is already used (by another line or RUSTPAD_MCP_TOKEN): give each identity its own`,
      );
    }
    if (identities.length === MAX_IDENTITIES) {
      throw refuse(`more than ${MAX_IDENTITIES} identities`);
    }
    names.add(name);
    tokens.add(token);
    identities.push({ name, token });
  }
  if (identities.length === 0) {
    throw new ConfigError(
      VARIABLE,
      `${VARIABLE} file ${
        JSON.stringify(file)
      } is not accepted: it names no identity; expected "name token" lines`,
    );
  }
  return identities;
}

/**
 * Read the token file at `file`, as {@linkcode parseTokenFile} does.
 *
 * @param file The path, from `RUSTPAD_MCP_TOKENS`.
 * @param unnamed `RUSTPAD_MCP_TOKEN`, if set.
 * @returns The identities.
 * @throws {ConfigError} If the file cannot be read or a line is bad.
 *
 * @example
 * ```ts
 * import { readTokenFile } from "./token_file.ts";
 * import assert from "node:assert/strict";
 *
 * const file = await Deno.makeTempFile();
 * await Deno.writeTextFile(file, `alice ${"a".repeat(40)}\n`);
 * assert.equal((await readTokenFile(file))[0]?.name, "alice");
 * await Deno.remove(file);
 * ```
 */
export async function readTokenFile(
  file: string,
  unnamed?: string,
): Promise<NamedToken[]> {
  let text: string;
  try {
    text = await Deno.readTextFile(file);
  } catch (error) {
    throw new ConfigError(
      VARIABLE,
      `${VARIABLE}=${JSON.stringify(file)} is not accepted: cannot read it (${
        (error as Error).name
      }); expected a readable file of "name token" lines`,
    );
  }
  return parseTokenFile(text, file, unnamed);
}
