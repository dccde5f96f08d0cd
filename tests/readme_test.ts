// README.md is where people look first: its tables must name every tool and
// every configuration variable the server has, so neither can be added
// without documenting it.

import assert from "node:assert/strict";
import { CONFIG_VARIABLES, TOOL_NAMES } from "../src/mod.ts";

const README = await Deno.readTextFile(
  new URL("../README.md", import.meta.url),
);

/** The lines of the section under `## title`, up to the next `## `. */
function section(title: string): string {
  const start = README.indexOf(`\n## ${title}\n`);
  assert.notEqual(start, -1, `README.md has a "## ${title}" section`);
  const end = README.indexOf("\n## ", start + 1);
  return README.slice(start, end === -1 ? undefined : end);
}

Deno.test("README's Tools table has a row for every tool", () => {
  const tools = section("Tools");
  for (const name of TOOL_NAMES) {
    assert.match(tools, new RegExp(`^\\| \`${name}\` +\\|`, "m"), name);
  }
});

Deno.test("README's Configuration table names every variable", () => {
  const configuration = section("Configuration");
  for (const { name } of CONFIG_VARIABLES) {
    assert.ok(configuration.includes(`\`${name}\``), name);
  }
});

Deno.test("every `deno task` README names is a task in deno.json, and Start here is two commands: the demo and .ci/run", async () => {
  const config = JSON.parse(
    await Deno.readTextFile(new URL("../deno.json", import.meta.url)),
  );
  const named = new Set(
    [...README.matchAll(/deno task ([a-z:]+)/g)].map((match) => match[1]!),
  );
  assert.ok(named.size > 3, [...named].join(", "));
  for (const task of named) assert.ok(task in config.tasks, task);
  const start = section("Start here: a pad in your browser beside the agent");
  const commands = /```sh\n([^]*?)```/.exec(start)?.[1]?.trim().split("\n")
    .map((line) => line.replace(/\s*#.*$/, ""));
  assert.deepEqual(commands, ["deno task demo", "bash .ci/run"]);
  assert.ok(
    (await Deno.stat(new URL("../.ci/run", import.meta.url))).isFile,
  );
});
