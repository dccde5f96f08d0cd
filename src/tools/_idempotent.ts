// Idempotency keys for write tools: a repeated call with the same key and
// arguments gets the first call's result, flagged `replayed`, and writes
// nothing. Keys live in the backend's store, shared by every MCP session
// of the process.

import { z } from "zod";
import { fingerprint } from "../safety/idempotency.ts";
import { EditNotAcknowledgedError } from "../rustpad/session_error.ts";
import type { ToolContext, ToolResult } from "./tool.ts";

/** 1 to 128 characters; the bounds are in the error, not the listed schema. */
export const idempotencyKeySchema = z.string().min(1).max(128)
  .meta({ minLength: undefined, maxLength: undefined }).optional()
  .describe("Fresh unique key per change: a retry with it writes once.");

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
  run: (args: A) => Promise<ToolResult>,
): Promise<ToolResult> {
  const { idempotency_key: key, ...rest } = args;
  if (key === undefined) return await run(args);
  const print = await fingerprint({
    tool,
    url: context.config.rustpadUrl.href,
    args: rest,
  });
  const { value, replayed } = await context.backend.idempotency.run(
    key,
    print,
    () => run(args),
    keep,
  );
  return replayed ? replay(value) : value;
}

/** Only a write that happened, or may have, is remembered under its key. */
function keep(
  outcome: { value: ToolResult } | { error: unknown },
): boolean {
  if ("error" in outcome) {
    const error = outcome.error;
    // Sent and unanswered: it may still land, so a retry must not send again.
    return error instanceof EditNotAcknowledgedError && error.sent &&
      error.kind !== "closed";
  }
  return outcome.value.structuredContent.status === "applied";
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
