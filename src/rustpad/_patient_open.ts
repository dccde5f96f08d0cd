// Reaching a pad server while it is being started again: a refused
// connection (a pad's socket, or an HTTP GET) is tried again each time
// `upstreamBack` says the server is back (see
// `SessionPoolOptions.upstreamBack`), a few times at most, so a call made in
// the seconds a killed pad server takes to return lands instead of failing.
// A refused connection sent nothing, so trying again cannot write twice.

import { SessionError } from "./session_error.ts";

/** Refusals tried again at most, however often the server says it is back. */
const MAX_TRIES = 5;

/** Whether opening a pad's socket failed before anything was sent. */
function sessionRefused(error: unknown): boolean {
  return error instanceof SessionError && error.kind === "unreachable";
}

/**
 * `open()`, tried again after each failure `refused` names while `back()`
 * says the server is back.
 */
export async function openPatiently<T>(
  open: () => Promise<T>,
  back: (() => Promise<boolean>) | undefined,
  refused: (error: unknown) => boolean = sessionRefused,
): Promise<T> {
  for (let tries = 1;; tries++) {
    try {
      return await open();
    } catch (error) {
      if (!refused(error) || back === undefined || tries >= MAX_TRIES) {
        throw error;
      }
      if (!await back()) throw error;
    }
  }
}
