/**
 * A tool's arguments parsed by its input schema, with every problem told as
 * the tool's own sentence ("Cannot call read_lines as line_count must be
 * at least 1: current value is 0"), never a schema validator's words.
 * Messages our schemas set themselves (starting "Cannot") pass unchanged.
 * An argument the tool does not take is refused, naming the ones it takes:
 * a mistyped `dry_run` must not let a write go ahead.
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
 * what it must be and the value given; an unknown argument is named with
 * the ones the tool takes.
 *
 * @example
 * ```ts
 * import { parseArguments } from "./arguments.ts";
 * import { TOOLS } from "./mod.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(
 *   parseArguments(TOOLS.read_lines, { id: "notes" }),
 *   { id: "notes", start_line: 1, line_count: 200 },
 * );
 * assert.throws(
 *   () => parseArguments(TOOLS.read_lines, { id: "notes", line_count: 0 }),
 *   /^TypeError: Cannot call read_lines as line_count must be at least 1: current value is 0$/,
 * );
 * ```
 */
export function parseArguments<Input extends z.ZodRawShape>(
  tool: ToolDefinition<Input>,
  raw: unknown,
): z.output<z.ZodObject<Input>> {
  const parsed = strict(tool.inputSchema).safeParse(raw ?? {});
  if (parsed.success) return parsed.data;
  throw new TypeError(
    parsed.error.issues.map((issue) => describeIssue(tool, issue, raw))
      .join("\n"),
  );
}

/** Each input schema with unknown keys refused, made once. */
const STRICT = new WeakMap<z.ZodObject, z.ZodObject>();

function strict<Input extends z.ZodRawShape>(
  schema: z.ZodObject<Input>,
): z.ZodObject<Input> {
  let made = STRICT.get(schema);
  if (made === undefined) STRICT.set(schema, made = schema.strict());
  return made as z.ZodObject<Input>;
}

function describeIssue(
  tool: ToolDefinition,
  issue: z.core.$ZodIssue,
  raw: unknown,
): string {
  if (issue.message.startsWith("Cannot ")) return issue.message;
  if (issue.code === "unrecognized_keys") return unknownKeys(tool, issue);
  const name = argumentName(issue.path);
  const value = valueAt(raw, issue.path);
  const cannot = `Cannot call ${tool.name} as ${name}`;
  if (value === undefined && issue.code === "invalid_type") {
    return `${cannot} is required: it is missing`;
  }
  return `${cannot} ${rule(issue)}: current value is ${show(value)}`;
}

/**
 * The refusal of arguments a tool (or an object inside its arguments) does
 * not take, naming what it takes and, for a near miss, the intended name.
 */
function unknownKeys(
  tool: ToolDefinition,
  issue: z.core.$ZodIssueUnrecognizedKeys,
): string {
  const taken = keysAt(tool.inputSchema, issue.path);
  const named = issue.keys.map((key) => {
    const near = taken.find((name) => closeTo(key, name));
    return `${JSON.stringify(key)}${
      near === undefined ? "" : ` (did you mean ${near}?)`
    }`;
  });
  const plural = issue.keys.length > 1;
  if (issue.path.length === 0) {
    return `Cannot call ${tool.name} as it takes no ${
      plural ? "arguments" : "argument"
    } ${named.join(", ")}: it takes ${taken.join(", ")}. Nothing was sent`;
  }
  return `Cannot call ${tool.name} as ${argumentName(issue.path)} has no ${
    plural ? "keys" : "key"
  } ${named.join(", ")}: its keys are ${taken.join(", ")}. Nothing was sent`;
}

/** What a schema's definition holds, for walking it. */
interface Walked {
  innerType?: z.core.$ZodType;
  element?: z.core.$ZodType;
  shape?: Record<string, z.core.$ZodType>;
}

/** The keys of the object schema at `path` inside `schema`. */
function keysAt(
  schema: z.core.$ZodType,
  path: readonly PropertyKey[],
): string[] {
  let at = unwrap(schema);
  for (const key of path) {
    const def = at._zod.def as Walked;
    const next = typeof key === "number"
      ? def.element
      : def.shape?.[String(key)];
    if (next === undefined) return [];
    at = unwrap(next);
  }
  return Object.keys((at._zod.def as Walked).shape ?? {});
}

/** `schema` without its optional and default wrappers. */
function unwrap(schema: z.core.$ZodType): z.core.$ZodType {
  let at = schema;
  for (
    let inner = (at._zod.def as Walked).innerType;
    inner !== undefined;
    inner = (at._zod.def as Walked).innerType
  ) at = inner;
  return at;
}

/**
 * Whether `typed` is `name` spelt another way (case, `_` or `-`) or one
 * slip from it (a letter missed, added, changed or two swapped).
 */
function closeTo(typed: string, name: string): boolean {
  const plain = (key: string) => key.toLowerCase().replace(/[_-]/g, "");
  if (plain(typed) === plain(name)) return true;
  if (Math.abs(typed.length - name.length) > 1) return false;
  let start = 0;
  while (start < typed.length && typed[start] === name[start]) start++;
  let a = typed.length;
  let b = name.length;
  while (a > start && b > start && typed[a - 1] === name[b - 1]) {
    a--;
    b--;
  }
  const left = typed.slice(start, a);
  const right = name.slice(start, b);
  return (left.length <= 1 && right.length <= 1) ||
    (left.length === 2 && left === [...right].reverse().join(""));
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
