// The language menu, as Rustpad's (Monaco's ids), and the highlighting of
// each language CodeMirror has a parser for: lezer grammars where
// CodeMirror publishes one, its legacy stream modes otherwise. Every parser
// is its own chunk, fetched when a pad first uses it, so a page never loads
// the languages its pads are not in.

import type { Extension } from "@codemirror/state";
import type { Language, StreamParser } from "@codemirror/language";

/** Rustpad's language menu (its `languages.json`), in its order. */
// deno-fmt-ignore
export const LANGUAGES: readonly string[] = [
  "abap", "aes", "apex", "azcli", "bat", "bicep", "c", "cameligo", "clojure",
  "coffeescript", "cpp", "csharp", "csp", "css", "dart", "dockerfile", "ecl",
  "elixir", "flow9", "fsharp", "go", "graphql", "handlebars", "hcl", "html",
  "ini", "java", "javascript", "json", "julia", "kotlin", "less", "lexon",
  "liquid", "lua", "m3", "markdown", "mips", "msdax", "mysql", "objective-c",
  "pascal", "pascaligo", "perl", "pgsql", "php", "pla", "plaintext",
  "postiats", "powerquery", "powershell", "proto", "pug", "python", "qsharp",
  "r", "razor", "redis", "redshift", "restructuredtext", "ruby", "rust", "sb",
  "scala", "scheme", "scss", "shell", "sol", "sparql", "sql", "st", "swift",
  "systemverilog", "tcl", "twig", "typescript", "vb", "verilog", "xml", "yaml",
]

/** A legacy stream mode as a language. */
async function legacy<Module>(
  module: Promise<Module>,
  pick: (module: Module) => StreamParser<unknown>,
): Promise<Language> {
  const [{ StreamLanguage }, loaded] = await Promise.all([
    import("@codemirror/language"),
    module,
  ]);
  return StreamLanguage.define(pick(loaded));
}

const clike = () => import("@codemirror/legacy-modes/mode/clike");
const sql = () => import("@codemirror/lang-sql");

