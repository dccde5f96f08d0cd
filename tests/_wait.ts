// Polling for a condition that another connection makes true.

/**
 * Wait until `condition` holds, polling every 10 ms; fails after `ms / 10`
 * polls (at least `ms`, longer on a busy machine).
 */
export async function waitFor(
  condition: () => boolean | Promise<boolean>,
  what: string,
  ms = 2000,
): Promise<void> {
  for (let i = 0; i < ms / 10; i++) {
    if (await condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`Timed out after ${ms} ms waiting for ${what}`);
}
