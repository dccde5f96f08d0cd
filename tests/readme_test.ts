// README.md is where people look first, and docs/ where it sends them: what
// they say must stay true. The tool and variable tables name every tool and
// variable there is, and nothing that is gone; every path, task and doc
// link resolves; README stays short, and its client config works as given.

import assert from "node:assert/strict";
// @ts-types="@modelcontextprotocol/sdk/client/index"
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
// @ts-types="@modelcontextprotocol/sdk/client/stdio"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { CONFIG_VARIABLES, READ_TOOLS, TOOL_NAMES } from "../src/mod.ts";
import { TOOLS } from "../src/tools/mod.ts";
import { childEnv } from "./_child_env.ts";
import { scratchHome } from "./cli/_run.ts";

const ROOT = new URL("../", import.meta.url);
const read = (path: string) => Deno.readTextFile(new URL(path, ROOT));
const README = await read("README.md");
const DOCS = new Map<string, string>();
for await (const entry of Deno.readDir(new URL("docs/", ROOT))) {
  if (entry.name.endsWith(".md")) {
    DOCS.set(`docs/${entry.name}`, await read(`docs/${entry.name}`));
  }
}
const ALL = new Map([["README.md", README], ...DOCS]);

/** The lines of the section under `## title`, up to the next `## `. */
function section(text: string, title: string): string {
  const start = text.indexOf(`\n## ${title}\n`);
  assert.notEqual(start, -1, `a "## ${title}" section`);
  const end = text.indexOf("\n## ", start + 1);
  return text.slice(start, end === -1 ? undefined : end);
}

/** The table rows of `text` whose first cell is a backticked name. */
function rows(text: string): Map<string, string[]> {
  const found = new Map<string, string[]>();
  for (const match of text.matchAll(/^\| `([a-z_]+)` +\|(.*)\|$/gm)) {
    found.set(match[1]!, match[2]!.split("|").map((cell) => cell.trim()));
  }
  return found;
}

Deno.test("README is under 300 lines", () => {
  const lines = README.split("\n").length;
  assert.ok(lines < 300, `README.md has ${lines} lines`);
});

Deno.test("README's Tools table has a row for every tool, with its read-only and destructive hints, and counts them right", () => {
  const table = rows(section(README, "Tools"));
  assert.deepEqual([...table.keys()], [...TOOL_NAMES]);
  for (const name of TOOL_NAMES) {
    const [, readOnly, destructive] = table.get(name)!;
    const { annotations } = TOOLS[name];
    assert.equal(readOnly, annotations.readOnlyHint ? "yes" : "no", name);
    assert.equal(
      destructive,
      annotations.destructiveHint ? "**yes**" : "no",
      name,
    );
  }
  assert.match(
    README,
    new RegExp(
      `${TOOL_NAMES.length} tools, ${READ_TOOLS.length} of them read-only`,
    ),
  );
  assert.match(README, new RegExp(`only the ${READ_TOOLS.length} read-only`));
  assert.match(
    DOCS.get("docs/configuration.md")!,
    /only the eight read-only tools/,
  );
  assert.equal(READ_TOOLS.length, 8);
});

Deno.test("docs/tools.md's table has a row for every tool", () => {
  const table = rows(DOCS.get("docs/tools.md")!);
  assert.deepEqual([...table.keys()].sort(), [...TOOL_NAMES].sort());
});

Deno.test("docs/configuration.md names every variable, and no page names a RUSTPAD_ variable that does not exist", () => {
  const configuration = DOCS.get("docs/configuration.md")!;
  const known = new Set(CONFIG_VARIABLES.map((variable) => variable.name));
  for (const name of known) {
    assert.ok(configuration.includes(`\`${name}\``), name);
  }
  for (const [page, text] of ALL) {
    for (const [name] of text.matchAll(/\bRUSTPAD_[A-Z_]+[A-Z]\b/g)) {
      assert.ok(known.has(name), `${page} names ${name}`);
    }
  }
});

Deno.test("every `deno task` a page names is a task in deno.json, and every repository path and doc link it gives exists", async () => {
  const config = JSON.parse(await read("deno.json"));
  for (const [page, text] of ALL) {
    for (const [, task] of text.matchAll(/deno task ([a-z:-]+)/g)) {
      assert.ok(task! in config.tasks, `${page}: deno task ${task}`);
    }
    const base = page === "README.md" ? ROOT : new URL("docs/", ROOT);
    for (const [, target] of text.matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)) {
      if (/^[a-z]+:/.test(target!)) continue;
      await Deno.stat(new URL(target!, base)).catch(() => {
        throw new Error(`${page} links to ${target}, which does not exist`);
      });
    }
    const paths = text.matchAll(
      /`((?:tests|src|examples|scripts|bench|docs|\.ci)\/[\w./-]*\w)`/g,
    );
    for (const [, path] of paths) {
      // Globs, and what the tests write on every run.
      if (/[*{}]/.test(path!) || path!.startsWith(".ci/out/")) continue;
      await Deno.stat(new URL(path!, ROOT)).catch(() => {
        throw new Error(`${page} names ${path}, which does not exist`);
      });
    }
  }
});

Deno.test("README's two commands are the demo and the server with --embedded", () => {
  const block = /```sh\n([^]*?)```/.exec(section(README, "Two commands"))?.[1];
  const commands = block?.trim().split("\n").map((line) =>
    line.replace(/\s*#.*$/, "")
  );
  assert.deepEqual(commands, [
    "deno task demo",
    "deno run -A mod.ts --embedded",
  ]);
});

Deno.test("README's client config, as given, starts the server with its own pads and lists every tool", async () => {
  const json = /```json\n([^]*?)```/.exec(
    section(README, "Connect your own agent"),
  )?.[1];
  const { command, args } = JSON.parse(json!).mcpServers.rustpad as {
    command: string;
    args: string[];
  };
  assert.equal(command, "deno");
  assert.deepEqual(args, [
    "run",
    "-A",
    "/path/to/rustpad-mcp/mod.ts",
    "--embedded",
  ]);
  await using home = await scratchHome();
  const transport = new StdioClientTransport({
    command: Deno.execPath(),
    args: args.map((arg) =>
      arg.replace("/path/to/rustpad-mcp/", new URL(".", ROOT).pathname)
    ),
    env: childEnv({ ...home.env, RUSTPAD_EMBEDDED_DB: "memory" }),
    stderr: "ignore",
  });
  const client = new Client({ name: "readme-test", version: "1.0.0" });
  await client.connect(transport);
  try {
    const { tools } = await client.listTools();
    assert.deepEqual(tools.map((tool) => tool.name), [...TOOL_NAMES]);
    const created = await client.callTool({
      name: "create_document",
      arguments: { id: "plan", text: "# Plan\n" },
    });
    assert.equal(
      (created.structuredContent as { url: string }).url,
      `http://127.0.0.1:${home.port}/#plan`,
    );
  } finally {
    await client.close();
  }
});
