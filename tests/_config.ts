// Helpers shared by the configuration tests.

import assert from "node:assert/strict";
import { ConfigError, loadConfig } from "../src/config/config.ts";

export type Env = Record<string, string | undefined>;

/** Assert that `env` is refused for `variable` with a one-line message. */
export function assertRefused(
  env: Env,
  variable: string,
  pattern: RegExp,
): ConfigError {
  let caught: unknown;
  try {
    loadConfig(env);
  } catch (error) {
    caught = error;
  }
  assert.ok(
    caught instanceof ConfigError,
    `expected a ConfigError for ${JSON.stringify(env)}`,
  );
  assert.equal(caught.variable, variable);
  assert.equal(caught.name, "ConfigError");
  assert.ok(!caught.message.includes("\n"), "the message is one line");
  assert.ok(caught.message.startsWith(variable), caught.message);
  assert.match(caught.message, pattern);
  return caught;
}
