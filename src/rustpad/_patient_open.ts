// Opening a pad while its server is being started again: a refused
// connection is tried again each time `upstreamBack` says the server is
// back (see `SessionPoolOptions.upstreamBack`), a few times at most, so a
// call made in the seconds a killed pad server takes to return lands
// instead of failing. A refused connection sent nothing, so trying again
// cannot write twice.

import { SessionError } from "./session_error.ts";

/** Refusals tried again at most, however often the server says it is back. */
const MAX_TRIES = 5;

/** `open()`, tried again after each refusal while `back()` says so. */
export async function openPatiently<T>(
  open: () => Promise<T>,
  back: (() => Promise<boolean>) | undefined,
): Promise<T> {
  for (let tries = 1;; tries++) {
    try {
      return await open();
    } catch (error) {
      const refused = error instanceof SessionError &&
        error.kind === "unreachable";
      if (!refused || back === undefined || tries >= MAX_TRIES) throw error;
      if (!await back()) throw error;
    }
  }
}
