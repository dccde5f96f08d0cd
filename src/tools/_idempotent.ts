// Idempotency keys for write tools: a repeated call with the same key and
// arguments gets the first call's result, flagged `replayed`, and writes
// nothing. Keys live in one store per backend, shared by every MCP session
// of the process.

// @ts-types="@modelcontextprotocol/sdk/types"
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import type { Backend } from "../backend/backend.ts";
import { fingerprint, IdempotencyStore } from "../safety/idempotency.ts";
import { EditNotAcknowledgedError } from "../rustpad/session_error.ts";
import type { ToolContext } from "./_shared.ts";

const stores = new WeakMap<Backend, IdempotencyStore>();

/** The process's idempotency keys, shared by every MCP session of a backend. */
export function idempotencyStore(context: ToolContext): IdempotencyStore {
  let store = stores.get(context.backend);
  if (store === undefined) {
    store = new IdempotencyStore();
    stores.set(context.backend, store);
  }
  return store;
}

export const idempotencyKeySchema = z.string().min(1).max(128).optional()
  .describe(
    "Fresh unique key per change; a retry with it writes only once.",
  );

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
  run: (args: A) => Promise<CallToolResult>,
): Promise<CallToolResult> {
  const { idempotency_key: key, ...rest } = args;
  if (key === undefined) return await run(args);
  const print = await fingerprint({
    tool,
    url: context.config.rustpadUrl.href,
    args: rest,
  });
  const { value, replayed } = await idempotencyStore(context).run(
    key,
    print,
    () => run(args),
    keep,
  );
  return replayed ? replay(value) : value;
}

/** Only a write that happened, or may have, is remembered under its key. */
function keep(
  outcome: { value: CallToolResult } | { error: unknown },
): boolean {
  if ("error" in outcome) {
    const error = outcome.error;
    // Sent and unanswered: it may still land, so a retry must not send again.
    return error instanceof EditNotAcknowledgedError && error.sent &&
      error.kind !== "closed";
  }
  const status = (outcome.value.structuredContent as { status?: unknown })
    ?.status;
  return !outcome.value.isError && status === "applied";
}

function replay(first: CallToolResult): CallToolResult {
  const content = first.content.map((block, index) =>
    index === 0 && block.type === "text"
      ? {
        ...block,
        text:
          `Replayed: this idempotency_key was used before, so nothing was written now; the first call's result follows.\n${block.text}`,
      }
      : block
  );
  return {
    ...first,
    content,
    ...(first.structuredContent !== undefined && {
      structuredContent: { ...first.structuredContent, replayed: true },
    }),
  };
}
