// Running mod.ts as the command line, for the tests of the command line.

/** `mod.ts`, as a path a child process can run. */
export const MOD: string = new URL("../../mod.ts", import.meta.url).pathname;

/** Run `mod.ts` with `args` and `env` and stdin closed; its exit and output. */
export async function runMod(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", MOD, ...args],
    env: { NO_COLOR: "1", ...env },
    stdin: "null",
  }).output();
  const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
  return {
    code: output.code,
    stdout: decode(output.stdout),
    stderr: decode(output.stderr),
  };
}
