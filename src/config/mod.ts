/**
 * Configuration from the environment: one row per variable, parsed and
 * checked, the tool names and sets, `--help`, and the version. Imports the
 * Rustpad client's URL rules only.
 *
 * @module
 */

export { type Config, configFromEnvironment, loadConfig } from "./config.ts";
export { ConfigError } from "./config_error.ts";
export { CONFIG_VARIABLES, type ConfigVariable, usage } from "./usage.ts";
export {
  ESSENTIAL_TOOLS,
  READ_TOOLS,
  TOOL_NAMES,
  type ToolName,
} from "./tool_names.ts";
export { VERSION } from "./version.ts";
export {
  type NamedToken,
  parseTokenFile,
  readTokenFile,
} from "./token_file.ts";
