// Parsers for configuration values, one factory per kind of value. Each
// returns a `ValueParser`: it gets the raw value (`undefined` when the
// variable is unset or blank) and the variable's name, and returns the
// setting or throws a one-line ConfigError naming the variable, the value and
// what is accepted.

import { ConfigError } from "./config_error.ts";
import { ESSENTIAL_TOOLS, TOOL_NAMES, type ToolName } from "./tool_names.ts";
import { parseBaseUrl } from "../rustpad/urls.ts";

/** Turns a variable's raw value (`undefined` when unset or blank) into a setting. */
export type ValueParser<T> = (value: string | undefined, name: string) => T;

const MAX_QUOTED_LENGTH = 200;

/** JSON-quote a value for a one-line message, shortening very long ones. */
export function quote(value: string): string {
  const codePoints = [...value];
  if (codePoints.length <= MAX_QUOTED_LENGTH) return JSON.stringify(value);
  return `${
    JSON.stringify(codePoints.slice(0, MAX_QUOTED_LENGTH).join(""))
  }... (${codePoints.length} characters)`;
}

/**
 * The error for a refused value: `NAME="value" is not accepted: accepted`.
 * A secret's value is never shown, only its length.
 */
export function notAccepted(
  name: string,
  value: string,
  accepted: string,
  secret = false,
): ConfigError {
  const shown = secret
    ? `(${[...value].length} hidden characters)`
    : quote(value);
  return new ConfigError(name, `${name}=${shown} is not accepted: ${accepted}`);
}

/** The value of `name` in `env`, or `undefined` when unset or blank. */
export function readVariable(
  env: Readonly<Record<string, string | undefined>>,
  name: string,
): string | undefined {
  const value = env[name];
  if (value === undefined || value.trim() === "") return undefined;
  return value;
}

/** `true`, `1`, `yes`, `false`, `0` or `no`, in any case. */
export function booleanValue(fallback: boolean): ValueParser<boolean> {
  return (value, name) => {
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
      name,
      value,
      "expected true, 1 or yes, or false, 0 or no (any case)",
    );
  };
}

/** Decimal digits only (no sign, exponent or unit), from `min` to `max`. */
export function integerValue(
  options: { min: number; max: number; fallback: number; unit?: string },
): ValueParser<number> {
  return (value, name) => {
    if (value === undefined) return options.fallback;
    const digits = value.trim();
    const number = /^[0-9]+$/.test(digits) ? Number(digits) : NaN;
    if (!(number >= options.min && number <= options.max)) {
      throw notAccepted(
        name,
        value,
        `expected an integer from ${options.min} to ${options.max}${
          options.unit ? ` (${options.unit})` : ""
        }`,
      );
    }
    return number;
  };
}

/** One of a few words, in any case; returns the word as listed. */
export function choiceValue<const T extends string>(
  choices: readonly T[],
  fallback: T,
): ValueParser<T> {
  return (value, name) => {
    if (value === undefined) return fallback;
    const word = value.trim().toLowerCase();
    const found = choices.find((choice) => choice.toLowerCase() === word);
    if (found !== undefined) return found;
    throw notAccepted(
      name,
      value,
      `expected ${choices.slice(0, -1).join(", ")} or ${choices.at(-1)}`,
    );
  };
}

/**
 * Text, trimmed: 1 to `maxLength` code points without control characters.
 * With `secret`, a refused value is never echoed.
 */
export function textValue<F extends string | undefined>(
  options: { fallback: F; maxLength: number; secret?: boolean },
): ValueParser<string | F> {
  return (value, name) => {
    if (value === undefined) return options.fallback;
    const text = value.trim();
    if ([...text].length > options.maxLength || /\p{Cc}/u.test(text)) {
      throw notAccepted(
        name,
        value,
        `expected 1 to ${options.maxLength} characters without control characters`,
        options.secret,
      );
    }
    return text;
  };
}

/**
 * A comma-separated list, items trimmed, empty items dropped. Each item
 * must pass `check`; `accepted` says what an item may be.
 */
export function listValue(
  options: {
    fallback: readonly string[];
    check?: (item: string) => boolean;
    accepted?: string;
  },
): ValueParser<readonly string[]> {
  return (value, name) => {
    if (value === undefined) return options.fallback;
    const items = value.split(",").map((item) => item.trim())
      .filter((item) => item !== "");
    for (const item of items) {
      if (options.check && !options.check(item)) {
        throw notAccepted(
          name,
          value,
          `cannot use ${quote(item)}; expected a comma-separated list of ${
            options.accepted ?? "items"
          }`,
        );
      }
    }
    return Object.freeze(items);
  };
}

/** A Rustpad base URL, checked with `parseBaseUrl`. */
export function urlValue(fallback: string): ValueParser<URL> {
  return (value, name) => {
    if (value === undefined) return parseBaseUrl(fallback);
    try {
      return parseBaseUrl(value.trim());
    } catch {
      throw notAccepted(
        name,
        value,
        `expected an absolute http or https URL without query, fragment or credentials, such as ${fallback}`,
      );
    }
  };
}

const TOOL_LIST_ACCEPTED = `expected a comma-separated list of tool names (${
  TOOL_NAMES.join(", ")
}) or the word essential`;

/** Tool names and `essential`; `undefined` when the variable is unset. */
export function toolListValue(): ValueParser<Set<ToolName> | undefined> {
  return (value, name) => {
    if (value === undefined) return undefined;
    const tools = new Set<ToolName>();
    for (const item of value.split(",")) {
      const tool = item.trim();
      if (tool === "") continue;
      if (tool === "essential") {
        for (const essential of ESSENTIAL_TOOLS) tools.add(essential);
      } else if ((TOOL_NAMES as readonly string[]).includes(tool)) {
        tools.add(tool as ToolName);
      } else {
        throw notAccepted(
          name,
          value,
          `unknown tool name ${quote(tool)}; ${TOOL_LIST_ACCEPTED}`,
        );
      }
    }
    return tools;
  };
}
