// The languages of Rustpad's menu (the Monaco ids its editor lists, from
// ekzhang/rustpad's src/languages.json). A pad's language is shared by
// everyone in it, and the real editor shows whatever it is given as a menu
// entry: "Python" would sit beside "python" for every person there. So a
// name is mapped onto the menu ("Python" → "python", "C++" → "cpp") or
// refused with the list.

import { z } from "zod";

/** Rustpad's language menu, in its order. */
// deno-fmt-ignore
export const RUSTPAD_LANGUAGES: readonly string[] = [
  "abap",
  "aes",
  "apex",
  "azcli",
  "bat",
  "bicep",
  "c",
  "cameligo",
  "clojure",
  "coffeescript",
  "cpp",
  "csharp",
  "csp",
  "css",
  "dart",
  "dockerfile",
  "ecl",
  "elixir",
  "flow9",
  "fsharp",
  "go",
  "graphql",
  "handlebars",
  "hcl",
  "html",
  "ini",
  "java",
  "javascript",
  "json",
  "julia",
  "kotlin",
  "less",
  "lexon",
  "liquid",
  "lua",
  "m3",
  "markdown",
  "mips",
  "msdax",
  "mysql",
  "objective-c",
  "pascal",
  "pascaligo",
  "perl",
  "pgsql",
  "php",
  "pla",
  "plaintext",
  "postiats",
  "powerquery",
  "powershell",
  "proto",
  "pug",
  "python",
  "qsharp",
  "r",
  "razor",
  "redis",
  "redshift",
  "restructuredtext",
  "ruby",
  "rust",
  "sb",
  "scala",
  "scheme",
  "scss",
  "shell",
  "sol",
  "sparql",
  "sql",
  "st",
  "swift",
  "systemverilog",
  "tcl",
  "twig",
  "typescript",
  "vb",
  "verilog",
  "xml",
  "yaml",
]; // deno-fmt-ignore

const MENU = new Set(RUSTPAD_LANGUAGES);

/** Common names and file extensions of menu languages, lowercased. */
// deno-fmt-ignore
const ALIASES: Readonly<Record<string, string>> = {
  "c++": "cpp",
  "c#": "csharp",
  "f#": "fsharp",
  "q#": "qsharp",
  js: "javascript",
  jsx: "javascript",
  node: "javascript",
  ts: "typescript",
  tsx: "typescript",
  py: "python",
  python3: "python",
  rb: "ruby",
  rs: "rust",
  golang: "go",
  sh: "shell",
  bash: "shell",
  zsh: "shell",
  md: "markdown",
  txt: "plaintext",
  text: "plaintext",
  plain: "plaintext",
  yml: "yaml",
  objc: "objective-c",
  objectivec: "objective-c",
  postgres: "pgsql",
  postgresql: "pgsql",
  kt: "kotlin",
  ps1: "powershell",
  pwsh: "powershell",
  docker: "dockerfile",
  protobuf: "proto",
  "vb.net": "vb",
  vbnet: "vb",
  rst: "restructuredtext",
  solidity: "sol",
  terraform: "hcl",
  tf: "hcl",
  gql: "graphql",
  jsonc: "json",
  json5: "json",
  htm: "html",
  pl: "perl",
  ex: "elixir",
  exs: "elixir",
  clj: "clojure",
  cs: "csharp",
  kotlinscript: "kotlin",
};

/**
 * The menu id for `name`: itself when on the menu, else its lowercase,
 * space-free form or a known alias; `undefined` when none is.
 */
export function menuLanguage(name: string): string | undefined {
  if (MENU.has(name)) return name;
  const plain = name.trim().toLowerCase().replace(/\s+/g, "");
  if (MENU.has(plain)) return plain;
  return ALIASES[plain];
}

/**
 * A language argument: a menu id or a name that maps onto one (the tool
 * calls {@linkcode menuLanguage} for the id); anything else is refused
 * with the menu.
 */
export const languageSchema: z.ZodString = z.string().check((context) => {
  if (menuLanguage(context.value) === undefined) {
    context.issues.push({
      code: "custom",
      input: context.value,
      message: `Cannot use language ${
        JSON.stringify(context.value.slice(0, 80))
      } as Rustpad's language menu has no such entry: use one of ${
        RUSTPAD_LANGUAGES.join(", ")
      }`,
    });
  }
}).describe(
  "A menu id ('python') or name ('Python'); others fail, listing the menu.",
);
