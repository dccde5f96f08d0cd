// The table of environment variables: one row per setting, keyed by its
// field in `Config`, in the order `--help` lists them. The type ties each
// row to its field, so a field without a row (or a parser of the wrong type)
// does not compile.
//
// Adding a variable: add the field (with its JSDoc) to `Config` in
// settings.ts, and a row here built from a parser in _parse.ts. Nothing
// else changes: loadConfig, configFromEnvironment, CONFIG_VARIABLES and
// --help all read this table. A check across several variables goes in
// loadConfig.

import {
  booleanValue,
  choiceValue,
  integerValue,
  textValue,
  toolListValue,
  urlValue,
} from "./_parse.ts";
import { EMBEDDED_VARIABLES } from "./_embedded_variables.ts";
import { HTTP_VARIABLES } from "./_http_variables.ts";
import { STATE_VARIABLES } from "./_state_variables.ts";
import { DEFAULT_MAX_OPEN_PADS } from "../rustpad/session_pool.ts";
import type { Settings, Variable } from "./settings.ts";
import { ESSENTIAL_TOOLS, READ_TOOLS, TOOL_NAMES } from "./tool_names.ts";

const DEFAULT_URL = "https://rustpad.io";
const MAX_USER_NAME_LENGTH = 64;
const MAX_TIMEOUT_MS = 3_600_000;
/** Each open pad holds a socket, so a file descriptor. */
const MAX_OPEN_PADS = 10_000;

/** Every variable, keyed by its setting, in --help order. */
export const VARIABLES: {
  readonly [K in keyof Settings]-?: Variable<Settings[K]>;
} = {
  rustpadUrl: {
    name: "RUSTPAD_URL",
    meaning:
      "Base URL of the Rustpad server: http or https, no query, fragment or credentials; a path prefix is kept. The word embedded starts the project's compatible pad server in this process instead, as --embedded does.",
    default: DEFAULT_URL,
    parse: urlValue(DEFAULT_URL),
  },
  allowTools: {
    name: "RUSTPAD_ALLOW_TOOLS",
    meaning:
      `Comma-separated tool names to register, nothing else. The word "essential" stands for ${
        ESSENTIAL_TOOLS.join(", ")
      }. Tools: ${TOOL_NAMES.join(", ")}.`,
    default: "all tools",
    parse: toolListValue(),
  },
  denyTools: {
    name: "RUSTPAD_DENY_TOOLS",
    meaning:
      'Comma-separated tool names never to register ("essential" allowed), applied after RUSTPAD_ALLOW_TOOLS.',
    default: "none",
    parse: toolListValue(),
  },
  readOnly: {
    name: "RUSTPAD_READ_ONLY",
    meaning: `true, 1 or yes (any case): register only the read tools (${
      READ_TOOLS.join(", ")
    }); false, 0 or no: no such limit.`,
    default: "false",
    parse: booleanValue(false),
  },
  elicitation: {
    name: "ELICITATION",
    meaning:
      "false, 0 or no: destructive writes are always confirmed with the two-call confirm_token path, never a dialog. The confirmation itself never goes away.",
    default: "true",
    parse: booleanValue(true),
  },
  confirm: {
    name: "RUSTPAD_CONFIRM",
    meaning:
      "Which writes ask a person first: destructive (tools annotated destructive, when they would destroy text), always (every write tool) or never (nothing asks, for unattended automation; a warning is printed at start).",
    default: "destructive",
    parse: choiceValue(["destructive", "always", "never"], "destructive"),
  },
  suggest: {
    name: "RUSTPAD_SUGGEST",
    meaning:
      "Whether writes may be held as suggestions that people in the pad accept or reject: offer (write tools take suggest: true), always (suggest is the default) or never (no suggest parameter).",
    default: "offer",
    parse: choiceValue(["offer", "always", "never"], "offer"),
  },
  suggestTtlS: {
    name: "RUSTPAD_SUGGEST_TTL",
    meaning:
      "Seconds a pending suggestion waits for a decision before it expires: an integer from 1 to 604800.",
    default: "3600",
    parse: integerValue({
      min: 1,
      max: 604_800,
      fallback: 3600,
      unit: "seconds",
    }),
  },
  requireRead: {
    name: "RUSTPAD_REQUIRE_READ",
    meaning:
      "true, 1 or yes: a write to a non-empty pad fails unless this identity (the process over stdio, a bearer token over HTTP) read the pad first (get_document, read_lines, search_document or get_document_info).",
    default: "false",
    parse: booleanValue(false),
  },
  userName: {
    name: "RUSTPAD_USER_NAME",
    meaning:
      `The name shown to the people in a pad the server writes to: 1 to ${MAX_USER_NAME_LENGTH} characters, no control characters.`,
    default: "rustpad-mcp",
    parse: textValue({
      fallback: "rustpad-mcp",
      maxLength: MAX_USER_NAME_LENGTH,
    }),
  },
  userHue: {
    name: "RUSTPAD_USER_HUE",
    meaning:
      "The colour shown to the people in a pad: an integer hue from 0 to 359.",
    default: "200",
    parse: integerValue({ min: 0, max: 359, fallback: 200 }),
  },
  timeoutMs: {
    name: "RUSTPAD_TIMEOUT_MS",
    meaning:
      `Bound on every network wait, in milliseconds: an integer from 1 to ${MAX_TIMEOUT_MS}.`,
    default: "15000",
    parse: integerValue({
      min: 1,
      max: MAX_TIMEOUT_MS,
      fallback: 15_000,
      unit: "milliseconds",
    }),
  },
  maxOpenPads: {
    name: "RUSTPAD_MAX_OPEN_PADS",
    meaning:
      `The most pads open at once, one upstream socket each: an integer from 1 to ${MAX_OPEN_PADS}. An idle pad is closed least recently used first to make room; when every open pad is held (a subscription, a wait_for_change, a call in flight), a call on another pad fails naming this variable. Over --http each identity (bearer token) may hold its fair share, the limit divided by the number of identities.`,
    default: String(DEFAULT_MAX_OPEN_PADS),
    parse: integerValue({
      min: 1,
      max: MAX_OPEN_PADS,
      fallback: DEFAULT_MAX_OPEN_PADS,
    }),
  },
  ...HTTP_VARIABLES,
  ...STATE_VARIABLES,
  ...EMBEDDED_VARIABLES,
};
