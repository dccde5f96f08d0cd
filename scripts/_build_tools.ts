// What the build scripts share: running deno, and the digest of a build's
// inputs that a generated file records, so that staleness is judged by what
// it was built from, not by its bytes (esbuild names and orders chunks by
// where the checkout and Deno's npm cache lie).

const ROOT = new URL("../", import.meta.url);

/** The first 16 hex digits of the SHA-256 of `text`. */
export async function digest(text: string): Promise<string> {
  const bytes = new Uint8Array(
    await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)),
  );
  return Array.from(
    bytes.slice(0, 8),
    (byte) => byte.toString(16).padStart(2, "0"),
  ).join("");
}

/** Run `deno <command> ...args` in the project; its output, or why it failed. */
export async function runDeno(
  command: string,
  args: string[],
  what: string,
): Promise<Uint8Array> {
  const { code, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
    args: [command, ...args],
    cwd: ROOT.pathname,
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (code !== 0) {
    throw new Error(
      `Cannot ${what} as deno ${command} failed: current exit code is ${code}\n${
        new TextDecoder().decode(stderr)
      }`,
    );
  }
  return stdout;
}

/**
 * A digest of everything built from `entry`: each project module its graph
 * reaches, dynamic imports included (by path inside the project, and
 * content), the npm packages it reaches (name and version), and `extras`
 * (the build script among them). It does not depend on where the checkout
 * lies.
 */
export async function sourcesDigest(
  entry: URL,
  extras: readonly URL[],
): Promise<string> {
  const stdout = await runDeno(
    "info",
    ["--json", entry.pathname],
    `list the sources of ${entry.pathname}`,
  );
  const graph = JSON.parse(new TextDecoder().decode(stdout)) as {
    modules: { specifier: string }[];
    npmPackages?: Record<string, unknown>;
  };
  const files = new Set(extras.map((url) => url.href));
  const packages = new Set(Object.keys(graph.npmPackages ?? {}));
  for (const { specifier } of graph.modules) {
    if (specifier.startsWith(ROOT.href)) files.add(specifier);
    else packages.add(specifier);
  }
  const lines = [...packages].sort();
  for (const file of [...files].sort()) {
    const text = await Deno.readTextFile(new URL(file));
    lines.push(`${file.slice(ROOT.href.length)} ${await digest(text)}`);
  }
  return await digest(lines.join("\n"));
}

/** The line of a generated file that records its sources' digest. */
const SOURCES_LINE = /^\/\/ Sources digest: ([0-9a-f]{16})$/m;

/** The sources digest a generated file records, if it records one. */
export function recordedSourcesDigest(module: string): string | undefined {
  return SOURCES_LINE.exec(module)?.[1];
}
