/**
 * The write tools that destroy nothing: `create_document`,
 * `append_to_document` and `set_language`.
 *
 * @module
 */

import { z } from "zod";
import { codePointLength } from "../_code_points.ts";
import { appendOperation } from "../edits.ts";
import type { TextOperation } from "../operation.ts";
import type { PadSession } from "../session.ts";
import {
  checkResultLength,
  padIdSchema,
  padUrl,
  result,
  safely,
  textSchema,
  type ToolContext,
} from "./_shared.ts";

const languageSchema = z.string()
  .regex(/^[A-Za-z0-9+#._-]{1,64}$/, {
    error:
      "Cannot use language as it breaks the rule: a Monaco language id is 1 to 64 letters, digits, '+', '#', '.', '-' or '_'",
  })
  .describe(
    "Monaco language id for the editor's highlighting, such as 'markdown', 'python', 'typescript' or 'plaintext'. 1 to 64 letters, digits, '+', '#', '.', '-' or '_'.",
  );

const appliedShape = {
  status: z.literal("applied").describe("The pad changed."),
  id: z.string().describe("The pad id."),
  url: z.string().describe("The pad's shareable editor URL."),
  revision: z.number().int().describe(
    "The pad's revision after the edit (operations in its history).",
  ),
  length: z.number().int().describe(
    "The pad's length after the edit, in code points.",
  ),
};

/** Twelve characters from lowercase letters and digits, like Rustpad's own. */
function randomPadId(): string {
  const alphabet = "abcdefghijklmnopqrstuvwxyz0123456789";
  // 252 is the largest multiple of 36 below 256: reject above it, no bias.
  let id = "";
  while (id.length < 12) {
    for (const byte of crypto.getRandomValues(new Uint8Array(16))) {
      if (byte < 252 && id.length < 12) id += alphabet[byte % 36];
    }
  }
  return id;
}

/** Builds the append of `text` to a pad, refusing a result over the limit. */
function appending(
  padId: string,
  text: string,
): (session: PadSession) => TextOperation {
  const added = codePointLength(text);
  return (session) => {
    checkResultLength(padId, session.length, session.length + added);
    return appendOperation(session.length, text);
  };
}

/** Register `create_document`. */
export function registerCreateDocument(context: ToolContext): void {
  context.server.registerTool(
    "create_document",
    {
      title: "Create a pad",
      description:
        "Create a new Rustpad pad, optionally with initial text and language, and get its shareable URL. Omit id for a random one. Fails, changing nothing, if the pad already has content: use append_to_document or set_document for an existing pad.",
      inputSchema: {
        id: padIdSchema.optional().describe(
          "Pad id to create; omit for a random 12-character id. Letters, digits, '.', '_' or '-', at most 256; not '.' or '..'.",
        ),
        text: textSchema("Initial text of the pad.").optional(),
        language: languageSchema.optional(),
      },
      outputSchema: {
        ...appliedShape,
        language: z.string().nullable().describe(
          "The pad's editor language, or null if not set.",
        ),
      },
      annotations: {
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: false,
        openWorldHint: false,
      },
    },
    safely(async ({ id = randomPadId(), text = "", language }) => {
      const session = await context.sessions.get(id);
      if (session.length > 0) {
        throw new Error(
          `Cannot create pad "${id}" as it already has content: current length is ${session.length} code points. Choose another id, or use append_to_document or set_document`,
        );
      }
      if (text !== "") await context.sessions.edit(id, appending(id, text));
      // The edit may have reconnected: ask the pool for the live session.
      const latest = await context.sessions.get(id);
      if (language !== undefined) await latest.setLanguage(language);
      const url = padUrl(context, id);
      return result(
        {
          status: "applied",
          id,
          url,
          revision: latest.revision,
          length: latest.length,
          language: latest.language,
        },
        `Created pad "${id}" at ${url} with ${
          codePointLength(text)
        } code points${
          language === undefined ? "" : ` and language ${language}`
        } (revision ${latest.revision}).`,
      );
    }),
  );
}

/** Register `append_to_document`. */
export function registerAppendToDocument(context: ToolContext): void {
  context.server.registerTool(
    "append_to_document",
    {
      title: "Append to a pad",
      description:
        "Append text verbatim at the end of a Rustpad pad, as one operation on its current revision, so whatever people type at the same moment is kept. Include your own leading newline if you want one. Creates the pad if it is empty.",
      inputSchema: {
        id: padIdSchema,
        text: textSchema("Text to append, verbatim."),
      },
      outputSchema: {
        ...appliedShape,
        note: z.string().optional().describe(
          "Set when the connection dropped and the pad's history showed the edit had landed.",
        ),
      },
      annotations: {
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: false,
        openWorldHint: false,
      },
    },
    safely(async ({ id, text }) => {
      const appended = await context.sessions.edit(id, appending(id, text));
      const url = padUrl(context, id);
      const note = appended.recovered
        ? "The connection dropped before Rustpad acknowledged the edit; the pad's history shows it landed."
        : undefined;
      return result(
        {
          status: "applied",
          id,
          url,
          revision: appended.revision,
          length: appended.length,
          ...(note && { note }),
        },
        `Appended ${
          codePointLength(text)
        } code points to pad "${id}"; it now has ${appended.length} (revision ${appended.revision}).${
          note ? ` ${note}` : ""
        }`,
      );
    }),
  );
}

/** Register `set_language`. */
export function registerSetLanguage(context: ToolContext): void {
  context.server.registerTool(
    "set_language",
    {
      title: "Set a pad's language",
      description:
        "Set the editor language (syntax highlighting) of a Rustpad pad for everyone who has it open. The text is not changed.",
      inputSchema: { id: padIdSchema, language: languageSchema },
      outputSchema: {
        status: z.literal("applied").describe("The language is set."),
        id: z.string().describe("The pad id."),
        language: z.string().describe("The pad's language now."),
      },
      annotations: {
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: true,
        openWorldHint: false,
      },
    },
    safely(async ({ id, language }) => {
      const session = await context.sessions.get(id);
      await session.setLanguage(language);
      return result(
        { status: "applied", id, language },
        `Set the language of pad "${id}" to ${language}.`,
      );
    }),
  );
}
