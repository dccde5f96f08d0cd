// Helpers shared by the configuration tests.

import assert from "node:assert/strict";
import { ConfigError, loadConfig } from "../src/config/config.ts";

export type Env = Record<string, string | undefined>;

/** The ConfigError `run` throws; anything else fails the test. */
export function configErrorOf(
  run: () => unknown,
  what = "the call",
): ConfigError {
  try {
    run();
  } catch (error) {
    assert.ok(
      error instanceof ConfigError,
      `expected a ConfigError from ${what}`,
    );
    return error;
  }
  return assert.fail(`expected a ConfigError from ${what}`);
}

/** The message `env` is refused with. */
export function refusal(env: Env): string {
  return configErrorOf(() => loadConfig(env), JSON.stringify(env)).message;
}

/** Assert that `env` is refused for `variable` with a one-line message. */
export function assertRefused(
  env: Env,
  variable: string,
  pattern: RegExp,
): ConfigError {
  const caught = configErrorOf(() => loadConfig(env), JSON.stringify(env));
  assert.equal(caught.variable, variable);
  assert.equal(caught.name, "ConfigError");
  assert.ok(!caught.message.includes("\n"), "the message is one line");
  assert.ok(caught.message.startsWith(variable), caught.message);
  assert.match(caught.message, pattern);
  return caught;
}