/** Each highlighted language's parser, fetched on demand. */
const PARSERS: Readonly<Record<string, () => Promise<Language>>> = {
  c: async () => (await import("@codemirror/lang-cpp")).cppLanguage,
  cpp: async () => (await import("@codemirror/lang-cpp")).cppLanguage,
  css: async () => (await import("@codemirror/lang-css")).cssLanguage,
  go: async () => (await import("@codemirror/lang-go")).goLanguage,
  html: async () => (await import("@codemirror/lang-html")).htmlLanguage,
  java: async () => (await import("@codemirror/lang-java")).javaLanguage,
  javascript: async () =>
    (await import("@codemirror/lang-javascript")).javascriptLanguage,
  json: async () => (await import("@codemirror/lang-json")).jsonLanguage,
  less: async () => (await import("@codemirror/lang-less")).lessLanguage,
  liquid: async () => (await import("@codemirror/lang-liquid")).liquidLanguage,
  markdown: async () =>
    (await import("@codemirror/lang-markdown")).markdownLanguage,
  mysql: async () => (await sql()).MySQL.language,
  pgsql: async () => (await sql()).PostgreSQL.language,
  php: async () => (await import("@codemirror/lang-php")).phpLanguage,
  python: async () => (await import("@codemirror/lang-python")).pythonLanguage,
  rust: async () => (await import("@codemirror/lang-rust")).rustLanguage,
  scss: async () => (await import("@codemirror/lang-sass")).sassLanguage,
  sql: async () => (await sql()).StandardSQL.language,
  typescript: async () =>
    (await import("@codemirror/lang-javascript")).typescriptLanguage,
  xml: async () => (await import("@codemirror/lang-xml")).xmlLanguage,
  yaml: async () => (await import("@codemirror/lang-yaml")).yamlLanguage,
  clojure: () =>
    legacy(import("@codemirror/legacy-modes/mode/clojure"), (m) => m.clojure),
  coffeescript: () =>
    legacy(
      import("@codemirror/legacy-modes/mode/coffeescript"),
      (m) => m.coffeeScript,
    ),
  csharp: () => legacy(clike(), (m) => m.csharp),
  dart: () => legacy(clike(), (m) => m.dart),
  dockerfile: () =>
    legacy(
      import("@codemirror/legacy-modes/mode/dockerfile"),
      (m) => m.dockerFile,
    ),
  ecl: () => legacy(import("@codemirror/legacy-modes/mode/ecl"), (m) => m.ecl),
  fsharp: () =>
    legacy(import("@codemirror/legacy-modes/mode/mllike"), (m) => m.fSharp),
  ini: () =>
    legacy(
      import("@codemirror/legacy-modes/mode/properties"),
      (m) => m.properties,
    ),
  julia: () =>
    legacy(import("@codemirror/legacy-modes/mode/julia"), (m) => m.julia),
  kotlin: () => legacy(clike(), (m) => m.kotlin),
  lua: () => legacy(import("@codemirror/legacy-modes/mode/lua"), (m) => m.lua),
  "objective-c": () => legacy(clike(), (m) => m.objectiveC),
  pascal: () =>
    legacy(import("@codemirror/legacy-modes/mode/pascal"), (m) => m.pascal),
  perl: () =>
    legacy(import("@codemirror/legacy-modes/mode/perl"), (m) => m.perl),
  powershell: () =>
    legacy(
      import("@codemirror/legacy-modes/mode/powershell"),
      (m) => m.powerShell,
    ),
  proto: () =>
    legacy(
      import("@codemirror/legacy-modes/mode/protobuf"),
      (m) => m.protobuf,
    ),
  pug: () => legacy(import("@codemirror/legacy-modes/mode/pug"), (m) => m.pug),
  r: () => legacy(import("@codemirror/legacy-modes/mode/r"), (m) => m.r),
  ruby: () =>
    legacy(import("@codemirror/legacy-modes/mode/ruby"), (m) => m.ruby),
  scala: () => legacy(clike(), (m) => m.scala),
  scheme: () =>
    legacy(import("@codemirror/legacy-modes/mode/scheme"), (m) => m.scheme),
  shell: () =>
    legacy(import("@codemirror/legacy-modes/mode/shell"), (m) => m.shell),
  sparql: () =>
    legacy(import("@codemirror/legacy-modes/mode/sparql"), (m) => m.sparql),
  swift: () =>
    legacy(import("@codemirror/legacy-modes/mode/swift"), (m) => m.swift),
  systemverilog: () =>
    legacy(import("@codemirror/legacy-modes/mode/verilog"), (m) => m.verilog),
  tcl: () => legacy(import("@codemirror/legacy-modes/mode/tcl"), (m) => m.tcl),
  vb: () => legacy(import("@codemirror/legacy-modes/mode/vb"), (m) => m.vb),
  verilog: () =>
    legacy(import("@codemirror/legacy-modes/mode/verilog"), (m) => m.verilog),
};

const loaded = new Map<string, Promise<Extension>>();

/**
 * The editor extension that highlights `language`: its parser and the
 * classes (`tok-keyword`, `tok-string`…) the page's style colours, for
 * light and dark alike. Empty for a language without a parser, and while
 * its parser cannot be fetched (the server is away): asked again later, it
 * is fetched again.
 */
export function highlighting(language: string): Promise<Extension> {
  const parser = PARSERS[language];
  if (parser === undefined) return Promise.resolve([]);
  let extension = loaded.get(language);
  if (extension === undefined) {
    extension = Promise.all([
      import("@codemirror/language"),
      import("@lezer/highlight"),
      parser(),
    ]).then(([{ syntaxHighlighting }, { classHighlighter }, parsed]) => [
      parsed,
      syntaxHighlighting(classHighlighter),
    ]);
    loaded.set(language, extension);
    extension.catch(() => loaded.delete(language));
  }
  return extension.catch(() => []);
}
