// `deno task compile`: `deno compile` the server into one binary, then check
// that the binary is the server. Offline, DENORT_BIN pointed at `deno`
// itself makes `deno compile` succeed with a binary that is plain Deno
// (`--version` answers "deno 2.x"): a client started with it would run
// Deno's REPL, not the server. The check says so and removes that binary.
//
//   deno task compile                               dist/rustpad-mcp
//   deno task compile --target aarch64-apple-darwin --output dist/rustpad-mcp-macos-arm64
//
// The binary must also run the pad server as `pad-server` (--embedded starts
// it so, as a process of its own): the check asks its `pad-server --help`.
// A binary for another platform cannot run here, so it is not checked; the
// script says that too.

import { parseArgs } from "node:util";
import { dirname } from "node:path";
import { VERSION } from "../src/config/version.ts";

/** How long the binary has to answer `--version`. */
const VERSION_TIMEOUT_MS = 30_000;

/**
 * Whether the binary at `path` answers `--version` as rustpad-mcp `version`:
 * `undefined` if it does, else why not, in a sentence.
 */
export async function versionProblem(
  path: string,
  version: string = VERSION,
): Promise<string | undefined> {
  const expected = `rustpad-mcp ${version}`;
  let output: Deno.CommandOutput;
  try {
    output = await new Deno.Command(path, {
      args: ["--version"],
      stdin: "null",
      signal: AbortSignal.timeout(VERSION_TIMEOUT_MS),
    }).output();
  } catch (error) {
    return `Cannot run ${path} --version as ${(error as Error).message}`;
  }
  const answer = new TextDecoder().decode(output.stdout).trim();
  if (output.success && answer === expected) return undefined;
  const firstLine = answer.split("\n")[0] ?? "";
  const plainDeno = /^deno \d/.test(firstLine)
    ? ": it is plain Deno, which deno compile makes when DENORT_BIN points at deno itself; point DENORT_BIN at denort of the same Deno version (see README, A compiled binary), or unset it on a connected machine"
    : "";
  return `Cannot use ${path} as it does not answer --version as ${expected}: current answer is ${
    JSON.stringify(firstLine)
  } (exit code ${output.code})${plainDeno}`;
}

/**
 * Whether the binary at `path` answers `pad-server --help` with the pad
 * server's usage: `undefined` if it does, else why not, in a sentence.
 */
export async function padServerProblem(
  path: string,
): Promise<string | undefined> {
  let output: Deno.CommandOutput;
  try {
    output = await new Deno.Command(path, {
      args: ["pad-server", "--help"],
      stdin: "null",
      signal: AbortSignal.timeout(VERSION_TIMEOUT_MS),
    }).output();
  } catch (error) {
    return `Cannot run ${path} pad-server --help as ${
      (error as Error).message
    }`;
  }
  const answer = new TextDecoder().decode(output.stdout);
  if (output.success && answer.startsWith("Usage: rustpad-mcp pad-server")) {
    return undefined;
  }
  return `Cannot use ${path} as it does not answer pad-server --help with the pad server's usage: current answer is ${
    JSON.stringify(answer.split("\n")[0] ?? "")
  } (exit code ${output.code})`;
}

/**
 * What `deno compile` failing with `stderr` and exit `code` means, in one
 * sentence: the download of denort (offline, or a proxy or TLS problem)
 * names the DENORT_BIN way; any other failure names Deno's own error line,
 * without its backtrace.
 */
export function compileFailure(stderr: string, code: number): string {
  // deno colours its output unless NO_COLOR is set.
  // deno-lint-ignore no-control-regex
  const plain = stderr.replace(/\x1b\[[0-9;]*m/g, "");
  const download = /error sending request for url \((\S*denort\S*\.zip)\): (.*)/
    .exec(plain);
  if (download !== undefined && download !== null) {
    return `Cannot compile as deno compile could not download ${download[1]} (${
      download[2]!.trim()
    }): build offline by pointing DENORT_BIN at denort of this Deno version (${Deno.version.deno}), unzipped from that file fetched on a connected machine (see docs/compile.md)`;
  }
  const lines = plain.split("\n").map((line) => line.trim());
  const error = lines.find((line) => line.startsWith("error:")) ??
    lines.findLast((line) => line !== "") ?? "no message";
  return `Cannot compile as deno compile failed with exit code ${code}: ${error}`;
}

/** Remove `directory` if it exists and holds nothing (deno compile made it). */
async function removeIfEmpty(directory: string): Promise<void> {
  try {
    for await (const _ of Deno.readDir(directory)) return;
    await Deno.remove(directory);
  } catch {
    // Absent or unreadable: nothing to tidy.
  }
}

async function main(args: string[]): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      target: { type: "string" },
      output: { type: "string", default: "dist/rustpad-mcp" },
    },
  });
  const output = values.output;
  const mod = new URL("../mod.ts", import.meta.url).href;
  const compiled = await new Deno.Command(Deno.execPath(), {
    args: [
      "compile",
      "-A",
      ...(values.target === undefined ? [] : ["--target", values.target]),
      "--output",
      output,
      mod,
    ],
    stdin: "null",
    stderr: "piped",
  }).output();
  const said = new TextDecoder().decode(compiled.stderr);
  if (!compiled.success) {
    await removeIfEmpty(dirname(output));
    console.error(`compile: ${compileFailure(said, compiled.code)}`);
    return compiled.code;
  }
  await Deno.stderr.write(compiled.stderr);
  if (values.target !== undefined && values.target !== Deno.build.target) {
    console.error(
      `compile: ${output} is for ${values.target}, not this machine (${Deno.build.target}): run "${output} --version" there; it must answer rustpad-mcp ${VERSION}`,
    );
    return 0;
  }
  const binary = Deno.build.os === "windows" && !output.endsWith(".exe")
    ? `${output}.exe`
    : output;
  const problem = await versionProblem(binary) ??
    await padServerProblem(binary);
  if (problem !== undefined) {
    await Deno.remove(binary).catch(() => {});
    console.error(`compile: ${problem}; ${binary} was removed`);
    return 1;
  }
  console.error(
    `compile: ${binary} answers --version as rustpad-mcp ${VERSION} and runs its pad server as pad-server`,
  );
  return 0;
}

if (import.meta.main) Deno.exit(await main(Deno.args));
