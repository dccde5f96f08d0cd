/**
 * The write tools that destroy nothing: `create_document`,
 * `append_to_document` and `set_language`.
 *
 * @module
 */

import { z } from "zod";
import { codePointLength } from "../ot/code_points.ts";
import type { Diff } from "../text/diff.ts";
import { isCrlf } from "../text/lines.ts";
import { appendOperation } from "../text/edits.ts";
import type { PadSession } from "../rustpad/session.ts";
import {
  checkResultLength,
  confirmTokenSchema,
  flagSchema,
  nullableString,
  objectSchema,
  padIdSchema,
  padUrl,
  result,
  textSchema,
} from "./_shared.ts";
import {
  appliedResult,
  askedShape,
  defineWriteTool,
  idempotencyKeySchema,
  notConfirmed,
  type WriteGate,
  writeOutputShape,
  writeStatus,
} from "./_write.ts";
import type { ToolContext, ToolDefinition } from "./tool.ts";
import { SessionError } from "../rustpad/session_error.ts";
import { languageSchema, menuLanguage } from "./_languages.ts";
import { suggestSchema } from "./_suggest.ts";
import { MAX_PAD_ID_LENGTH } from "../rustpad/pad_id.ts";

const ANNOTATIONS = {
  readOnlyHint: false,
  destructiveHint: false,
  idempotentHint: false,
  openWorldHint: true,
} as const;

// Not idempotent: with suggest: true, each call holds another suggestion.
const LANGUAGE_ANNOTATIONS = ANNOTATIONS;

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

/**
 * Append `text` through the gate, refusing a result over the limit; the
 * diff of what it did is left in `diff`. With `newLine`, a line break (CRLF
 * in a CRLF pad) goes first when the pad at that moment is not empty and
 * does not end with one (`newLineAdded` says whether it did).
 */
async function append(
  gate: WriteGate,
  padId: string,
  text: string,
  newLine = false,
): Promise<
  {
    revision: number;
    length: number;
    recovered: boolean;
    diff: Diff;
    newLineAdded: boolean;
  }
> {
  let newLineAdded = false;
  const written = await gate.edit(padId, (session: PadSession) => {
    // Read in lines, not the joined text, which a long pad makes dear: the
    // last line is empty when the pad ends with a break, and the first,
    // with its break, tells a CRLF pad, which gets no bare LF.
    const lines = session.textSnapshot();
    const end = session.length;
    newLineAdded = newLine && text !== "" && end > 0 &&
      lines.window(end, end, 0).text !== "";
    const added = newLineAdded
      ? `${isCrlf(lines.window(0, 0, 0).text) ? "\r\n" : "\n"}${text}`
      : text;
    checkResultLength(
      padId,
      session.length,
      session.length + codePointLength(added),
    );
    return appendOperation(session.length, added);
  });
  const { revision, length, recovered, diff } = written;
  return { revision, length, recovered, diff, newLineAdded };
}

/**
 * Set pad `padId`'s language on `session`; if that connection closed before
 * the echo (its pad server went away), once more on the pool's new one:
 * setting a language twice changes nothing. The session that set it.
 */
async function setLanguage(
  context: ToolContext,
  padId: string,
  session: PadSession,
  language: string,
): Promise<PadSession> {
  try {
    await session.setLanguage(language);
    return session;
  } catch (error) {
    if (!(error instanceof SessionError) || error.kind !== "closed") {
      throw error;
    }
    const fresh = await context.sessions.get(padId);
    await fresh.setLanguage(language);
    return fresh;
  }
}

/** Ask first under RUSTPAD_CONFIRM=always; these tools destroy nothing. */
function askFirst(
  gate: WriteGate,
  session: PadSession,
  binding: Record<string, unknown>,
  message: string,
  token: string | undefined,
) {
  return gate.confirm(
    {
      padId: session.padId,
      binding,
      content: () => "",
      revision: session.revision,
      message,
    },
    token,
    false,
  );
}

/** `create_document`. */
export const createDocumentTool: ToolDefinition = defineWriteTool({
  name: "create_document",
  title: "Create a pad",
  description:
    "Create a pad; anyone with its url can edit it. An id whose pad has text fails (empty ones count as new); existing pads: set_document or edit_document. Idle pads may expire in a day.",
  inputSchema: () =>
    objectSchema({
      id: padIdSchema.meta({
        maxLength: MAX_PAD_ID_LENGTH,
        pattern: "^[A-Za-z0-9._-]+$",
      }).optional()
        .describe("Pad id to create; omit for random."),
      text: textSchema("Initial text; omit: empty.").optional(),
      language: languageSchema.optional(),
      confirm_token: confirmTokenSchema,
      idempotency_key: idempotencyKeySchema,
      suggest: suggestSchema.describe(
        "Only propose; whoever opens the pad decides.",
      ),
    }),
  outputSchema: () =>
    objectSchema({
      ...writeOutputShape,
      // A create always writes: never "unchanged".
      status: writeStatus(),
      language: nullableString(
        "Editor language, a Rustpad menu id; null if never set.",
      ).optional(),
    }),
  annotations: ANNOTATIONS,
  async write(args, gate, context) {
    const { id = randomPadId(), text = "", confirm_token } = args;
    const language = args.language === undefined
      ? undefined
      : menuLanguage(args.language)!;
    const session = await context.sessions.get(id);
    if (session.length > 0) {
      throw new Error(
        `Cannot create pad "${id}" as it already has content: current length is ${session.length} code points. Choose another id, or use append_to_document or set_document`,
      );
    }
    if (gate.suggests && text !== "" && language !== undefined) {
      throw new Error(
        `Cannot suggest pad "${id}" with both text and a language as one suggestion holds one change: suggest the text now, and the language with set_language and suggest: true`,
      );
    }
    const outcome = await askFirst(
      gate,
      session,
      { id, text, language },
      `Create pad "${id}" with ${codePointLength(text)} code points?`,
      confirm_token,
    );
    if (outcome.status !== "confirmed") return notConfirmed(id, outcome);
    let diff: Diff = { diff: "", truncated: false };
    if (text !== "") ({ diff } = await append(gate, id, text));
    // The edit may have reconnected: ask the pool for the live session.
    let latest = await context.sessions.get(id);
    if (language !== undefined) {
      // Held as a suggestion (it throws) when the call suggests.
      await gate.holdLanguage(id, language);
      latest = await setLanguage(context, id, latest, language);
    }
    const url = padUrl(context, id);
    return appliedResult(
      context,
      id,
      latest,
      `Created pad "${id}" at ${url} with ${codePointLength(text)} code points${
        language === undefined ? "" : ` and language ${language}`
      } (revision ${latest.revision}).`,
      diff,
      {
        language: latest.language,
      },
    );
  },
});

