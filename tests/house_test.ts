// The shape of the house, read from Deno's own module graph (`deno info
// --json`): which layer folder may import which, that only the MCP layer
// imports the MCP SDK (the package's own modules; tests may), that no files import each other in a circle, and that
// private `_name.ts` modules stay inside their folder.

import assert from "node:assert/strict";

const ROOT = new URL("../", import.meta.url).href;

/** Each layer folder of src/ and the layers it may import, all below it. */
const MAY_IMPORT: Readonly<Record<string, readonly string[]>> = {
  digest: [],
  ot: [],
  http: ["digest"],
  rustpad: ["digest", "ot"],
  text: ["digest", "ot"],
  safety: ["digest", "ot", "rustpad", "text"],
  config: ["digest", "ot", "rustpad"],
  backend: ["digest", "ot", "rustpad", "text", "safety", "config"],
  tools: ["digest", "ot", "rustpad", "text", "safety", "config", "backend"],
  mcp: [
    "digest",
    "ot",
    "http",
    "rustpad",
    "text",
    "safety",
    "config",
    "backend",
    "tools",
  ],
  pad_server: ["digest", "ot", "http", "rustpad"],
  testing: ["digest", "ot", "rustpad", "pad_server"],
  cli: [
    "digest",
    "ot",
    "http",
    "rustpad",
    "text",
    "safety",
    "config",
    "backend",
    "tools",
    "mcp",
    "pad_server",
  ],
};

/** Module → its imports (code and type), for every module the entries reach. */
async function moduleGraph(
  entries: string[],
): Promise<Map<string, Set<string>>> {
  const graph = new Map<string, Set<string>>();
  for (const entry of entries) {
    const output = await new Deno.Command(Deno.execPath(), {
      args: ["info", "--json", entry],
      cwd: new URL(ROOT).pathname,
      stdout: "piped",
      stderr: "inherit",
    }).output();
    assert.ok(output.success, `deno info ${entry} failed`);
    const info = JSON.parse(new TextDecoder().decode(output.stdout));
    for (const module of info.modules) {
      const imports = graph.get(module.specifier) ?? new Set<string>();
      for (const dependency of module.dependencies ?? []) {
        for (const kind of ["code", "type"]) {
          const specifier = dependency[kind]?.specifier;
          if (typeof specifier === "string") imports.add(specifier);
        }
      }
      graph.set(module.specifier, imports);
    }
  }
  return graph;
}

const graph = await moduleGraph([
  "mod.ts",
  "src/pad_server/mod.ts",
  "src/testing/mod.ts",
]);

/** `src/<layer>/...` of a specifier in this repository, else undefined. */
function layerOf(specifier: string): string | undefined {
  const match = specifier.startsWith(ROOT) &&
    /^src\/([^/]+)\//.exec(specifier.slice(ROOT.length));
  return match ? match[1] : undefined;
}

function local(specifier: string): string {
  return specifier.slice(ROOT.length);
}

Deno.test("every module of src/ lives in a layer folder that has a mod.ts", async () => {
  const layers = new Set<string>();
  for (const specifier of graph.keys()) {
    if (!specifier.startsWith(`${ROOT}src/`)) continue;
    // src/mod.ts is the repository's index over every layer (mod.ts takes
    // its types from it), not a layer.
    if (specifier === `${ROOT}src/mod.ts`) continue;
    const layer = layerOf(specifier);
    assert.ok(
      layer !== undefined && layer in MAY_IMPORT,
      `${local(specifier)} is in no layer folder`,
    );
    layers.add(layer);
  }
  assert.deepEqual([...layers].sort(), Object.keys(MAY_IMPORT).sort());
  for (const layer of layers) {
    await Deno.stat(new URL(`src/${layer}/mod.ts`, ROOT));
  }
});

Deno.test("imports go down the layers only, and private modules stay in their folder", () => {
  const wrong: string[] = [];
  for (const [from, imports] of graph) {
    const fromLayer = layerOf(from);
    if (fromLayer === undefined) continue;
    for (const to of imports) {
      const toLayer = layerOf(to);
      if (toLayer === undefined || toLayer === fromLayer) continue;
      if (!MAY_IMPORT[fromLayer]!.includes(toLayer)) {
        wrong.push(`${local(from)} imports ${local(to)} (up or across)`);
      }
      if (to.split("/").pop()!.startsWith("_")) {
        wrong.push(`${local(from)} imports private ${local(to)}`);
      }
    }
  }
  assert.deepEqual(wrong, []);
});

/** The MCP SDK's packages: 1.x in one, v2 split in three. */
const MCP_SDK = [
  "@modelcontextprotocol/sdk",
  "@modelcontextprotocol/server",
  "@modelcontextprotocol/client",
  "@modelcontextprotocol/core",
];

Deno.test("only the MCP layer imports the MCP SDK", () => {
  const importers: string[] = [];
  for (const [from, imports] of graph) {
    if (!from.startsWith(ROOT)) continue;
    const layer = layerOf(from);
    for (const to of imports) {
      if (MCP_SDK.some((name) => to.includes(name)) && layer !== "mcp") {
        importers.push(local(from));
      }
    }
  }
  assert.deepEqual([...new Set(importers)], []);
  // The check can see an SDK import where there is one.
  assert.ok(
    [...graph.get(`${ROOT}src/mcp/server.ts`)!].some((to) =>
      to.includes("@modelcontextprotocol/server")
    ),
  );
});

Deno.test("no modules of the package import each other in a circle", () => {
  // Tarjan's strongly connected components over the package's own modules.
  const own = [...graph.keys()].filter((m) => m.startsWith(`${ROOT}src/`));
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const circles: string[][] = [];
  let next = 0;
  const visit = (module: string): void => {
    index.set(module, next);
    low.set(module, next++);
    stack.push(module);
    onStack.add(module);
    for (const to of graph.get(module) ?? []) {
      if (!to.startsWith(`${ROOT}src/`)) continue;
      if (!index.has(to)) {
        visit(to);
        low.set(module, Math.min(low.get(module)!, low.get(to)!));
      } else if (onStack.has(to)) {
        low.set(module, Math.min(low.get(module)!, index.get(to)!));
      }
    }
    if (low.get(module) === index.get(module)) {
      const circle: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        circle.push(local(member));
      } while (member !== module);
      if (circle.length > 1) circles.push(circle.sort());
    }
  };
  for (const module of own) if (!index.has(module)) visit(module);
  assert.deepEqual(circles, []);
});

Deno.test("no module of src/ is over 400 lines", async () => {
  const long: string[] = [];
  for (const specifier of graph.keys()) {
    if (!specifier.startsWith(`${ROOT}src/`)) continue;
    const lines = (await Deno.readTextFile(new URL(specifier))).split("\n");
    if (lines.length > 400) long.push(`${local(specifier)}: ${lines.length}`);
  }
  assert.deepEqual(long, []);
});
