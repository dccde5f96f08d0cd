import assert from "node:assert/strict";
// @ts-types="@modelcontextprotocol/sdk/client/index"
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
// @ts-types="@modelcontextprotocol/sdk/client/stdio"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ENTRY, staleness, unfurl } from "../../scripts/build.ts";
import { startPadServer } from "../../src/testing/mod.ts";
import { embedded } from "../cli/_embedded.ts";
import { serverPid } from "../cli/_pad_home.ts";
import { scratchHome } from "../cli/_run.ts";
import { initialize, spawnCli } from "../_http.ts";
import { childEnv } from "../_child_env.ts";

const ROOT = new URL("../../", import.meta.url);

Deno.test("the committed built entry (bundle/) was built from the sources as they are now: run deno task build after changing them", async () => {
  assert.equal(await staleness(), undefined);
});

Deno.test("the package's main export is the built entry, typed and documented by mod.ts (tests/mod_test.ts checks its types by name)", async () => {
  const config = JSON.parse(
    await Deno.readTextFile(new URL("deno.json", ROOT)),
  ) as { exports: Record<string, string> };
  assert.equal(config.exports["."], "./bundle/mod.js");
  const built = await Deno.readTextFile(ENTRY);
  assert.equal(built.split("\n", 1)[0], '// @ts-self-types="../mod.ts"');
});

Deno.test("the built entry names its npm packages as deno.json pins them, so it resolves the same without this project's import map", () => {
  const imports = {
    "zod": "npm:zod@4.6.7",
    "@scope/pkg/": "npm:/@scope/pkg@1.2.3/",
  };
  assert.equal(
    unfurl(
      'import{z as a}from"zod";import"@scope/pkg/x.js";const b=import("@scope/pkg/y");',
      imports,
    ),
    'import{z as a}from"npm:zod@4.6.7";import"npm:/@scope/pkg@1.2.3/x.js";const b=import("npm:/@scope/pkg@1.2.3/y");',
  );
  // Relative and qualified names stay; so does text that only looks like
  // an import, such as the editor page's, held in a string.
  const kept = 'import"./chunk-A.js";from"node:util";s=`import":204,"`;';
  assert.equal(unfurl(kept, imports), kept);
  assert.throws(
    () => unfurl('import{x}from"left-pad";', imports),
    /imports "left-pad", which deno.json's imports do not name/,
  );
});

Deno.test("the built entry serves MCP on stdio, outside this project and without its configuration: it lists the tools, and an append lands on the pad", async () => {
  await using pad = await startPadServer();
  const elsewhere = await Deno.makeTempDir({ prefix: "rustpad-built-" });
  const client = new Client({ name: "build-test", version: "1.0.0" });
  await client.connect(
    new StdioClientTransport({
      command: Deno.execPath(),
      args: ["run", "-A", "--no-config", ENTRY.pathname],
      cwd: elsewhere,
      env: childEnv({ RUSTPAD_URL: pad.url, RUSTPAD_CONFIRM: "never" }),
      stderr: "ignore",
    }),
  );
  try {
    const { tools } = await client.listTools();
    assert.ok(tools.some((tool) => tool.name === "append_to_document"));
    const result = await client.callTool({
      name: "append_to_document",
      arguments: { id: "built", text: "from the bundle" },
    });
    assert.equal(result.isError, undefined, JSON.stringify(result));
    assert.equal(
      await (await fetch(`${pad.url}/api/text/built`)).text(),
      "from the bundle",
    );
    // What loads on first use comes from the bundle's own chunks: RE2 for
    // a regex, the pad's view for chats.
    const found = await client.callTool({
      name: "search_document",
      arguments: { id: "built", pattern: "b[a-z]+e", regex: true },
    });
    assert.equal(found.isError, undefined, JSON.stringify(found));
    assert.match(JSON.stringify(found.structuredContent), /bundle/);
    const view = await client.readResource({ uri: "ui://rustpad/pad" });
    assert.match(JSON.stringify(view.contents[0]), /<html/i);
  } finally {
    await client.close();
    await Deno.remove(elsewhere, { recursive: true });
  }
});

Deno.test("the built entry's --embedded starts the pad server from the built entry, and the tools write to it", async () => {
  await using home = await scratchHome();
  await using mcp = await embedded(
    ["--embedded"],
    home.env,
    undefined,
    ENTRY.pathname,
  );
  const result = await mcp.call("append_to_document", {
    id: "trial",
    text: "written through the bundle",
  });
  assert.equal(result.isError, undefined, JSON.stringify(result));
  assert.equal(
    await (await fetch(`${mcp.url}api/text/trial`)).text(),
    "written through the bundle",
  );
  assert.match(
    await (await fetch(mcp.url)).text(),
    /<title>Rustpad<\/title>/,
  );
  // The pad server is the built entry's own `pad-server`.
  const pid = await serverPid(home);
  const command = (await Deno.readTextFile(`/proc/${pid}/cmdline`)).split("\0");
  const at = command.indexOf(ENTRY.href);
  assert.ok(at > 0, command.join(" "));
  assert.equal(command[at + 1], "pad-server");
});

Deno.test("the built entry serves MCP over HTTP with --http", async () => {
  await using server = await spawnCli(
    { RUSTPAD_URL: "http://127.0.0.1:9" },
    ["--http", "127.0.0.1:0"],
    { entry: ENTRY.pathname },
  );
  const answer = await initialize(server.url);
  assert.equal(answer.status, 200);
  assert.match(await answer.text(), /"serverInfo":\{"name":"rustpad-mcp"/);
});
