/**
 * The line-oriented read tools for long pads: `read_lines` (numbered lines,
 * like `cat -n`) and `search_document` (grep with context).
 *
 * @module
 */

import { z } from "zod";
import { MAX_TEXT_LENGTH } from "../rustpad/protocol.ts";
import {
  countLines,
  isCrlf,
  MAX_LINE_LENGTH,
  readLines,
} from "../text/lines.ts";
import {
  loadSearchEngine,
  type SearchMatch,
  searchText,
} from "../text/search.ts";
import { SearchQueue } from "../text/search_queue.ts";
import {
  EMPTY_NOTE,
  noteField,
  READ_ANNOTATIONS,
  readPad,
  untrustedShape,
} from "./_reading.ts";
import {
  countField,
  flagSchema,
  nullableCount,
  objectSchema,
  padIdSchema,
  result,
  thousands,
  untrustedResult,
} from "./_shared.ts";
import { defineTool, type ToolDefinition } from "./tool.ts";

/** An integer from 1, without the ±(2^53-1) bound zod adds to JSON. */
function positiveSchema(description: string): z.ZodInt {
  return z.int().min(1).meta({ maximum: undefined }).describe(description);
}

/**
 * `read_lines`'s first line: from 1, or counted back from the end when
 * negative, so the end of a long pad reads without knowing its length.
 */
const startLineSchema = z.int().check((context) => {
  if (context.value === 0) {
    context.issues.push({
      code: "custom",
      input: context.value,
      message:
        "Cannot call read_lines as start_line must not be 0: current value is 0. Lines count from 1; -1 is the last line",
    });
  }
}).meta({ minimum: undefined, maximum: undefined }).describe(
  "First line, from 1; -N: the Nth from the end (0 is refused).",
);

/** `read_lines`. */
export const readLinesTool: ToolDefinition = defineTool({
  name: "read_lines",
  title: "Read a pad's lines",
  description:
    `Read a pad's lines as 'N<TAB>line' (drop prefix); next_start_line reads on. For edit_document's line numbers and pads over 20,000 code points. Lines over ${
      thousands(MAX_LINE_LENGTH)
    } code points end '… [line cut: … offset N]' (the rest: get_document at N with a limit); CRLF shows as LF; edits match either.`,
  inputSchema: () =>
    objectSchema({
      id: padIdSchema,
      start_line: startLineSchema.default(1),
      line_count: positiveSchema("Lines to read (no maximum; page big pads).")
        .default(200),
    }),
  outputSchema: () =>
    objectSchema({
      id: z.string(),
      text: z.string().describe("The lines read, each 'N<TAB>line'."),
      start_line: countField,
      end_line: countField.describe("start_line - 1 if none."),
      total_lines: countField,
      next_start_line: nullableCount.describe(
        "Pass as start_line to read on; null at the end.",
      ),
      crlf: z.boolean().describe(
        "The pad's lines end CRLF (shown as LF here): edit_document and replace_in_document write CRLF; set_document and append_to_document write what you send (new_line: CRLF).",
      ),
      revision: countField,
      note: noteField,
      ...untrustedShape,
    }),
  annotations: READ_ANNOTATIONS,
  async run({ id, start_line, line_count }, context) {
    const { text, revision } = await readPad(context, id);
    const first = start_line > 0
      ? start_line
      : Math.max(1, countLines(text) + start_line + 1);
    const window = readLines(text, first, line_count);
    const structured = {
      id,
      text: window.text,
      start_line: window.startLine,
      end_line: window.endLine,
      total_lines: window.totalLines,
      next_start_line: window.nextStartLine,
      crlf: isCrlf(text),
      revision,
      ...(text === "" && { note: EMPTY_NOTE }),
      untrusted: true,
      source: "rustpad",
    };
    const summary = `Pad "${id}" at revision ${revision}, ${
      window.endLine < window.startLine
        ? "no lines"
        : `lines ${window.startLine} to ${window.endLine}`
    } of ${window.totalLines}${
      window.nextStartLine === null
        ? ""
        : `; next_start_line ${window.nextStartLine}`
    }`;
    if (text === "") return result(structured, `${summary}. ${EMPTY_NOTE}`);
    if (window.text === "") return result(structured, `${summary}.`);
    return untrustedResult(
      structured,
      `${summary}:`,
      window.text,
      `pad "${id}"`,
    );
  },
});

