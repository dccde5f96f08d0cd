import assert from "node:assert/strict";
// @ts-types="@modelcontextprotocol/sdk/client/index"
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
// @ts-types="@modelcontextprotocol/sdk/client/stdio"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
// @ts-types="@modelcontextprotocol/sdk/types"
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { startPadServer } from "../../src/testing/mod.ts";
import { waitFor } from "../_wait.ts";
import { MOD, runMod } from "./_run.ts";

const BANNER =
  /embedded pad server at (http:\/\/127\.0\.0\.1:\d+\/) \((.*?)\); open \1#NAME in a browser/;

interface Embedded extends AsyncDisposable {
  client: Client;
  /** The pad server's base URL, from the line on stderr. */
  url: string;
  stderr: () => string;
  call(name: string, args: Record<string, unknown>): Promise<CallToolResult>;
}

/** `mod.ts` with `args` on stdio through the SDK client. */
async function embedded(
  args: string[],
  env: Record<string, string> = {},
): Promise<Embedded> {
  const transport = new StdioClientTransport({
    command: Deno.execPath(),
    args: ["run", "-A", MOD, ...args],
    env: { NO_COLOR: "1", PATH: Deno.env.get("PATH") ?? "", ...env },
    stderr: "pipe",
  });
  let stderr = "";
  transport.stderr?.on("data", (chunk: Uint8Array) => {
    stderr += new TextDecoder().decode(chunk);
  });
  const client = new Client({ name: "embedded-test", version: "1.0.0" });
  await client.connect(transport);
  await waitFor(() => BANNER.test(stderr), "the embedded pad server's URL");
  return {
    client,
    url: BANNER.exec(stderr)![1]!,
    stderr: () => stderr,
    call: async (name, args) =>
      await client.callTool({ name, arguments: args }) as CallToolResult,
    async [Symbol.asyncDispose]() {
      await client.close();
    },
  };
}

Deno.test("--embedded runs the pad server in the MCP server's process: the tools write to it and their editor URL opens its web editor", async () => {
  await using mcp = await embedded(["--embedded"]);
  const result = await mcp.call("append_to_document", {
    id: "trial",
    text: "written by the agent",
  });
  assert.equal(result.isError, undefined, JSON.stringify(result));
  assert.equal(
    await (await fetch(`${mcp.url}api/text/trial`)).text(),
    "written by the agent",
  );
  const editorUrl = JSON.stringify(result).match(
    /http:\/\/127\.0\.0\.1:\d+\/#trial/,
  )?.[0];
  assert.equal(editorUrl, `${mcp.url}#trial`);
  const page = await fetch(editorUrl!);
  assert.equal(page.status, 200);
  assert.match(await page.text(), /<title>Rustpad<\/title>/);
  assert.match(mcp.stderr(), /pads in memory only/);
  assert.match(mcp.stderr(), new RegExp(`serving on stdio for ${mcp.url}`));
});

Deno.test("RUSTPAD_URL=embedded starts the embedded pad server as --embedded does", async () => {
  await using mcp = await embedded([], { RUSTPAD_URL: "Embedded" });
  await mcp.call("append_to_document", { id: "a", text: "x" });
  assert.equal(await (await fetch(`${mcp.url}api/text/a`)).text(), "x");
});

Deno.test("with RUSTPAD_EMBEDDED_DB the embedded pads survive a restart of the MCP server", async () => {
  const dir = await Deno.makeTempDir();
  const path = `${dir}/pads.sqlite`;
  try {
    {
      await using first = await embedded(["--embedded"], {
        RUSTPAD_EMBEDDED_DB: path,
      });
      assert.match(first.stderr(), new RegExp(`pads persist in ${path}`));
      await first.call("append_to_document", { id: "kept", text: "saved 🎉" });
    }
    await using second = await embedded(["--embedded"], {
      RUSTPAD_EMBEDDED_DB: path,
    });
    assert.equal(
      await (await fetch(`${second.url}api/text/kept`)).text(),
      "saved 🎉",
    );
    const stats = await (await fetch(`${second.url}api/stats`)).json();
    assert.equal(stats.database_size, 1);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("--embedded on an address other than loopback is refused in one line with exit code 2 while RUSTPAD_EMBEDDED_PUBLIC is not true", async () => {
  const { code, stdout, stderr } = await runMod(["--embedded", "0.0.0.0:0"]);
  assert.equal(code, 2);
  assert.equal(stdout, "");
  assert.deepEqual(stderr.trim().split("\n"), [
    "rustpad-mcp: Cannot serve the embedded pad server on 0.0.0.0 as pad ids are its only access control: current RUSTPAD_EMBEDDED_PUBLIC is false; set RUSTPAD_EMBEDDED_PUBLIC=true to serve it beyond loopback",
  ]);
});

Deno.test("--embedded on a port in use, or with a value that is not [HOST:]PORT, stops with one line and exit code 2", async () => {
  await using taken = await startPadServer();
  const busy = await runMod(["--embedded", String(taken.port)]);
  assert.equal(busy.code, 2);
  assert.deepEqual(busy.stderr.trim().split("\n"), [
    `rustpad-mcp: Cannot serve the embedded pad server on 127.0.0.1:${taken.port} as the address is in use: choose another port, or none for a free one`,
  ]);
  const bad = await runMod(["--embedded", "port-eighty"]);
  assert.equal(bad.code, 2);
  assert.match(
    bad.stderr.trim(),
    /^rustpad-mcp: --embedded "port-eighty" is not accepted: expected \[HOST:\]PORT/,
  );
  assert.equal(bad.stderr.trim().split("\n").length, 1);
});

Deno.test("--embedded serves the agent's suggestions to the page's API: a person accepts one over HTTP and it lands", async () => {
  await using mcp = await embedded(["--embedded"]);
  const held = await mcp.call("append_to_document", {
    id: "review",
    text: "proposed line\n",
    suggest: true,
  });
  const { suggestion_id } = held.structuredContent as { suggestion_id: string };
  assert.equal(await (await fetch(`${mcp.url}api/text/review`)).text(), "");
  const listed = await (await fetch(`${mcp.url}api/suggestions/review`)).json();
  assert.deepEqual(
    listed.suggestions.map((s: { id: string; status: string }) => [
      s.id,
      s.status,
    ]),
    [[suggestion_id, "pending"]],
  );
  assert.equal(listed.agentIds.length, 1);
  const decided = await fetch(
    `${mcp.url}api/suggestions/review/${suggestion_id}`,
    { method: "POST", body: JSON.stringify({ verdict: "accept", by: "Ann" }) },
  );
  assert.equal(decided.status, 200);
  assert.equal((await decided.json()).decidedBy, "Ann");
  assert.equal(
    await (await fetch(`${mcp.url}api/text/review`)).text(),
    "proposed line\n",
  );
});
