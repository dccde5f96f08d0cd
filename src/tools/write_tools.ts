/**
 * The write tools that destroy nothing: `create_document`,
 * `append_to_document` and `set_language`.
 *
 * @module
 */

import { z } from "zod";
import { codePointLength } from "../ot/code_points.ts";
import type { Diff } from "../text/diff.ts";
import { appendOperation } from "../text/edits.ts";
import type { PadSession } from "../rustpad/session.ts";
import {
  checkResultLength,
  confirmTokenSchema,
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
import type { ToolDefinition } from "./tool.ts";

const LANGUAGE_PATTERN = /^[A-Za-z0-9+#._-]{1,64}$/;

/** A Monaco language id; the rule is in the error, not the listed schema. */
const languageSchema = z.string().check((context) => {
  if (!LANGUAGE_PATTERN.test(context.value)) {
    context.issues.push({
      code: "custom",
      input: context.value,
      message: `Cannot use language ${
        JSON.stringify(context.value.slice(0, 80))
      } as it breaks the rule: a Monaco language id is 1 to 64 ASCII letters, digits, '+', '#', '.', '-' or '_', such as "markdown"`,
    });
  }
}).describe("Monaco language id, such as 'markdown' or 'python'.");

const ANNOTATIONS = {
  readOnlyHint: false,
  destructiveHint: false,
  idempotentHint: false,
  openWorldHint: false,
} as const;

const LANGUAGE_ANNOTATIONS = { ...ANNOTATIONS, idempotentHint: true };

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
 * diff of what it did is left in `diff`.
 */
async function append(
  gate: WriteGate,
  padId: string,
  text: string,
): Promise<
  { revision: number; length: number; recovered: boolean; diff: Diff }
> {
  const added = codePointLength(text);
  const written = await gate.edit(padId, (session: PadSession) => {
    checkResultLength(padId, session.length, session.length + added);
    return appendOperation(session.length, text);
  });
  const { revision, length, recovered, diff } = written;
  return { revision, length, recovered, diff };
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
      content: "",
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
    "Create a pad, optionally with text and language, and return its url; omit id for a random one. Fails if the pad already has text (an empty pad counts as new), so a taken id is caught; to add, use append_to_document or edit_document.",
  inputSchema: objectSchema({
    id: padIdSchema.optional().describe(
      "Pad id to create; omit for a random one.",
    ),
    text: textSchema("Initial text of the pad.").optional(),
    language: languageSchema.optional(),
    confirm_token: confirmTokenSchema,
    idempotency_key: idempotencyKeySchema,
  }),
  outputSchema: objectSchema({
    ...writeOutputShape,
    language: z.string().nullable().optional(),
  }),
  annotations: ANNOTATIONS,
  async write(args, gate, context) {
    const { id = randomPadId(), text = "", language, confirm_token } = args;
    const session = await context.sessions.get(id);
    if (session.length > 0) {
      throw new Error(
        `Cannot create pad "${id}" as it already has content: current length is ${session.length} code points. Choose another id, or use append_to_document or set_document`,
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
    const latest = await context.sessions.get(id);
    if (language !== undefined) await latest.setLanguage(language);
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
    "Append text verbatim at the end of a pad; add your own leading newline. edit_document changes existing text. A mistyped id makes a new pad: start pads with create_document. Empty text sends nothing ('unchanged').",
  inputSchema: objectSchema({
    id: padIdSchema,
    text: textSchema("Text to append, verbatim."),
    confirm_token: confirmTokenSchema,
    idempotency_key: idempotencyKeySchema,
  }),
  outputSchema: objectSchema({
    ...writeOutputShape,
    note: z.string().optional().describe(
      "Set when a dropped connection hid the acknowledgement.",
    ),
  }),
  annotations: ANNOTATIONS,
  async write({ id, text, confirm_token }, gate, context) {
    if (gate.asks(false)) {
      const session = await context.sessions.get(id);
      const outcome = await askFirst(
        gate,
        session,
        { id, text },
        `Append ${
          codePointLength(text)
        } code points to pad "${id}" (${session.length} code points now)?`,
        confirm_token,
      );
      if (outcome.status !== "confirmed") return notConfirmed(id, outcome);
    }
    const appended = await append(gate, id, text);
    const note = appended.recovered
      ? "The connection dropped before Rustpad acknowledged the edit; the pad's history shows it landed."
      : undefined;
    return appliedResult(
      context,
      id,
      appended,
      `Appended ${
        codePointLength(text)
      } code points to pad "${id}"; it now has ${appended.length} (revision ${appended.revision}).${
        note ? ` ${note}` : ""
      }`,
      appended.diff,
      {
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
    "Set a pad's editor language (syntax highlighting) for everyone; the text stays, the last writer wins. For a new pad pass language to create_document. An unknown id becomes an empty pad with this language.",
  inputSchema: objectSchema({
    id: padIdSchema,
    language: languageSchema,
    confirm_token: confirmTokenSchema,
  }),
  outputSchema: objectSchema({
    status: writeStatus(),
    id: z.string(),
    language: z.string().optional(),
    ...askedShape,
  }),
  annotations: LANGUAGE_ANNOTATIONS,
  // A language is no text change a person could review in place.
  suggests: false,
  async write({ id, language, confirm_token }, gate, context) {
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
    await session.setLanguage(language);
    return result(
      { status: "applied", id, language },
      `Set the language of pad "${id}" to ${language}.`,
    );
  },
});
