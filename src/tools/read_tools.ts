/**
 * The three read tools: `get_document` (text, whole or paged),
 * `get_document_info` (live state) and `get_stats`. `read_lines` and
 * `search_document` live in `line_tools.ts`.
 *
 * @module
 */

import { z } from "zod";
import { advanceCodePoints } from "../ot/code_points.ts";
import { pageText } from "../text/paging.ts";
import { MAX_TEXT_LENGTH } from "../rustpad/protocol.ts";
import {
  EMPTY_NOTE,
  noteField,
  READ_ANNOTATIONS,
  readPad,
  untrustedShape,
} from "./_reading.ts";
import {
  countField,
  countSchema,
  markRead,
  nullableCount,
  nullableString,
  objectSchema,
  padIdSchema,
  padUrl,
  result,
  thousands,
  untrustedResult,
} from "./_shared.ts";
import { peopleIn, peopleSchema } from "./_presence.ts";
import { defineTool, type ToolDefinition } from "./tool.ts";

/** `get_document`. */
export const getDocumentTool: ToolDefinition = defineTool({
  name: "get_document",
  title: "Read a pad's text",
  description:
    `Read a pad's text, whole or a page. For pads under 20,000 code points (unsure: page with limit); longer: read_lines or search_document. Keeps CRLF. Reads stop at ${
      thousands(MAX_TEXT_LENGTH)
    } code points.`,
  inputSchema: () =>
    objectSchema({
      id: padIdSchema,
      offset: countSchema("UTF-16 offset; next_offset reads on.")
        .optional().meta({ default: 0 }),
      limit: countSchema("Max UTF-16 units; omit: up to the cap.")
        .optional(),
    }),
  outputSchema: () =>
    objectSchema({
      id: z.string(),
      text: z.string().describe("The pad's text, or the page read."),
      empty: z.boolean(),
      truncated: z.boolean().describe(
        `The ${
          thousands(MAX_TEXT_LENGTH)
        }-code-point cap cut the read (never your limit); next_offset reads on.`,
      ),
      note: noteField,
      revision: countField,
      offset: countField.optional().describe(
        "Where the page starts (moved back out of a surrogate pair).",
      ),
      next_offset: nullableCount.optional().describe(
        "null at the end.",
      ),
      total_length: countField.optional().describe(
        "End offset for paging, in UTF-16 units (get_document_info's length counts code points).",
      ),
      ...untrustedShape,
    }),
  annotations: READ_ANNOTATIONS,
  async run({ id, offset, limit }, context) {
    const { text: whole, length, revision } = await readPad(context, id);
    const paged = offset !== undefined || limit !== undefined;
    // A read without a limit stops at Rustpad's limit (which it enforces
    // on edits, so only a restored pad can be longer); the rest is a next
    // page.
    const start = Math.min(offset ?? 0, whole.length);
    const cap = limit === undefined && length > MAX_TEXT_LENGTH
      ? advanceCodePoints(whole, start, MAX_TEXT_LENGTH)
      : whole.length;
    const truncated = cap < whole.length;
    const page = pageText(whole, offset ?? 0, truncated ? cap - start : limit);
    const empty = whole === "";
    const structured = {
      id,
      text: page.text,
      empty,
      truncated,
      ...(empty && { note: EMPTY_NOTE }),
      revision,
      ...((paged || truncated) && {
        offset: page.offset,
        next_offset: page.nextOffset,
        total_length: page.totalLength,
      }),
      untrusted: true,
      source: "rustpad",
    };
    if (empty) {
      return result(
        structured,
        `Pad "${id}" is empty at revision ${revision}. ${EMPTY_NOTE}`,
      );
    }
    const where = paged || truncated
      ? `UTF-16 units ${page.offset} to ${
        page.offset + page.text.length
      } of ${page.totalLength}${
        page.nextOffset === null ? "" : `, next_offset ${page.nextOffset}`
      }${truncated ? ", cut to Rustpad's limit" : ""}`
      : `${length} code points`;
    return untrustedResult(
      structured,
      `Pad "${id}" at revision ${revision} (${where}):`,
      page.text,
      `pad "${id}"`,
    );
  },
});

/** `get_document_info`. */
export const getDocumentInfoTool: ToolDefinition = defineTool({
  name: "get_document_info",
  title: "Inspect a pad",
  description:
    "Get a pad's live state: url, length, revision, language and who is in it, with cursors. Use it before writing near people; text: get_document.",
  inputSchema: () => objectSchema({ id: padIdSchema }),
  outputSchema: () =>
    objectSchema({
      id: z.string(),
      url: z.string(),
      length: countField,
      revision: countField,
      language: nullableString(
        "Editor language, a Rustpad menu id; null if never set.",
      ),
      users: z.array(z.string()).describe(
        "Others present, by name (the same 100 as people).",
      ),
      people: peopleSchema,
      more_people: countField.optional(),
      note: noteField,
      ...untrustedShape,
    }),
  annotations: READ_ANNOTATIONS,
  async run({ id }, context) {
    const session = await context.sessions.get(id);
    markRead(context, id);
    const { people, more } = await peopleIn(context, id);
    const users = people.map((person) => person.name);
    const present = users.length + more;
    const url = padUrl(context, id);
    const structured = {
      id,
      url,
      length: session.length,
      revision: session.revision,
      language: session.language,
      users,
      people,
      ...(more > 0 && { more_people: more }),
      ...(session.length === 0 && { note: EMPTY_NOTE }),
      untrusted: true,
      source: "rustpad",
    };
    const summary =
      `Pad "${id}" at ${url}: ${session.length} code points, revision ${session.revision}, language ${
        session.language === null ? "not set" : "in the list below"
      }, ${present} other ${present === 1 ? "person" : "people"} present${
        more > 0 ? ` (the first ${users.length} listed, ${more} more)` : ""
      }.`;
    if (session.language === null && users.length === 0) {
      return result(structured, summary);
    }
    return untrustedResult(
      structured,
      summary,
      JSON.stringify({ language: session.language, users, people }),
      `pad "${id}" (its language and the names people chose)`,
    );
  },
});

/** `get_stats`. */
export const getStatsTool: ToolDefinition = defineTool({
  name: "get_stats",
  title: "Server statistics",
  description:
    "Get the server's start time and pad counts; joins no pad. Use it to check the server is up; one pad: get_document_info.",
  inputSchema: () => objectSchema({}),
  outputSchema: () =>
    objectSchema({
      start_time: countField.describe("Unix time, seconds."),
      start_time_iso: z.string(),
      num_documents: countField.describe(
        "Pads loaded in memory now; persisted ones count in database_size too.",
      ),
      database_size: countField.describe(
        "Pads persisted, loaded or not (0 without a database).",
      ),
    }),
  annotations: READ_ANNOTATIONS,
  async run(_args, context) {
    const stats = await context.http.getStats();
    const startTimeIso = new Date(stats.start_time * 1000).toISOString();
    return result(
      { ...stats, start_time_iso: startTimeIso },
      `Rustpad at ${context.config.rustpadUrl.href} started ${startTimeIso}; pads in memory: ${stats.num_documents}, persisted: ${stats.database_size}.`,
    );
  },
});
