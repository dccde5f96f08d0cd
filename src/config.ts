/**
 * The server's configuration, read from environment variables. This is the
 * only module that reads `Deno.env`; {@linkcode loadConfig} does the work on
 * a plain record, so tests and library users never touch the environment.
 *
 * Rules shared by every variable:
 *
 * - An unset variable, or one that is empty after trimming whitespace, takes
 *   its default.
 * - A bad value throws a {@linkcode ConfigError} whose message is one line
 *   naming the variable, the value (JSON-quoted, so it stays on one line) and
 *   what is accepted. The server prints it and exits with code 2.
 *
 * @module
 */

import { parseBaseUrl } from "./urls.ts";

/** The name of one of the server's tools. */
export type ToolName =
  | "get_document"
  | "get_document_info"
  | "get_stats"
  | "create_document"
  | "set_document"
  | "append_to_document"
  | "replace_in_document"
  | "set_language";

/**
 * Every tool the server can register, in registration order.
 *
 * @example Listing the tools
 * ```ts
 * import { TOOL_NAMES } from "@rustpad-mcp/server";
 * import assert from "node:assert/strict";
 *
 * assert.equal(TOOL_NAMES.length, 8);
 * assert.ok(TOOL_NAMES.includes("set_language"));
 * ```
 */
export const TOOL_NAMES: readonly ToolName[] = Object.freeze(
  [
    "get_document",
    "get_document_info",
    "get_stats",
    "create_document",
    "set_document",
    "append_to_document",
    "replace_in_document",
    "set_language",
  ] as const,
);

/**
 * The tools that only read: the only ones registered when
 * `RUSTPAD_READ_ONLY` is true.
 *
 * @example Read tools
 * ```ts
 * import { READ_TOOLS } from "@rustpad-mcp/server";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(READ_TOOLS, ["get_document", "get_document_info", "get_stats"]);
 * ```
 */
export const READ_TOOLS: readonly ToolName[] = Object.freeze(
  [
    "get_document",
    "get_document_info",
    "get_stats",
  ] as const,
);

/**
 * The tools the word `essential` stands for in `RUSTPAD_ALLOW_TOOLS` and
 * `RUSTPAD_DENY_TOOLS`.
 *
 * @example Essential tools
 * ```ts
 * import { ESSENTIAL_TOOLS } from "@rustpad-mcp/server";
 * import assert from "node:assert/strict";
 *
 * assert.ok(ESSENTIAL_TOOLS.includes("append_to_document"));
 * assert.ok(!ESSENTIAL_TOOLS.includes("replace_in_document"));
 * ```
 */
export const ESSENTIAL_TOOLS: readonly ToolName[] = Object.freeze(
  [
    "get_document",
    "get_document_info",
    "create_document",
    "set_document",
    "append_to_document",
  ] as const,
);

/** The server's settings, as {@linkcode loadConfig} returns them. */
export interface Config {
  /**
   * Base URL of the Rustpad server, from {@linkcode parseBaseUrl}: http or
   * https, always ending in `/`.
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
}

/**
 * A bad configuration value. The message is one line that names the
 * variable, the value and what is accepted, ready for stderr.
 *
 * @example Catching a bad value
 * ```ts
 * import { ConfigError, loadConfig } from "@rustpad-mcp/server";
 * import assert from "node:assert/strict";
 *
 * try {
 *   loadConfig({ RUSTPAD_USER_HUE: "red" });
 *   assert.fail("expected a ConfigError");
 * } catch (error) {
 *   assert.ok(error instanceof ConfigError);
 *   assert.equal(error.variable, "RUSTPAD_USER_HUE");
 * }
 * ```
 */
export class ConfigError extends Error {
  /** The environment variable at fault. */
  readonly variable: string;

