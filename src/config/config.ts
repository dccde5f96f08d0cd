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
 * The variables themselves are a table in `_variables.ts`; adding one is a
 * row there and a field in {@linkcode Config} (`settings.ts`).
 *
 * @module
 */

import { quote, readVariable } from "./_parse.ts";
import { VARIABLES } from "./_variables.ts";
import { ConfigError } from "./config_error.ts";
import type { Config, Settings } from "./settings.ts";
import { READ_TOOLS, TOOL_NAMES, type ToolName } from "./tool_names.ts";

// Re-exported so that existing imports of these names from config.ts work.
export { ConfigError } from "./config_error.ts";
export {
  ESSENTIAL_TOOLS,
  READ_TOOLS,
  TOOL_NAMES,
  type ToolName,
} from "./tool_names.ts";
export type { Config } from "./settings.ts";

type Env = Readonly<Record<string, string | undefined>>;

/** Every variable parsed by its row, in table order. */
function parseVariables(env: Env): Settings {
  const settings: Record<string, unknown> = {};
  for (const [key, variable] of Object.entries(VARIABLES)) {
    settings[key] = variable.parse(
      readVariable(env, variable.name),
      variable.name,
    );
  }
  return settings as unknown as Settings;
}

/** (allow list or all) minus deny list, then only read tools if read-only. */
function selectTools(env: Env, settings: Settings): ReadonlySet<ToolName> {
  const { allowTools: allow, denyTools: deny, readOnly } = settings;
  const tools = new Set(
    TOOL_NAMES.filter((tool) =>
      (allow === undefined || allow.has(tool)) && !deny?.has(tool) &&
      (!readOnly || READ_TOOLS.includes(tool))
    ),
  );
  if (tools.size > 0) return tools;
  const names = [VARIABLES.allowTools.name, VARIABLES.denyTools.name]
    .filter((name) => readVariable(env, name) !== undefined);
  if (readOnly) names.push(VARIABLES.readOnly.name);
  const settingsText = names.map((name) => `${name}=${quote(env[name] ?? "")}`);
  const together = settingsText.length === 1
    ? `${settingsText[0]} is not accepted: it leaves`
    : `${settingsText.slice(0, -1).join(", ")} and ${
      settingsText.at(-1)
    } are not accepted together: they leave`;
  throw new ConfigError(
    allow === undefined ? VARIABLES.denyTools.name : VARIABLES.allowTools.name,
    `${together} no tool to register; expected at least one ${
      readOnly ? "read tool" : "tool"
    } that is allowed and not denied`,
  );
}

/**
 * Build the configuration from a record of environment variables. Pure: it
 * reads nothing but `env`.
 *
 * - `RUSTPAD_URL`: checked with `parseBaseUrl`; default
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
 * @throws {ConfigError} On the first bad value, in the order of
 * {@linkcode CONFIG_VARIABLES}; then if the tool variables leave no tool to
 * register.
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
  const settings = parseVariables(env);
  const tools = selectTools(env, settings);
  const { allowTools: _allow, denyTools: _deny, ...rest } = settings;
  return { ...rest, tools };
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
 * import { ConfigError, configFromEnvironment } from "../mod.ts";
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
  for (const { name } of Object.values(VARIABLES)) {
    env[name] = Deno.env.get(name);
  }
  return loadConfig(env);
}
