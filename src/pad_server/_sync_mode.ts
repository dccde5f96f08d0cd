// How hard a pads file syncs its commits: SQLite's `synchronous` in WAL
// mode, chosen by an option or by RUSTPAD_EMBEDDED_SYNC.

/** `"normal"` (survives kill -9) or `"full"` (survives a power cut too). */
export type SyncMode = "normal" | "full";

/** The variable that chooses the mode when no option does. */
export const SYNC_VARIABLE = "RUSTPAD_EMBEDDED_SYNC";

/** The environment's value, without prompting for permission. */
function fromEnvironment(): string | undefined {
  try {
    const state = Deno.permissions.querySync({
      name: "env",
      variable: SYNC_VARIABLE,
    }).state;
    return state === "granted" ? Deno.env.get(SYNC_VARIABLE) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The mode: `chosen`, else the variable's, else `"normal"`.
 *
 * @throws {TypeError} If the variable is set to neither mode.
 */
export function syncModeOf(chosen: SyncMode | undefined): SyncMode {
  if (chosen !== undefined) return chosen;
  const value = fromEnvironment()?.trim().toLowerCase();
  if (value === undefined || value === "" || value === "normal") {
    return "normal";
  }
  if (value === "full") return "full";
  throw new TypeError(
    `Cannot open the pads file as ${SYNC_VARIABLE} is neither normal nor full: current value is ${
      JSON.stringify(value)
    }`,
  );
}