  /**
   * Make an error about one variable.
   *
   * @param variable The environment variable at fault.
   * @param message One line naming the variable, the value and what is
   * accepted.
   */
  constructor(variable: string, message: string) {
    super(message);
    this.name = "ConfigError";
    this.variable = variable;
  }
}

const DEFAULT_URL = "https://rustpad.io";
const DEFAULT_USER_NAME = "rustpad-mcp";
const DEFAULT_USER_HUE = 200;
const DEFAULT_TIMEOUT_MS = 15_000;
const MAX_TIMEOUT_MS = 3_600_000;
const MAX_USER_NAME_LENGTH = 64;
const MAX_QUOTED_LENGTH = 200;

/**
 * Every variable the server reads, with its meaning and default, in the
 * order `--help` lists them.
 *
 * @example Variable names
 * ```ts
 * import { CONFIG_VARIABLES } from "@rustpad-mcp/server";
 * import assert from "node:assert/strict";
 *
 * assert.ok(CONFIG_VARIABLES.some((v) => v.name === "RUSTPAD_URL"));
 * ```
 */
export const CONFIG_VARIABLES: readonly {
  readonly name: string;
  readonly meaning: string;
  readonly default: string;
}[] = Object.freeze([
  {
    name: "RUSTPAD_URL",
    meaning:
      "Base URL of the Rustpad server: http or https, no query, fragment or credentials; a path prefix is kept.",
    default: DEFAULT_URL,
  },
  {
    name: "RUSTPAD_ALLOW_TOOLS",
    meaning:
      `Comma-separated tool names to register, nothing else. The word "essential" stands for ${
        ESSENTIAL_TOOLS.join(", ")
      }. Tools: ${TOOL_NAMES.join(", ")}.`,
    default: "all tools",
  },
  {
    name: "RUSTPAD_DENY_TOOLS",
    meaning:
      'Comma-separated tool names never to register ("essential" allowed), applied after RUSTPAD_ALLOW_TOOLS.',
    default: "none",
  },
  {
    name: "RUSTPAD_READ_ONLY",
    meaning: `true, 1 or yes (any case): register only the read tools (${
      READ_TOOLS.join(", ")
    }); false, 0 or no: no such limit.`,
    default: "false",
  },
  {
    name: "ELICITATION",
    meaning:
      "false, 0 or no: destructive writes are always confirmed with the two-call confirm_token path, never a dialog. The confirmation itself never goes away.",
    default: "true",
  },
  {
    name: "RUSTPAD_USER_NAME",
    meaning:
      `The name shown to the people in a pad the server writes to: 1 to ${MAX_USER_NAME_LENGTH} characters, no control characters.`,
    default: DEFAULT_USER_NAME,
  },
  {
    name: "RUSTPAD_USER_HUE",
    meaning:
      "The colour shown to the people in a pad: an integer hue from 0 to 359.",
    default: String(DEFAULT_USER_HUE),
  },
  {
    name: "RUSTPAD_TIMEOUT_MS",
    meaning:
      `Bound on every network wait, in milliseconds: an integer from 1 to ${MAX_TIMEOUT_MS}.`,
    default: String(DEFAULT_TIMEOUT_MS),
  },
].map((variable) => Object.freeze(variable)));

/** JSON-quote a value for a one-line message, shortening very long ones. */
function quote(value: string): string {
  const codePoints = [...value];
  if (codePoints.length <= MAX_QUOTED_LENGTH) return JSON.stringify(value);
  return `${
    JSON.stringify(codePoints.slice(0, MAX_QUOTED_LENGTH).join(""))
  }... (${codePoints.length} characters)`;
}

function notAccepted(
  variable: string,
  value: string,
  accepted: string,
): ConfigError {
  return new ConfigError(
    variable,
    `${variable}=${quote(value)} is not accepted: ${accepted}`,
  );
}

/** The value of `variable`, or `undefined` when unset or blank. */
function read(
  env: Readonly<Record<string, string | undefined>>,
  variable: string,
): string | undefined {
  const value = env[variable];
  if (value === undefined || value.trim() === "") return undefined;
  return value;
}

function parseBoolean(
  env: Readonly<Record<string, string | undefined>>,
  variable: string,
  fallback: boolean,
): boolean {
  const value = read(env, variable);
  if (value === undefined) return fallback;
  switch (value.trim().toLowerCase()) {
    case "true":
    case "1":
    case "yes":
      return true;
    case "false":
    case "0":
    case "no":
      return false;
  }
  throw notAccepted(
    variable,
    value,
    "expected true, 1 or yes, or false, 0 or no (any case)",
  );
}

function parseInteger(
  env: Readonly<Record<string, string | undefined>>,
  variable: string,
  options: { min: number; max: number; fallback: number; unit?: string },
): number {
  const value = read(env, variable);
  if (value === undefined) return options.fallback;
  const digits = value.trim();
  const number = /^[0-9]+$/.test(digits) ? Number(digits) : NaN;
  if (!(number >= options.min && number <= options.max)) {
    throw notAccepted(
      variable,
      value,
      `expected an integer from ${options.min} to ${options.max}${
        options.unit ? ` (${options.unit})` : ""
      }`,
    );
  }
  return number;
}

function parseUrl(env: Readonly<Record<string, string | undefined>>): URL {
  const value = read(env, "RUSTPAD_URL");
  if (value === undefined) return parseBaseUrl(DEFAULT_URL);
  try {
    return parseBaseUrl(value.trim());
  } catch {
    throw notAccepted(
      "RUSTPAD_URL",
      value,
      "expected an absolute http or https URL without query, fragment or credentials, such as https://rustpad.io",
    );
  }
}

function parseUserName(
  env: Readonly<Record<string, string | undefined>>,
): string {
  const value = read(env, "RUSTPAD_USER_NAME");
  if (value === undefined) return DEFAULT_USER_NAME;
  const name = value.trim();
  if ([...name].length > MAX_USER_NAME_LENGTH || /\p{Cc}/u.test(name)) {
    throw notAccepted(
      "RUSTPAD_USER_NAME",
      value,
      `expected 1 to ${MAX_USER_NAME_LENGTH} characters without control characters`,
    );
  }
  return name;
}

const TOOL_LIST_ACCEPTED = `expected a comma-separated list of tool names (${
  TOOL_NAMES.join(", ")
}) or the word essential`;

/** The tools a list names, or `undefined` when the variable is unset. */
function parseToolList(
  env: Readonly<Record<string, string | undefined>>,
  variable: string,
): Set<ToolName> | undefined {
  const value = read(env, variable);
  if (value === undefined) return undefined;
  const tools = new Set<ToolName>();
  for (const item of value.split(",")) {
    const name = item.trim();
    if (name === "") continue;
    if (name === "essential") {
      for (const tool of ESSENTIAL_TOOLS) tools.add(tool);
    } else if ((TOOL_NAMES as readonly string[]).includes(name)) {
      tools.add(name as ToolName);
    } else {
      throw notAccepted(
        variable,
        value,
        `unknown tool name ${quote(name)}; ${TOOL_LIST_ACCEPTED}`,
      );
    }
  }
  return tools;
}

function selectTools(
  env: Readonly<Record<string, string | undefined>>,
): { tools: ReadonlySet<ToolName>; readOnly: boolean } {
  const allow = parseToolList(env, "RUSTPAD_ALLOW_TOOLS");
  const deny = parseToolList(env, "RUSTPAD_DENY_TOOLS") ?? new Set();
  const readOnly = parseBoolean(env, "RUSTPAD_READ_ONLY", false);
  const tools = new Set(
    TOOL_NAMES.filter((tool) =>
      (allow === undefined || allow.has(tool)) && !deny.has(tool) &&
      (!readOnly || READ_TOOLS.includes(tool))
    ),
  );
  if (tools.size > 0) return { tools, readOnly };
  const involved = ["RUSTPAD_ALLOW_TOOLS", "RUSTPAD_DENY_TOOLS"]
    .filter((variable) => read(env, variable) !== undefined);
  if (readOnly) involved.push("RUSTPAD_READ_ONLY");
  const settings = involved
    .map((variable) => `${variable}=${quote(env[variable] ?? "")}`);
  const together = settings.length === 1
    ? `${settings[0]} is not accepted: it leaves`
    : `${settings.slice(0, -1).join(", ")} and ${
      settings.at(-1)
    } are not accepted together: they leave`;
  throw new ConfigError(
    allow === undefined ? "RUSTPAD_DENY_TOOLS" : "RUSTPAD_ALLOW_TOOLS",
    `${together} no tool to register; expected at least one ${
      readOnly ? "read tool" : "tool"
    } that is allowed and not denied`,
  );
}

/**
 * Build the configuration from a record of environment variables. Pure: it
 * reads nothing but `env`.
 *
 * - `RUSTPAD_URL`: checked with {@linkcode parseBaseUrl}; default
 *   `https://rustpad.io`.
 * - `RUSTPAD_ALLOW_TOOLS`, `RUSTPAD_DENY_TOOLS`: comma-separated, items
 *   trimmed, empty items ignored, names case-sensitive, `essential` expands
 *   to {@linkcode ESSENTIAL_TOOLS}. The tools are (allow list, or all) minus
 *   the deny list, then only {@linkcode READ_TOOLS} if read-only. A list of
 *   only commas names no tool, so as an allow list it allows nothing.
 * - `RUSTPAD_READ_ONLY` (default false), `ELICITATION` (default true):
 *   `true`, `1`, `yes`, `false`, `0` or `no`, in any case, trimmed.
 * - `RUSTPAD_USER_NAME`: trimmed, 1 to 64 code points, no control
 *   characters; default `rustpad-mcp`.
 * - `RUSTPAD_USER_HUE`: decimal digits only, 0 to 359; default 200.
 * - `RUSTPAD_TIMEOUT_MS`: decimal digits only (`15s` and `1e3` are
 *   refused), 1 to 3600000; default 15000.
 *
 * @param env The environment variables; unset and blank ones take their
 * defaults.
 * @returns The configuration.
 * @throws {ConfigError} On the first bad value, in the order above; or if
 * the tool variables leave no tool to register.
 *
 * @example Defaults and a narrowed tool set
 * ```ts
 * import { loadConfig } from "@rustpad-mcp/server";
 * import assert from "node:assert/strict";
 *
 * const config = loadConfig({
 *   RUSTPAD_URL: "http://127.0.0.1:3030/pads",
 *   RUSTPAD_ALLOW_TOOLS: "essential",
 *   RUSTPAD_DENY_TOOLS: "set_document",
 * });
 * assert.equal(config.rustpadUrl.href, "http://127.0.0.1:3030/pads/");
 * assert.deepEqual([...config.tools], [
 *   "get_document",
 *   "get_document_info",
 *   "create_document",
 *   "append_to_document",
 * ]);
 * assert.equal(config.timeoutMs, 15000);
 * ```
 */
export function loadConfig(
  env: Readonly<Record<string, string | undefined>>,
): Config {
  const rustpadUrl = parseUrl(env);
  const { tools, readOnly } = selectTools(env);
  const elicitation = parseBoolean(env, "ELICITATION", true);
  const userName = parseUserName(env);
  const userHue = parseInteger(env, "RUSTPAD_USER_HUE", {
    min: 0,
    max: 359,
    fallback: DEFAULT_USER_HUE,
  });
  const timeoutMs = parseInteger(env, "RUSTPAD_TIMEOUT_MS", {
    min: 1,
    max: MAX_TIMEOUT_MS,
    fallback: DEFAULT_TIMEOUT_MS,
    unit: "milliseconds",
  });
  return {
    rustpadUrl,
    tools,
    readOnly,
    elicitation,
    userName,
    userHue,
    timeoutMs,
  };
}

/**
 * Build the configuration from the process environment, reading only the
 * variables in {@linkcode CONFIG_VARIABLES} (so `--allow-env` can name just
 * those).
 *
 * @returns The configuration.
 * @throws {ConfigError} If a value is bad; see {@linkcode loadConfig}.
 * @throws {Deno.errors.NotCapable} If env access to one of the variables is
 * denied: a denied `RUSTPAD_READ_ONLY` must not silently mean writable.
 *
 * @example Reading the environment
 * ```ts ignore
 * import { ConfigError, configFromEnvironment } from "@rustpad-mcp/server";
 *
 * try {
 *   const config = configFromEnvironment();
 *   console.error(`Using ${config.rustpadUrl.href}`);
 * } catch (error) {
 *   if (!(error instanceof ConfigError)) throw error;
 *   console.error(error.message);
 *   Deno.exit(2);
 * }
 * ```
 */
export function configFromEnvironment(): Config {
  const env: Record<string, string | undefined> = {};
  for (const { name } of CONFIG_VARIABLES) env[name] = Deno.env.get(name);
  return loadConfig(env);
}

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
 * import { usage } from "@rustpad-mcp/server";
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
    "       rustpad-mcp [--help | --version]   (a binary from deno compile)",
    "",
    "The server speaks MCP over stdin and stdout; add it to an MCP client as a",
    "stdio server. It is configured only through environment variables. An",
    "unset or empty variable takes its default; a bad value stops the server",
    "at start with exit code 2 and one line on stderr.",
    "",
    "Environment variables:",
  ];
  for (const variable of CONFIG_VARIABLES) {
    lines.push(`  ${variable.name}`);
    lines.push(...wrap(variable.meaning, 80, "      "));
    lines.push(`      Default: ${variable.default}`);
  }
  return lines.join("\n") + "\n";
}
