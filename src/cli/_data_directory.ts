// Where the embedded pad server keeps its pads by default: a file in the
// user's data directory, as desktop programs keep theirs, so pads outlive
// the process an MCP client starts for each session.

/** The environment variables the data directory is found from. */
export const DATA_DIRECTORY_VARIABLES: readonly string[] = [
  "XDG_DATA_HOME",
  "HOME",
  "LOCALAPPDATA",
  "APPDATA",
];

/**
 * The default pads file: `pads.sqlite` in `rustpad-mcp` under the user's
 * data directory, or `undefined` when the environment names none.
 *
 * @example Linux without XDG_DATA_HOME
 * ```ts ignore
 * defaultPadsFile({ HOME: "/home/ada" }, "linux");
 * // "/home/ada/.local/share/rustpad-mcp/pads.sqlite"
 * ```
 */
export function defaultPadsFile(
  env: Readonly<Record<string, string | undefined>>,
  os: typeof Deno.build.os,
): string | undefined {
  const set = (name: string) => {
    const value = env[name]?.trim();
    return value === undefined || value === "" ? undefined : value;
  };
  if (os === "windows") {
    const base = set("LOCALAPPDATA") ?? set("APPDATA");
    return base === undefined ? undefined : `${base}\\rustpad-mcp\\pads.sqlite`;
  }
  const home = set("HOME");
  const base = os === "darwin"
    ? home && `${home}/Library/Application Support`
    // XDG asks for an absolute path and to ignore anything else.
    : set("XDG_DATA_HOME")?.startsWith("/")
    ? set("XDG_DATA_HOME")
    : home && `${home}/.local/share`;
  return base === undefined ? undefined : `${base}/rustpad-mcp/pads.sqlite`;
}
