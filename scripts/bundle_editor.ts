// Builds the editor page the pad server serves: bundles
// src/pad_server/editor/page.ts for the browser (CodeMirror and the project's
// own OT client) split into chunks, so a pad's language is fetched only when
// a pad uses it, inlines the style into page.html, and writes the page and
// every chunk as string constants into src/pad_server/_editor_page.ts, so
// they travel inside the module graph (deno publish, deno compile, JSR). The
// server answers the chunks at /assets/{name}.
//
//   deno task bundle            write src/pad_server/_editor_page.ts
//   deno task bundle --check    exit 1 if the committed file is stale
//
// The bundle's bytes depend on where the checkout and Deno's npm cache lie
// (esbuild names and orders chunks by path), so staleness is judged by a
// digest of the inputs, recorded in the generated file, not by its bytes.

const ROOT = new URL("../", import.meta.url);
const EDITOR = new URL("src/pad_server/editor/", ROOT);
/** The generated module. */
export const OUTPUT: URL = new URL("src/pad_server/_editor_page.ts", ROOT);

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
async function runDeno(
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
 * `deno bundle` of `entry` for the browser, minified, with code splitting
 * or as one file: file name → code.
 */
export async function bundleChunks(
  entry: URL,
  split: boolean,
): Promise<Map<string, string>> {
  const dir = await Deno.makeTempDir({ prefix: "rustpad-editor-" });
  try {
    await runDeno("bundle", [
      "--quiet",
      "--platform=browser",
      "--format=esm",
      "--minify",
      ...(split ? ["--code-splitting"] : []),
      `--outdir=${dir}`,
      entry.pathname,
    ], `bundle ${entry.pathname}`);
    const chunks = new Map<string, string>();
    const names = [];
    for await (const entry of Deno.readDir(dir)) names.push(entry.name);
    // Sorted, so the generated module does not depend on the directory order.
    for (const name of names.sort()) {
      chunks.set(name, (await Deno.readTextFile(`${dir}/${name}`)).trim());
    }
    return chunks;
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/**
 * A digest of everything the editor page is built from: each project module
 * the page's graph reaches (by path inside the project, and content), the
 * npm packages it reaches (name and version), page.html, page.css and this
 * script. It does not depend on where the checkout lies.
 */
export async function editorSourcesDigest(): Promise<string> {
  const stdout = await runDeno(
    "info",
    ["--json", new URL("page.ts", EDITOR).pathname],
    "list the editor's sources",
  );
  const graph = JSON.parse(new TextDecoder().decode(stdout)) as {
    modules: { specifier: string }[];
    npmPackages?: Record<string, unknown>;
  };
  const files = new Set([
    new URL("page.html", EDITOR).href,
    new URL("page.css", EDITOR).href,
    import.meta.url,
  ]);
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

/** The line of the generated module that records its sources' digest. */
const SOURCES_LINE = /^\/\/ Sources digest: ([0-9a-f]{16})$/m;

/** The sources digest a generated module records, if it records one. */
export function recordedSourcesDigest(module: string): string | undefined {
  return SOURCES_LINE.exec(module)?.[1];
}

/** The generated module's source, built from the editor's sources now. */
export async function buildEditorModule(): Promise<string> {
  const chunks = await bundleChunks(new URL("page.ts", EDITOR), true);
  const entry = chunks.get("page.js");
  if (entry === undefined) {
    throw new Error(
      `Cannot build the editor page as the bundle has no page.js: current files are ${
        [...chunks.keys()].join(", ")
      }`,
    );
  }
  chunks.delete("page.js");
  // The entry's name carries its content's hash, as the chunks' do, so
  // every asset can be cached for good.
  const entryName = `page-${(await digest(entry)).slice(0, 8)}.js`;
  chunks.set(entryName, entry);
  // The chunks the entry imports at once are fetched beside it.
  const preloads = [...entry.matchAll(/from\s*"\.\/([\w.-]+\.js)"/g)]
    .map(([, name]) => name!);
  const scripts = [...preloads, entryName].map((name) =>
    `<link rel="modulepreload" href="/assets/${name}">`
  ).join("\n    ");
  const style = (await Deno.readTextFile(new URL("page.css", EDITOR))).trim();
  const html = (await Deno.readTextFile(new URL("page.html", EDITOR)))
    .replace("/* STYLE */", () => style)
    .replace("<!-- SCRIPTS -->", () => scripts)
    .replace("/assets/page.js", () => `/assets/${entryName}`);
  const assets = [...chunks.keys()].sort().map((name) =>
    `  ${JSON.stringify(name)}: ${JSON.stringify(chunks.get(name))},`
  );
  return [
    "// deno-fmt-ignore-file",
    "// deno-lint-ignore-file",
    "// Generated by `deno task bundle` from src/pad_server/editor/: do not edit.",
    `// Sources digest: ${await editorSourcesDigest()}`,
    "",
    "/** The editor page: HTML with its style inlined; its scripts are assets. */",
    `export const EDITOR_PAGE: string = ${JSON.stringify(html)};`,
    "",
    "/** A strong entity tag of {@linkcode EDITOR_PAGE}. */",
    `export const EDITOR_PAGE_ETAG: string = ${
      JSON.stringify(`"${await digest(html)}"`)
    };`,
    "",
    "/**",
    " * The page's scripts by file name, served at `/assets/{name}`: each name",
    " * carries a hash of what it holds, so a browser may keep it for good.",
    " */",
    "export const EDITOR_ASSETS: Readonly<Record<string, string>> = {",
    ...assets,
    "};",
    "",
  ].join("\n");
}

if (import.meta.main) {
  if (Deno.args.includes("--check")) {
    const current = await Deno.readTextFile(OUTPUT).catch(() => "");
    if (recordedSourcesDigest(current) !== await editorSourcesDigest()) {
      console.error(
        "src/pad_server/_editor_page.ts is stale: run deno task bundle",
      );
      Deno.exit(1);
    }
  } else {
    const source = await buildEditorModule();
    await Deno.writeTextFile(OUTPUT, source);
    const bytes = new TextEncoder().encode(source).length;
    console.error(`wrote ${OUTPUT.pathname} (${bytes} bytes)`);
  }
}
