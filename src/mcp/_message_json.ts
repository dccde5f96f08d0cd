// One line of stdio from an outgoing message: its JSON and a newline, as
// UTF-8. A tool result carries a read's text twice, in `structuredContent`
// and inside its text block (clients differ in which one the model sees:
// Claude Code and VS Code read the structured one, Cursor the text block),
// so on a 200,000-code-point pad most of the time of sending went into
// escaping and encoding the same text a second time. Here a long string of
// `structuredContent` that a text block also holds is escaped and encoded
// once (as bytes, _json_string_bytes.ts) and copied into both places; every
// other message is JSON.stringify's, byte for byte.

// @ts-types="@modelcontextprotocol/server"
import type { JSONRPCMessage } from "@modelcontextprotocol/server";
import { JsonStringBytes } from "./_json_string_bytes.ts";
import {
  type BlockEnds,
  SHARED_TEXT_MIN,
  takeBlockEnds,
} from "./_shared_texts.ts";

/** Lines longer than this (in UTF-16 units) are encoded into a kept buffer. */
const LONG_LINE = 65536;
/**
 * The largest buffer kept between lines: room for the longest read a tool
 * gives (Rustpad's 262,144 code points, twice, in UTF-8), not more.
 */
const MAX_SPARE = 4 * 1024 * 1024;

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
 * Where `text` sits in `content`: the index of the text block holding it,
 * and what that block holds before and after it. The adapter's note for
 * the answer to request `id`, when there is one, saves reading the block,
 * which may still be its parts: a search would copy them into one string.
 */
function findShared(
  id: unknown,
  content: unknown[],
  text: string,
): { index: number; ends: BlockEnds } | undefined {
  const blocks = content.flatMap((block, index) =>
    isObject(block) && typeof block.text === "string"
      ? [{ index, text: block.text }]
      : []
  );
  if (typeof id === "string" || typeof id === "number") {
    const length = blocks.length === 1 ? blocks[0]!.text.length : -1;
    const ends = takeBlockEnds(id, text, length);
    if (ends !== undefined) return { index: blocks[0]!.index, ends };
  }
  for (const block of blocks) {
    const at = block.text.indexOf(text);
    if (at === -1) continue;
    const before = block.text.slice(0, at);
    const after = block.text.slice(at + text.length);
    return { index: block.index, ends: { before, after } };
  }
  return undefined;
}

/**
 * A message's line in three pieces around two copies of one string
 * (escaped, without its quotes), or undefined if it has no text held twice.
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
  const found = findShared((message as { id?: unknown }).id, content, text);
  if (found === undefined) return undefined;
  const { index, ends } = found;
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
  const prefix = JSON.stringify(ends.before).slice(0, -1);
  const suffix = JSON.stringify(ends.after).slice(1);
  return {
    shared: text,
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
 * Messages as lines of stdio: each one's JSON and a newline in UTF-8, equal
 * in value to `JSON.stringify(message)`. A tool result's text held
 * twice is escaped and encoded once, and copied. A long line is encoded
 * into a buffer kept from the last long line: a fresh buffer of a
 * megabyte for every read of a big pad cost as much as the encoding (the
 * allocator's pages, from time to time three times as much), so the
 * buffer is lent out, and taken back once the line is written.
 */
export class LineEncoder {
  #spare: Uint8Array | undefined;
  readonly #strings = new JsonStringBytes(MAX_SPARE);

  /**
   * Encode `message` and hand its bytes to `write`, which must be done
   * with them when its promise settles.
   */
  async write(
    message: JSONRPCMessage,
    write: (bytes: Uint8Array) => Promise<void>,
  ): Promise<void> {
    const split = splitLine(message);
    if (split === undefined) {
      const line = `${JSON.stringify(message)}\n`;
      if (line.length < LONG_LINE) {
        await write(encoder.encode(line));
        return;
      }
      // At most 3 UTF-8 bytes for each UTF-16 unit.
      const buffer = this.#borrow(3 * line.length);
      try {
        await write(
          buffer.subarray(0, encoder.encodeInto(line, buffer).written),
        );
      } finally {
        this.#giveBack(buffer);
      }
      return;
    }
    const shared = this.#strings.of(split.shared);
    const [first, second, third] = split.pieces;
    const units = first.length + second.length + third.length;
    const buffer = this.#borrow(3 * units + 2 * shared.length);
    try {
      let at = encoder.encodeInto(first, buffer).written;
      buffer.set(shared, at);
      at += shared.length;
      at += encoder.encodeInto(second, buffer.subarray(at)).written;
      buffer.set(shared, at);
      at += shared.length;
      at += encoder.encodeInto(third, buffer.subarray(at)).written;
      await write(buffer.subarray(0, at));
    } finally {
      this.#giveBack(buffer);
    }
  }

  #giveBack(buffer: Uint8Array): void {
    if (buffer.length <= MAX_SPARE) this.#spare = buffer;
  }

  /** The spare buffer if it holds `size` bytes, else a new one. */
  #borrow(size: number): Uint8Array {
    const spare = this.#spare;
    if (spare !== undefined && spare.length >= size) {
      // Lent out: a line written meanwhile gets a buffer of its own.
      this.#spare = undefined;
      return spare;
    }
    return new Uint8Array(size);
  }
}
