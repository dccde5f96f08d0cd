// Idempotency keys for write tools: a repeated call with the same key and
// arguments gets the first call's result, flagged `replayed`, and writes
// nothing. Keys are the identity's: in the backend's state store, shared by
// every session of the identity, and with Redis by every replica. A call
// whose replica stopped midway is settled by the pad's history.

import { z } from "zod";
import type { KeyedCall, SentEdit } from "../backend/state_store.ts";
import { fingerprint } from "../safety/idempotency.ts";
import { EditNotAcknowledgedError } from "../rustpad/session_error.ts";
import { padUrl, result } from "./_shared.ts";
import type { ToolContext, ToolResult } from "./tool.ts";

/** A retry waits this many timeouts for a first call running elsewhere. */
const WAIT_TIMEOUTS = 4;

/** 1 to 128 characters; the listed schema states the upper bound. */
export const idempotencyKeySchema = z.string().min(1).max(128)
  .meta({ minLength: undefined }).optional()
  .describe("Reuse it only to retry.");

/**
 * Run a write tool's call under its `idempotency_key`, if it has one: the
 * first call runs; a repeat with the same key and arguments (the key
 * itself aside) waits for it and gets its result with `replayed: true`; the
 * key with other arguments is refused.
 */
export async function idempotent<
  A extends { idempotency_key?: string | undefined },
>(
  context: ToolContext,
  tool: string,
  args: A,
  run: (args: A, keyed: KeyedCall | undefined) => Promise<ToolResult>,
): Promise<ToolResult> {
  const { idempotency_key: key, ...rest } = args;
  if (key === undefined) return await run(args, undefined);
  const print = await fingerprint({
    tool,
    url: context.config.rustpadUrl.href,
    args: rest,
  });
  const { value, replayed } = await context.backend.state.idempotency.run(
    context.identity,
    key,
    print,
    (keyed) => run(args, keyed),
    {
      keep,
      settle: (sent) => settle(context, sent),
      waitMs: WAIT_TIMEOUTS * context.config.timeoutMs,
    },
  );
  return replayed ? replay(value) : value;
}

/**
 * The answer for a first call whose replica stopped after sending `sent`,
 * if the pad's history shows it landed; `undefined` if it did not.
 */
async function settle(
  context: ToolContext,
  sent: SentEdit,
): Promise<ToolResult | undefined> {
  const landed = await context.sessions.landedElsewhere(sent.pad, sent);
  if (landed === undefined) return undefined;
  return result(
    {
      status: "applied",
      id: sent.pad,
      url: padUrl(context, sent.pad),
      revision: landed.revision,
      length: landed.length,
      diff: "",
    },
    `The first call's edit landed in pad "${sent.pad}" before the replica that ran it stopped; the pad is now at revision ${landed.revision}.`,
  );
}

/**
 * Only a write that happened, or may have, is remembered under its key: an
 * applied one, a suggestion held for people to decide (a retry must not
 * hold a second), or an edit sent and unanswered.
 */
function keep(
  outcome: { value: ToolResult } | { error: unknown },
): boolean {
  if ("error" in outcome) {
    const error = outcome.error;
    // Sent and unanswered: it may still land, so a retry must not send again.
    return error instanceof EditNotAcknowledgedError && error.sent &&
      error.kind !== "closed";
  }
  const { status } = outcome.value.structuredContent;
  return status === "applied" || status === "suggested";
}

function replay(first: ToolResult): ToolResult {
  return {
    structuredContent: { ...first.structuredContent, replayed: true },
    text: [
      "Replayed: this idempotency_key was used before, so nothing was written now; the first call's result follows.",
      ...first.text,
    ],
  };
}
