/**
 * A tool's arguments parsed by its input schema, with every problem told as
 * the tool's own sentence ("Cannot call read_lines as start_line must be
 * at least 1: current value is 0"), never a schema validator's words.
 * Messages our schemas set themselves (starting "Cannot") pass unchanged.
 *
 * @module
 */

import type { z } from "zod";
import type { ToolDefinition } from "./tool.ts";

/** The longest quote of a rejected value an error shows. */
const MAX_SHOWN_LENGTH = 80;

/**
 * Parse `raw` arguments for `tool`.
 *
 * @param tool The tool.
 * @param raw The arguments as the client sent them.
 * @returns The parsed arguments, defaults filled in.
 * @throws {TypeError} One sentence per problem, each naming the argument,
 * what it must be and the value given.
 *
 * @example
 * ```ts
 * import { parseArguments } from "./arguments.ts";
 * import { TOOLS } from "./mod.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(
 *   parseArguments(TOOLS.read_lines, { id: "notes" }),
 *   { id: "notes", start_line: 1, line_count: 2000 },
 * );
 * assert.throws(
 *   () => parseArguments(TOOLS.read_lines, { id: "notes", start_line: 0 }),
 *   /^TypeError: Cannot call read_lines as start_line must be at least 1: current value is 0$/,
 * );
 * ```
 */
export function parseArguments<Input extends z.ZodRawShape>(
  tool: ToolDefinition<Input>,
  raw: unknown,
): z.output<z.ZodObject<Input>> {
  const parsed = tool.inputSchema.safeParse(raw ?? {});
  if (parsed.success) return parsed.data;
  throw new TypeError(
    parsed.error.issues.map((issue) => describeIssue(tool.name, issue, raw))
      .join("\n"),
  );
}

function describeIssue(
  tool: string,
  issue: z.core.$ZodIssue,
  raw: unknown,
): string {
  if (issue.message.startsWith("Cannot ")) return issue.message;
  const name = argumentName(issue.path);
  const value = valueAt(raw, issue.path);
  const cannot = `Cannot call ${tool} as ${name}`;
  if (value === undefined && issue.code === "invalid_type") {
    return `${cannot} is required: it is missing`;
  }
  return `${cannot} ${rule(issue)}: current value is ${show(value)}`;
}

/** What the value must be, from the issue. */
function rule(issue: z.core.$ZodIssue): string {
  switch (issue.code) {
    case "invalid_type":
      return `must be ${article(typeName(issue.expected))}`;
    case "too_small": {
      const minimum = Number(issue.minimum);
      if (issue.origin === "string") {
        return minimum === 1
          ? "must not be empty"
          : `must be at least ${minimum} characters`;
      }
      if (issue.origin === "array") {
        return `must have at least ${minimum} ${
          minimum === 1 ? "item" : "items"
        }`;
      }
      return `must be at least ${minimum}`;
    }
    case "too_big": {
      const maximum = Number(issue.maximum);
      if (issue.origin === "string") {
        return `must be at most ${maximum} characters`;
      }
      if (issue.origin === "array") return `must have at most ${maximum} items`;
      return `must be at most ${maximum}`;
    }
    case "invalid_value":
      return `must be ${issue.values.length === 1 ? "" : "one of "}${
        issue.values.map((value) => JSON.stringify(value)).join(", ")
      }`;
    case "invalid_format":
      return `must match ${issue.pattern ?? issue.format}`;
    default:
      return issue.message.replace(/^Invalid input: /, "is not accepted: ");
  }
}

function typeName(expected: string): string {
  return expected === "int" ? "integer" : expected;
}

function article(noun: string): string {
  return `${/^[aeiou]/.test(noun) ? "an" : "a"} ${noun}`;
}

function argumentName(path: readonly PropertyKey[]): string {
  if (path.length === 0) return "its arguments";
  return path.map((key, index) =>
    typeof key === "number"
      ? `[${key}]`
      : `${index === 0 ? "" : "."}${String(key)}`
  ).join("");
}

function valueAt(raw: unknown, path: readonly PropertyKey[]): unknown {
  let value = raw;
  for (const key of path) {
    if (typeof value !== "object" || value === null) return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

/** A value as JSON, cut at 80 characters. */
export function show(value: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  return text.length > MAX_SHOWN_LENGTH
    ? `${text.slice(0, MAX_SHOWN_LENGTH)}… (${text.length} characters)`
    : text;
}
