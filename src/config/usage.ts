/**
 * The list of configuration variables and the `--help` text built from it.
 *
 * @module
 */

import { VARIABLES } from "./_variables.ts";

/** One configuration variable as `--help` and the README describe it. */
export interface ConfigVariable {
  /** The environment variable's name. */
  readonly name: string;
  /** What it sets and which values it accepts. */
  readonly meaning: string;
  /** The default, as text. */
  readonly default: string;
}

/**
 * Every variable the server reads, with its meaning and default, in the
 * order `--help` lists them.
 *
 * @example Variable names
 * ```ts
 * import { CONFIG_VARIABLES } from "../mod.ts";
 * import assert from "node:assert/strict";
 *
 * assert.ok(CONFIG_VARIABLES.some((v) => v.name === "RUSTPAD_URL"));
 * ```
 */
export const CONFIG_VARIABLES: readonly ConfigVariable[] = Object.freeze(
  Object.values(VARIABLES).map(({ name, meaning, default: fallback }) =>
    Object.freeze({ name, meaning, default: fallback })
  ),
);

function wrap(text: string, width: number, indent: string): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(/\s+/)) {
    if (line !== "" && indent.length + line.length + 1 + word.length > width) {
      lines.push(indent + line);
      line = word;
    } else {
      line = line === "" ? word : `${line} ${word}`;
    }
  }
  if (line !== "") lines.push(indent + line);
  return lines;
}

/**
 * The `--help` text: what the server is, how to run it, and every variable
 * with its meaning and default. Lines fit in 80 columns where words allow.
 *
 * @param version The server's version, shown on the first line.
 * @returns The text, ending with a newline.
 *
 * @example Help text
 * ```ts
 * import { usage } from "../mod.ts";
 * import assert from "node:assert/strict";
 *
 * const text = usage("0.1.0");
 * assert.match(text, /^rustpad-mcp 0\.1\.0/);
 * assert.match(text, /RUSTPAD_TIMEOUT_MS/);
 * ```
 */
export function usage(version: string): string {
  const lines = [
    `rustpad-mcp ${version}`,
    "An MCP server that lets an AI agent read and edit pads on a Rustpad",
    "collaborative-editor server.",
    "",
    "Usage: deno run -A jsr:@rustpad-mcp/server [--help | --version]",
    "         [--http ADDR] [--embedded [ADDR]]",
    "       deno run -A jsr:@rustpad-mcp/server pad-server [--help]",
    "       rustpad-mcp [...the same flags]   (from deno compile)",
    "",
    "The server speaks MCP over stdin and stdout; add it to an MCP client as a",
    "stdio server. With --http [HOST:]PORT it serves MCP over Streamable HTTP",
    "at /mcp instead, for a team (HOST defaults to 127.0.0.1; SIGTERM drains).",
    "With --embedded [[HOST:]PORT] (or RUSTPAD_URL=embedded) it joins the",
    "project's Rustpad-compatible pad server, starting it on first use as a",
    "process of its own (pad-server) that outlives it, on 127.0.0.1:3030 by",
    "default (RUSTPAD_EMBEDDED_LISTEN) with its pads kept in the user's data",
    "directory (RUSTPAD_EMBEDDED_DB), and prints the URL of its web editor on",
    "stderr. Every --embedded agent of the same pads shares that pad server.",
    "It is configured only through environment variables. An",
    "unset or empty variable takes its default; a bad value stops the server",
    "at start with exit code 2 and one line on stderr.",
    "",
    "Environment variables:",
  ];
  for (const variable of CONFIG_VARIABLES) {
    lines.push(`  ${variable.name}`);
    for (const line of wrap(variable.meaning, 80, "      ")) lines.push(line);
    lines.push(`      Default: ${variable.default}`);
  }
  return lines.join("\n") + "\n";
}
