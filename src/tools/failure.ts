/**
 * A failed call told as one message a model can act on: the error's own
 * sentence, what to check when Rustpad could not be reached or did not
 * answer as Rustpad does (RUSTPAD_URL, or the embedded pad server), that
 * nothing was changed where that is certain, and a malformed frame's quote
 * fenced as untrusted.
 *
 * @module
 */

import type { Config } from "../config/config.ts";
import { RustpadHttpError } from "../rustpad/http_client.ts";
import {
  EditNotAcknowledgedError,
  SessionError,
} from "../rustpad/session_error.ts";
import { fenceUntrusted } from "../safety/untrusted.ts";

/**
 * The message for a tool call that failed with `error`.
 *
 * @param error What the tool threw.
 * @param config The configuration, for the Rustpad URL it names.
 * @returns One message, several sentences at most.
 *
 * @example
 * ```ts
 * import { loadConfig } from "@rustpad-mcp/server";
 * import { SessionError } from "../mod.ts";
 * import { describeFailure } from "./failure.ts";
 * import assert from "node:assert/strict";
 *
 * const config = loadConfig({ RUSTPAD_URL: "http://127.0.0.1:9" });
 * const error = new SessionError("unreachable", "Cannot reach Rustpad at ws://127.0.0.1:9/api/socket/a: refused");
 * assert.match(describeFailure(error, config), /Nothing was changed\. Check that RUSTPAD_URL/);
 * ```
 */
export function describeFailure(error: unknown, config: Config): string {
  if (!(error instanceof Error)) return String(error);
  const url = config.rustpadUrl.href;
  const check = config.embedded
    ? `Check that the embedded pad server (now ${url}) is running: restarting this MCP server starts it again`
    : `Check that RUSTPAD_URL (now ${url}) is the base URL of a running Rustpad server`;
  if (error instanceof SessionError) {
    // An edit already sent may have landed: its message says what to do.
    const sent = error instanceof EditNotAcknowledgedError && error.sent;
    if (error.kind === "unreachable" && !sent) {
      return `${error.message}. Nothing was changed. ${check}`;
    }
    if (error.kind === "malformed") {
      // The parse error quotes the frame: upstream text, so fenced.
      let cause = error.cause;
      while (cause instanceof SessionError) cause = cause.cause;
      if (cause instanceof Error) {
        return `${error.message}. ${check}, not another kind of server\n${
          fenceUntrusted(cause.message, { source: "the frame Rustpad sent" })
        }`;
      }
    }
  }
  if (error instanceof RustpadHttpError) {
    const what = error.kind === "status" || error.kind === "malformed"
      ? `${check}: it answered, but not as Rustpad does`
      : check;
    return `${error.message}. Nothing was changed. ${what}`;
  }
  return error.message;
}
