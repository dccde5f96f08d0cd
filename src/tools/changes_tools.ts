/**
 * `get_changes`: what changed in a pad since a revision, as stretches of
 * its current text with their authors, and who last wrote each line of a
 * range, from the backend's authorship index.
 *
 * @module
 */

import { z } from "zod";
import { LivePads } from "../backend/live_pads.ts";
import { provenance } from "../backend/provenance.ts";
import { PERSISTED_USER_ID, type UserId } from "../rustpad/protocol.ts";
import { cutLong } from "../text/lines.ts";
import { READ_ANNOTATIONS, untrustedShape } from "./_reading.ts";
import {
  countField,
  countSchema,
  markRead,
  objectSchema,
  padIdSchema,
  untrustedResult,
} from "./_shared.ts";
import { defineTool, type ToolDefinition } from "./tool.ts";

/** The most stretches one answer lists (each cut at 2,000 code points). */
const MAX_HUNKS = 200;
/** The most lines one answer attributes, as read_lines reads them. */
const MAX_LINES = 2000;

const authorSchema = objectSchema({
  name: z.string(),
  self: z.boolean().describe("You."),
});

/** `get_changes`. */
export const getChangesTool: ToolDefinition = defineTool({
  name: "get_changes",
  title: "Who wrote what",
  description:
    "List line ranges (hunks) written after since_revision, with authors and current text; deletions leave no hunk (see them: wait_for_change). start_line/end_line add lines: each line's last writer and revision, 2,000 a call. Hunks span the whole pad: at most 200, text cut at 2,000 code points (marked); past 200, page lines and keep runs with revision > since_revision.",
  inputSchema: () =>
    objectSchema({
      id: padIdSchema,
      since_revision: countSchema(
        "Changes after this revision (0: whole pad as hunks; the current one: line authors only).",
      )
        .optional().meta({ default: 0 }),
      start_line: z.int().min(1).meta({ maximum: undefined }).optional()
        .describe(
          "First line to attribute (1 if only end_line).",
        ),
      end_line: countSchema(
        "Last line to attribute; omit for the end.",
      )
        .optional(),
    }),
  outputSchema: () =>
    objectSchema({
      id: z.string(),
      revision: countField,
      since_revision: countField,
      hunks: z.array(objectSchema({
        start_line: countField,
        end_line: countField,
        authors: z.array(authorSchema),
        text: z.string().describe(
          "The hunk's lines as they are now; past 2,000 code points cut, ending '… [cut: N code points in all; read_lines shows them]'.",
        ),
      })).describe(
        "Stretches of the current text changed since since_revision.",
      ),
      more_hunks: countField.optional(),
      lines: z.array(objectSchema({
        start_line: countField,
        end_line: countField,
        author: authorSchema,
        revision: countField.describe("The revision that wrote them."),
      })).optional().describe(
        "With start_line or end_line: runs of lines sharing last writer and revision.",
      ),
      next_start_line: countField.optional().describe(
        "Attributed lines stop at 2,000: continue from here.",
      ),
      ...untrustedShape,
    }),
  annotations: READ_ANNOTATIONS,
  async run(args, context) {
    const { id } = args;
    const since = args.since_revision ?? 0;
    const wantsLines = args.start_line !== undefined ||
      args.end_line !== undefined;
    const session = await context.sessions.get(id);
    const restart = args.since_revision === undefined
      ? undefined
      : context.sessions.staleRevision(session, since);
    if (restart !== undefined) {
      throw new RangeError(
        `Cannot show changes of pad "${id}" since revision ${since} as the pad restarted at revision ${restart.revision} since that revision was read: current revision is ${session.revision}. Read the pad again and take since_revision from that read`,
      );
    }
    if (since > session.revision) {
      throw new RangeError(
        `Cannot show changes of pad "${id}" since revision ${since} as the pad is only at revision ${session.revision}: take since_revision from a recent result`,
      );
    }
    const startLine = args.start_line ?? 1;
    const endLine = Math.min(
      args.end_line ?? Number.MAX_SAFE_INTEGER,
      startLine + MAX_LINES - 1,
    );
    const found = provenance(
      session,
      since,
      wantsLines ? startLine : 1,
      wantsLines ? endLine : 0,
    );
    const nextStartLine = wantsLines && endLine < found.lineCount &&
        endLine < (args.end_line ?? Number.MAX_SAFE_INTEGER)
      ? endLine + 1
      : undefined;
    markRead(context, id);
    const live = LivePads.of(context.sessions);
    const authors = new Set<UserId>();
    for (const stretch of found.changed) {
      for (const author of stretch.writers.keys()) {
        if (author !== undefined) authors.add(author);
      }
    }
    for (const line of found.lines) {
      if (line.author !== undefined) authors.add(line.author);
    }
    await live.learnAuthors(id, [...authors]);
    const name = (author: UserId | undefined, revision: number) =>
      author === undefined
        ? { name: `before revision ${found.knownFrom}`, self: false }
        : author === PERSISTED_USER_ID
        ? { name: "restored", self: false }
        : live.describeAuthor(id, author, revision - 1, context.agent);
    const hunks = found.changed.slice(0, MAX_HUNKS).map((stretch) => ({
      start_line: stretch.startLine,
      end_line: stretch.endLine,
      authors: [...stretch.writers].map(([author, revision]) =>
        name(author, revision)
      ),
      text: cutLong(
        found.text,
        stretch.from,
        stretch.to,
        (length) => `cut: ${length} code points in all; read_lines shows them`,
        stretch.length,
      ),
    }));
    const lines = found.lines.map((line) => ({
      start_line: line.startLine,
      end_line: line.endLine,
      author: name(line.author, line.revision),
      revision: line.revision,
    }));
    const more = found.changed.length - hunks.length;
    const structured = {
      id,
      revision: found.revision,
      since_revision: since,
      hunks,
      ...(more > 0 && { more_hunks: more }),
      ...(wantsLines && { lines }),
      ...(nextStartLine !== undefined && { next_start_line: nextStartLine }),
      untrusted: true,
      source: "rustpad",
    };
    const shown = [
      ...hunks.map((hunk) =>
        `@@ lines ${hunk.start_line}-${hunk.end_line} by ${
          hunk.authors.map((author) => author.name).join(", ")
        }\n${hunk.text}`
      ),
      ...lines.map((line) =>
        `${line.start_line}-${line.end_line}: ${line.author.name}, r${line.revision}`
      ),
    ].join("\n");
    return untrustedResult(
      structured,
      `Pad "${id}" at revision ${found.revision}: ${found.changed.length} ${
        found.changed.length === 1 ? "hunk" : "hunks"
      } changed since revision ${since}${
        more > 0 ? ` (first ${hunks.length} shown)` : ""
      }${
        wantsLines
          ? `; who last wrote lines ${startLine} to ${
            Math.min(endLine, found.lineCount)
          }, as 'first-last: author, r revision'${
            nextStartLine === undefined
              ? ""
              : ` (next_start_line ${nextStartLine})`
          }`
          : ""
      }:`,
      shown,
      `pad "${id}" (its text and people's names)`,
    );
  },
});
