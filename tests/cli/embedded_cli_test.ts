import assert from "node:assert/strict";
import { startPadServer } from "../../src/testing/mod.ts";
import { runMod } from "./_run.ts";
import { embedded } from "./_embedded.ts";

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
