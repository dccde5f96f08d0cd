// The suggest path of the write gate: a write computed as it would be sent,
// then held in the backend's suggestion book for the people in the pad to
// accept or reject, and the result that says so. Thrown from the gate so
// that no write tool needs a branch of its own.

import { z } from "zod";
import type { SuggestionRecord } from "../backend/suggestions.ts";
import type { TextOperation } from "../ot/operation.ts";
import type { PadSession } from "../rustpad/session.ts";
import { unifiedDiff } from "../text/diff.ts";
import { nearbyHeld, type PeopleNearby } from "./_presence.ts";
import { describeChange } from "./_change_words.ts";
import type { ToolContext } from "./tool.ts";

/** The `suggest` parameter every write tool takes. */
export const suggestSchema = z.boolean().optional().describe(
  "Only propose; a person decides.",
);

/** The longest `summary`, in UTF-16 units. */
export const MAX_SUMMARY_LENGTH = 200;

/**
 * The `summary` parameter every write tool takes, with `suggest`: checked
 * (one line, not blank) in {@linkcode suggests}, where the error can say so.
 */
export const summarySchema = z.string().max(MAX_SUMMARY_LENGTH)
  .meta({ maxLength: undefined }).optional()
  .describe("One-line reason.");

/** The parameters `suggest` and `summary`, which every write tool takes. */
export const SUGGEST_SHAPE = {
  suggest: suggestSchema,
  summary: summarySchema,
};

/**
 * Whether a write call is held as a suggestion, under `RUSTPAD_SUGGEST`:
 * `never` holds none, `offer` those that pass `suggest: true`, `always`
 * every one; `suggest: false` under `always` is refused.
 *
 * @throws {Error} For `suggest: false` under `always`.
 */
export function suggests(
  context: ToolContext,
  args: {
    id?: string | undefined;
    suggest?: boolean | undefined;
    summary?: string | undefined;
  },
): boolean {
  const mode = context.config.suggest;
  const { summary } = args;
  if (
    summary !== undefined && (summary.trim() === "" || /[\r\n]/.test(summary))
  ) {
    throw new Error(
      `Cannot hold a suggestion with this summary as it must be one sentence on one line, not blank: current summary is ${
        JSON.stringify(summary)
      }. Nothing was changed; call again with one line of at most ${MAX_SUMMARY_LENGTH} characters`,
    );
  }
  if (mode === "always" && args.suggest === false) {
    throw new Error(
      `Cannot write to pad ${
        JSON.stringify(args.id ?? "")
      } directly as RUSTPAD_SUGGEST=always holds every write as a suggestion for people to accept: current suggest is false. Nothing was changed; call again without suggest`,
    );
  }
  return mode === "always" || (mode === "offer" && args.suggest === true);
}

/** A write held as a suggestion: the write tool answers `suggested`. */
export class Suggested extends Error {
  /** The suggestion as held. */
  readonly record: SuggestionRecord;
  /** The pad's length in code points when it was made. */
  readonly length: number;
  /** Who is at the lines it would change, as a write answers. */
  readonly nearby: PeopleNearby;

  /** The held suggestion, with the pad's length then and who is near. */
  constructor(
    record: SuggestionRecord,
    length: number,
    nearby: PeopleNearby,
  ) {
    super("Held as a suggestion");
    this.record = record;
    this.length = length;
    this.nearby = nearby;
  }
}

/**
 * Hold `operation`, built on `session`'s text, as a suggestion of the
 * agent of `context`, with the agent's `summary` or, without one, words
 * for the change.
 *
 * @returns The {@linkcode Suggested} for the gate to throw.
 */
export async function holdSuggestion(
  context: ToolContext,
  summary: string | undefined,
  session: PadSession,
  operation: TextOperation,
  language?: string,
): Promise<Suggested> {
  if (session.hasPendingEdits) {
    throw new Error(
      `Cannot hold a suggestion for pad "${session.padId}" as an edit of this server is still in flight there: current revision is ${session.revision}. Nothing was changed; call again`,
    );
  }
  const diff = unifiedDiff(session.textSnapshot(), operation).diff;
  // On the text it was made on, before the store's await lets people type.
  const nearby = nearbyHeld(context, session, operation);
  const record = await context.backend.suggestions.hold({
    identity: context.identity,
    agent: context.agent,
    summary: summary ?? describeChange(session.text, operation.components),
    session,
    operation,
    diff,
    ...(language !== undefined && { language }),
  });
  return new Suggested(
    record,
    session.length,
    nearby,
  );
}
