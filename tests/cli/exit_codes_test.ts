// The command line refuses a configuration it cannot serve with exit code 2
// and one line on stderr, before it starts anything: over stdio as over
// --http, and with --embedded as without.

import assert from "node:assert/strict";
import { runMod, scratchHome } from "./_run.ts";
import { freePort } from "../_free_port.ts";

Deno.test("stdio with RUSTPAD_STATE_URL on a port nothing serves exits 2 with one line naming Redis, as --http does", async () => {
  const closed = `redis://127.0.0.1:${freePort()}`;
  for (const args of [[], ["--http", "127.0.0.1:0"]]) {
    const { code, stdout, stderr } = await runMod(args, {
      RUSTPAD_URL: "http://127.0.0.1:9/",
      RUSTPAD_STATE_URL: closed,
    });
    assert.equal(code, 2, `${args.join(" ")}: ${stderr}`);
    assert.equal(stdout, "");
    const lines = stderr.trim().split("\n");
    assert.equal(lines.length, 1, stderr);
    assert.match(
      lines[0]!,
      /^rustpad-mcp: Cannot start as Redis at redis:\/\/127\.0\.0\.1:\d+ \(RUSTPAD_STATE_URL\) refused the connection/,
    );
  }
});

Deno.test("--http 0.0.0.0 --embedded without a token exits 2 with one line before the pad server starts", async () => {
  await using home = await scratchHome();
  const { code, stdout, stderr } = await runMod(
    ["--http", `0.0.0.0:${freePort()}`, "--embedded"],
    { ...home.env, RUSTPAD_EMBEDDED_DB: "memory" },
  );
  assert.equal(code, 2, stderr);
  assert.equal(stdout, "");
  assert.equal(
    stderr,
    "rustpad-mcp: Cannot serve HTTP on 0.0.0.0 without a token as anyone who can reach it could edit pads: set RUSTPAD_MCP_TOKEN (at least 32 characters) or RUSTPAD_MCP_TOKENS, or listen on 127.0.0.1\n",
  );
  assert.doesNotMatch(stderr, /embedded pad server at/);
  // Nothing listened on the pad server's port.
  const free = Deno.listen({ hostname: "127.0.0.1", port: home.port });
  free.close();
});

Deno.test("RUSTPAD_MCP_LISTEN=0.0.0.0:PORT without a token is refused the same way", async () => {
  const { code, stderr } = await runMod([], {
    RUSTPAD_URL: "http://127.0.0.1:9/",
    RUSTPAD_MCP_LISTEN: `0.0.0.0:${freePort()}`,
  });
  assert.equal(code, 2, stderr);
  assert.match(
    stderr,
    /^rustpad-mcp: Cannot serve HTTP on 0\.0\.0\.0 without a token/,
  );
});
