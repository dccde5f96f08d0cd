// The state store the CLI opens in either mode (stdio or --http): Redis
// with RUSTPAD_STATE_URL, memory without; exit code 2 when Redis is down.

import { openStateStore } from "../backend/open_state.ts";
import {
  type StateStore,
  StateUnreachableError,
} from "../backend/state_store.ts";
import type { Config } from "../config/config.ts";

/**
 * The state store RUSTPAD_STATE_URL names (memory without it), or exit code
 * 2 after one line through `log` when Redis cannot be reached.
 */
export async function openConfiguredState(
  config: Config,
  log: (line: string) => void,
): Promise<StateStore | number> {
  try {
    return await openStateStore({
      url: config.stateUrl,
      password: config.statePassword,
      timeoutMs: config.timeoutMs,
      rustpadUrl: config.rustpadUrl,
    });
  } catch (error) {
    if (!(error instanceof StateUnreachableError)) throw error;
    log(
      `rustpad-mcp: Cannot start as Redis at ${error.location} (RUSTPAD_STATE_URL) ${
        /ECONNREFUSED/.test(String((error.cause as Error)?.message))
          ? "refused the connection"
          : `did not answer within ${config.timeoutMs} ms`
      } (${
        (error.cause as Error | undefined)?.message ?? "no answer"
      }): check the URL, the password and that Redis is up`,
    );
    return 2;
  }
}
