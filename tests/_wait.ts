// Polling for a condition that another connection makes true.

/** Wait until `condition` holds, polling every 10 ms; fails after about 2 s. */
export async function waitFor(
  condition: () => boolean | Promise<boolean>,
  what: string,
): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (await condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`Timed out waiting for ${what}`);
}
