// What a start of the server loads: the modules `mod.ts` imports statically,
// from `deno info`. The bundles, the regex engine, the Redis client and
// node:http are imported when first used, never at start (issue 32: each
// cost every MCP session's start tens of milliseconds); node:crypto (about
// 6 ms) is not imported at all: src/digest/ hashes.

import assert from "node:assert/strict";

interface Info {
  roots: string[];
  redirects: Record<string, string>;
  modules: {
    specifier: string;
    dependencies?: {
      isDynamic?: boolean;
      code?: { specifier?: string };
    }[];
  }[];
}

/** The specifiers `root` reaches through static imports. */
async function staticGraph(root: string): Promise<Set<string>> {
  const { stdout, success } = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json", root],
    stderr: "inherit",
  }).output();
  assert.ok(success, "deno info failed");
  const info = JSON.parse(new TextDecoder().decode(stdout)) as Info;
  const modules = new Map(info.modules.map((m) => [m.specifier, m]));
  const resolve = (specifier: string) => info.redirects[specifier] ?? specifier;
  const seen = new Set<string>();
  const stack = info.roots.map(resolve);
  while (stack.length > 0) {
    const specifier = resolve(stack.pop()!);
    if (seen.has(specifier)) continue;
    seen.add(specifier);
    for (const dependency of modules.get(specifier)?.dependencies ?? []) {
      const code = dependency.code?.specifier;
      if (code !== undefined && !dependency.isDynamic) stack.push(code);
    }
  }
  return seen;
}

Deno.test("a start imports neither the page and view bundles, nor re2js, Redis, node:http or node:crypto, until they are used", async () => {
  const graph = [
    ...await staticGraph(new URL("../mod.ts", import.meta.url).href),
  ];
  assert.ok(graph.some((s) => s.endsWith("/src/mcp/stdio.ts")));
  for (
    const lazy of [
      /\/_editor_page\.ts$/,
      /\/_pad_view_html\.ts$/,
      /re2js/,
      /redis/,
      /^node:http$/,
      /^node:crypto$/,
    ]
  ) {
    assert.deepEqual(graph.filter((s) => lazy.test(s)), [], String(lazy));
  }
});
