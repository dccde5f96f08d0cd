/**
 * The error a bad configuration value raises.
 *
 * @module
 */

/**
 * A bad configuration value. The message is one line that names the
 * variable, the value and what is accepted, ready for stderr.
 *
 * @example Catching a bad value
 * ```ts
 * import { ConfigError, loadConfig } from "../mod.ts";
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