/** Every search of the process, one at a time with other calls between. */
const SEARCHES = new SearchQueue();

/** The most code points of match details one search answers with. */
const MAX_DETAIL_LENGTH = 262_144;

const matchSchema = objectSchema({
  line: countField,
  column: countField.describe("From 1, in UTF-16 units."),
  text: z.string().describe("The matched text."),
  line_text: z.string(),
  before: z.array(z.string()),
  after: z.array(z.string()),
});

/** `search_document`. */
export const searchDocumentTool: ToolDefinition = defineTool({
  name: "search_document",
  title: "Search a pad",
  description:
    `Find text in a pad, to read (read_lines) or change (replace_in_document). regex: RE2, no lookaround/backrefs, ASCII \\d \\w \\b, ^ $ per line (reads hide CRLF: write \\r?$, \\r?\\n). Matches span lines only via \\n; literal LF matches CRLF.`,
  inputSchema: () =>
    objectSchema({
      id: padIdSchema,
      pattern: z.string().min(1, {
        error:
          "Cannot call search_document as pattern is empty: give the text to find",
      }).meta({ minLength: undefined, maxLength: MAX_TEXT_LENGTH }).describe(
        "Text, or a regex with regex: true.",
      ),
      regex: flagSchema("pattern is a regex."),
      case_insensitive: flagSchema("Ignore case."),
      context_lines: z.int().min(0).max(20).default(0).describe(
        "Context lines around each match.",
      ),
      max_results: z.int().min(1).max(1000).default(100).describe(
        "Matches to list (no paging: narrow the pattern); all counted.",
      ),
    }),
  outputSchema: () =>
    objectSchema({
      id: z.string(),
      matches: z.array(matchSchema).describe(
        `The first max_results matches, fewer if their details pass ${MAX_DETAIL_LENGTH} code points.`,
      ),
      total_matches: countField,
      revision: countField,
      note: noteField,
      ...untrustedShape,
    }),
  annotations: READ_ANNOTATIONS,
  async run(args, context) {
    const { id, pattern } = args;
    const { text, revision } = await readPad(context, id);
    await loadSearchEngine();
    const found = await SEARCHES.run(() =>
      searchText(text, pattern, {
        regex: args.regex ?? false,
        caseInsensitive: args.case_insensitive ?? false,
        contextLines: args.context_lines,
        maxResults: args.max_results,
        maxCharacters: MAX_DETAIL_LENGTH,
      })
    );
    const structured = {
      id,
      matches: found.matches.map((match) => ({
        line: match.line,
        column: match.column,
        text: match.text,
        line_text: match.lineText,
        before: match.before,
        after: match.after,
      })),
      total_matches: found.totalMatches,
      revision,
      ...(text === "" && { note: EMPTY_NOTE }),
      untrusted: true,
      source: "rustpad",
    };
    const shown = found.matches.length;
    if (shown === 0) {
      return result(
        structured,
        `No match in pad "${id}" at revision ${revision}.${
          text === "" ? ` ${EMPTY_NOTE}` : ""
        }`,
      );
    }
    return untrustedResult(
      structured,
      `${found.totalMatches} ${
        found.totalMatches === 1 ? "match" : "matches"
      } in pad "${id}" at revision ${revision}${
        shown < found.totalMatches ? `, first ${shown} shown` : ""
      }${
        found.cut
          ? ` (details stop at ${MAX_DETAIL_LENGTH} code points: narrow the pattern or lower context_lines)`
          : ""
      }, as 'line:column:line text' with context lines as 'line-text':`,
      render(found.matches, args.context_lines > 0),
      `pad "${id}"`,
    );
  },
});

/** Matches grep-style: `N:C:line`, context as `N-line`, `--` between. */
function render(matches: SearchMatch[], withContext: boolean): string {
  const blocks = matches.map((match) => {
    const lines = match.before.map((line, i) =>
      `${match.line - match.before.length + i}-${line}`
    );
    lines.push(`${match.line}:${match.column}:${match.lineText}`);
    match.after.forEach((line, i) =>
      lines.push(`${match.endLine + 1 + i}-${line}`)
    );
    return lines.join("\n");
  });
  return blocks.join(withContext ? "\n--\n" : "\n");
}
