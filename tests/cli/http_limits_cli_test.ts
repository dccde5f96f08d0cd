// The HTTP server's bounds as people run it: `mod.ts --http` under a small
// `ulimit -n`, flooded with idle connections until accept fails with
// EMFILE; and listen addresses that do not resolve.

import assert from "node:assert/strict";
import { startPadServer } from "../../src/testing/mod.ts";
import { connectHttp, spawnCli } from "../_http.ts";
import { structured, waitFor } from "../_mcp.ts";
import { RawPerson } from "../_person.ts";
import { RawConnection } from "../_tcp.ts";
import { runMod } from "./_run.ts";

/** A process's resident memory in MiB, from /proc. */
async function residentMiB(pid: number): Promise<number> {
  const status = await Deno.readTextFile(`/proc/${pid}/status`);
  const kib = Number(/^VmRSS:\s+(\d+) kB/m.exec(status)?.[1]);
  return kib / 1024;
}

Deno.test("Under ulimit -n 64 a flood of idle connections hits EMFILE: the server logs it, stays up, loses nothing and serves again", async () => {
  await using pads = await startPadServer();
  await using cli = await spawnCli(
    { RUSTPAD_URL: pads.url, RUSTPAD_MCP_REQUEST_TIMEOUT_MS: "500" },
    ["--http", "127.0.0.1:0"],
    { fileLimit: 64 },
  );
  assert.match(
    cli.stderr(),
    /serving at most 48 connections, not RUSTPAD_MCP_MAX_CONNECTIONS=1024, as the process may open only 64 files/,
  );
  await using person = await RawPerson.open(pads.url, "other");
  {
    await using agent = await connectHttp(cli.url);
    structured(await agent.call("append_to_document", { id: "e", text: "1" }));
    structured(
      await agent.call("append_to_document", { id: "other", text: "a" }),
    );
  }
  const flood = await Promise.all(
    Array.from({ length: 120 }, () => RawConnection.open(cli.url, "GET /m")),
  );
  try {
    await waitFor(
      () =>
        /Cannot accept a connection as Too many open files/.test(cli.stderr()),
      "an accept error on stderr",
    );
    // The pad connections the server holds keep working meanwhile.
    await waitFor(() => person.text === "a", "the person to see the append");
    await person.type(1, "b");
    await waitFor(() => pads.text("other") === "ab", "the person's edit");
  } finally {
    for (const connection of flood) connection[Symbol.dispose]();
  }
  // Once the flood is gone the server serves again, on new connections.
  await waitFor(async () => {
    try {
      const health = await fetch(new URL("/healthz", cli.url));
      await health.body?.cancel();
      return health.status === 200;
    } catch {
      return false;
    }
  }, "/healthz to answer again");
  await using agent = await connectHttp(cli.url);
  structured(await agent.call("append_to_document", { id: "e", text: "2" }));
  assert.equal(pads.text("e"), "12");
  const read = structured(await agent.call("get_document", { id: "other" }));
  assert.equal(read.text, "ab");
  assert.ok(await residentMiB(cli.process.pid) < 512);
  assert.doesNotMatch(cli.stderr(), /Uncaught|panicked/);
  assert.doesNotMatch(cli.stderr(), /rustpad-mcp: stopped/);
});

Deno.test("mod.ts --http with a host name that does not resolve exits 2 with one line", async () => {
  // With a token, so that the refusal is the host name's, not the token's.
  const output = await runMod(["--http", "127.0.0.1.attacker.example:0"], {
    RUSTPAD_MCP_TOKEN: "t".repeat(32),
  });
  assert.equal(output.code, 2);
  const stderr = output.stderr;
  assert.equal(stderr.trimEnd().split("\n").length, 1, stderr);
  assert.match(
    stderr,
    /^rustpad-mcp: Cannot listen on 127\.0\.0\.1\.attacker\.example:0 as the host name does not resolve/,
  );
});
