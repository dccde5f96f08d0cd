// One line of stdio from an outgoing message: its JSON and a newline, as
// UTF-8. A tool result carries a read's text twice, in `structuredContent`
// and inside its text block (clients differ in which one the model sees:
// Claude Code and VS Code read the structured one, Cursor the text block),
// so on a 200,000-code-point pad most of the time of sending went into
// escaping and encoding the same text a second time. Here a long string of
// `structuredContent` that a text block also holds is escaped and encoded
// once and copied into both places; every other message is
// JSON.stringify's, byte for byte.

// @ts-types="@modelcontextprotocol/server"
import type { JSONRPCMessage } from "@modelcontextprotocol/server";
import { concatBytes } from "../http/bytes.ts";

/** Strings shorter than this are escaped twice: it costs less than a search. */
const SHARED_TEXT_MIN = 8192;
/** Text longer than this (in UTF-16 units) takes the encodeInto path. */
const LONG_TEXT = 65536;

const encoder = new TextEncoder();

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * `value` as JSON without the keys `omit` and without its closing brace,
 * ready for one more field: `{"a":1,` or `{`.
 */
function openObject(value: Json, ...omit: string[]): string {
  const rest = { ...value };
  for (const key of omit) delete rest[key];
  const json = JSON.stringify(rest);
  return json === "{}" ? "{" : `${json.slice(0, -1)},`;
}

/**
 * A message's line in three pieces around two copies of one escaped
 * string (without its quotes), or undefined if it has no text held twice.
 */
function splitLine(
  message: JSONRPCMessage,
): { pieces: [string, string, string]; shared: string } | undefined {
  const result = (message as { result?: unknown }).result;
  if (!isObject(result)) return undefined;
  const { content, structuredContent } = result;
  if (!Array.isArray(content) || !isObject(structuredContent)) return undefined;
  const key = Object.keys(structuredContent).find((name) => {
    const value = structuredContent[name];
    return typeof value === "string" && value.length >= SHARED_TEXT_MIN;
  });
  if (key === undefined) return undefined;
  const text = structuredContent[key] as string;
  let at = -1;
  const index = content.findIndex((block) => {
    if (!isObject(block) || typeof block.text !== "string") return false;
    at = block.text.indexOf(text);
    return at !== -1;
  });
  if (index === -1) return undefined;
  const block = content[index] as Json & { text: string };
  const before = content.slice(0, index).map((item) =>
    `${JSON.stringify(item)},`
  );
  const after = content.slice(index + 1).map((item) =>
    `,${JSON.stringify(item)}`
  );
  // Escaping is per character, so the escapes of the parts, joined, are
  // the escape of the whole (a surrogate pair split between two parts
  // comes out as two \u escapes, which a JSON reader joins again).
  const prefix = JSON.stringify(block.text.slice(0, at)).slice(0, -1);
  const suffix = JSON.stringify(block.text.slice(at + text.length)).slice(1);
  return {
    shared: JSON.stringify(text).slice(1, -1),
    pieces: [
      `${openObject(message as Json, "result")}"result":${
        openObject(result, "content", "structuredContent")
      }"content":[${before.join("")}${
        openObject(block, "text")
      }"text":${prefix}`,
      `${suffix}}${after.join("")}],"structuredContent":${
        openObject(structuredContent, key)
      }${JSON.stringify(key)}:"`,
      `"}}}\n`,
    ],
  };
}

/**
 * The UTF-8 bytes of `message`'s JSON and a newline: one line of stdio,
 * equal in value to `JSON.stringify(message)`. A tool result's text held
 * twice is escaped and encoded once, and copied.
 */
export function messageLine(message: JSONRPCMessage): Uint8Array {
  const split = splitLine(message);
  if (split === undefined) return utf8(`${JSON.stringify(message)}\n`);
  const shared = utf8(split.shared);
  const [first, second, third] = split.pieces.map((piece) => utf8(piece));
  return concatBytes([first!, shared, second!, shared, third!]);
}

/**
 * The UTF-8 bytes of `text`. A long one is encoded into a buffer of its
 * largest size at once, which takes half the time of `encode` on text with
 * characters outside ASCII.
 */
function utf8(text: string): Uint8Array {
  if (text.length < LONG_TEXT) return encoder.encode(text);
  const bytes = new Uint8Array(text.length * 3);
  const { written } = encoder.encodeInto(text, bytes);
  return bytes.subarray(0, written);
}