/** `append_to_document`. */
export const appendToDocumentTool: ToolDefinition = defineWriteTool({
  name: "append_to_document",
  title: "Append to a pad",
  description:
    "Append text verbatim (LF stays LF) at a pad's end. To change existing text: edit_document; a new pad: create_document.",
  inputSchema: () =>
    objectSchema({
      id: padIdSchema,
      text: textSchema("Text to append."),
      new_line: flagSchema(
        "Add a line break first (CRLF in CRLF pads) unless the pad is empty or ends with one.",
      ).meta({ default: false }),
      confirm_token: confirmTokenSchema,
      idempotency_key: idempotencyKeySchema,
    }),
  outputSchema: () =>
    objectSchema({
      ...writeOutputShape,
      new_line_added: z.boolean().optional(),
      note: z.string().optional().describe(
        "With status 'applied': a dropped connection hid the acknowledgement, and the pad's history shows the edit landed.",
      ),
    }),
  annotations: ANNOTATIONS,
  async write({ id, text, new_line, confirm_token }, gate, context) {
    if (gate.asks(false)) {
      const session = await context.sessions.get(id);
      const outcome = await askFirst(
        gate,
        session,
        { id, text, new_line },
        `Append ${
          codePointLength(text)
        } code points to pad "${id}" (${session.length} code points now)?`,
        confirm_token,
      );
      if (outcome.status !== "confirmed") return notConfirmed(id, outcome);
    }
    const appended = await append(gate, id, text, new_line);
    const note = appended.recovered
      ? "The connection dropped before Rustpad acknowledged the edit; the pad's history shows it landed."
      : undefined;
    return appliedResult(
      context,
      id,
      appended,
      `Appended ${codePointLength(text)} code points${
        appended.newLineAdded ? " on a new line" : ""
      } to pad "${id}"; it now has ${appended.length} (revision ${appended.revision}).${
        note ? ` ${note}` : ""
      }`,
      appended.diff,
      {
        ...(new_line === true && { new_line_added: appended.newLineAdded }),
        ...(note && { note }),
      },
    );
  },
});

/** `set_language`. */
export const setLanguageTool: ToolDefinition = defineWriteTool({
  name: "set_language",
  title: "Set a pad's language",
  description:
    "Set a pad's editor language (syntax highlighting) for everyone in it. Revert: previous_language, not undo_last_edit.",
  inputSchema: () =>
    objectSchema({
      id: padIdSchema,
      language: languageSchema,
      confirm_token: confirmTokenSchema,
    }),
  outputSchema: () =>
    objectSchema({
      status: writeStatus("unchanged"),
      id: z.string(),
      language: z.string().optional(),
      previous_language: nullableString(
        "The language before this call: pass it back to revert; null if never set (a language cannot be unset).",
      ).optional(),
      new_pad: writeOutputShape.new_pad,
      // What a held language answers with (status 'suggested').
      suggestion_id: writeOutputShape.suggestion_id,
      url: writeOutputShape.url,
      revision: writeOutputShape.revision,
      diff: z.string().optional().describe(
        "Empty: a language changes no text.",
      ),
      confirm_token: askedShape.confirm_token,
      expires_in_seconds: askedShape.expires_in_seconds,
      message: askedShape.message,
    }),
  annotations: LANGUAGE_ANNOTATIONS,
  async write({ id, confirm_token, ...args }, gate, context) {
    const language = menuLanguage(args.language)!;
    const session = await context.sessions.get(id);
    if (session.language === language) {
      return result(
        { status: "unchanged", id, language },
        `Nothing to change in pad "${id}" as its language is already ${language}: nothing was sent.`,
      );
    }
    const outcome = await askFirst(
      gate,
      session,
      { id, language },
      `Set the language of pad "${id}" to ${language}?`,
      confirm_token,
    );
    if (outcome.status !== "confirmed") return notConfirmed(id, outcome);
    await gate.holdLanguage(id, language);
    const previous = session.language;
    await setLanguage(context, id, session, language);
    return result(
      { status: "applied", id, language, previous_language: previous },
      `Set the language of pad "${id}" to ${language}.`,
    );
  },
});
