// What the text-reading tools (get_document, read_lines, search_document)
// share: their annotations, the untrusted marker fields, and one read of a
// pad's text together with the revision it is at.

import { z } from "zod";
import { markRead } from "./_shared.ts";
import type { ToolContext } from "./tool.ts";

export const READ_ANNOTATIONS = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: true,
} as const;

/**
 * What a read of an empty pad says, in its `note` and its text: the id may
 * be mistyped or expired.
 */
export const EMPTY_NOTE =
  "Rustpad answers the same for an empty pad, a pad that never existed and a pad that expired: they cannot be told apart. Check the id.";

/** The `note` field of a read result. */
export const noteField = z.string().optional().describe(
  "Set when the pad is empty: the id may be mistyped or expired.",
);

/** The marker on every result that quotes pad text (its values say it all). */
export const untrustedShape = {
  untrusted: z.literal(true),
  source: z.literal("rustpad"),
};

/** A pad's text and the revision it is at, read from one state. */
export interface PadRead {
  text: string;
  /** The text's length in code points. */
  length: number;
  revision: number;
}

/**
 * Read pad `padId` through its live session (joining it if needed): the
 * server's text at the session's revision, without our own edits still
 * waiting for their acknowledgement, so text and revision always agree.
 * Marks the pad read for `RUSTPAD_REQUIRE_READ`.
 */
export async function readPad(
  context: ToolContext,
  padId: string,
): Promise<PadRead> {
  const session = await context.sessions.get(padId);
  // Both in one synchronous step: no message can land in between.
  const read = {
    text: session.serverText,
    length: session.serverLength,
    revision: session.revision,
  };
  markRead(context, padId);
  return read;
}
