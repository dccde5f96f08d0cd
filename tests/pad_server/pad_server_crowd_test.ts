// Crowds over real sockets: more idle connections than the process may
// open files, under `ulimit -n`, against the MCP server with its embedded
// pad server; and 2,000 sockets leaving one pad at once, while a person
// types on another. The process stays up, other pads keep answering,
// nothing applied is lost.

import assert from "node:assert/strict";
import { embedded } from "../cli/_embedded.ts";
import { scratchHome } from "../cli/_run.ts";
import { RawSocket } from "../../bench/_raw_socket.ts";
import { spawnServer } from "../../bench/_speed_tools.ts";
import { Crowd, firstFrame } from "./_crowd.ts";

/** Open `count` TCP connections to `url` that send nothing, as they can. */
async function idleConnections(url: string, count: number) {
  const { hostname, port } = new URL(url);
  const conns: Deno.TcpConn[] = [];
  for (let i = 0; i < count; i++) {
    try {
      conns.push(await Deno.connect({ hostname, port: Number(port) }));
    } catch {
      // Refused by a full backlog: that is the bound holding.
    }
  }
  return conns;
}

Deno.test("1,100 idle connections at ulimit -n 1024 neither stop the MCP server and its embedded pad server nor an open pad, and once gone new ones are served", async () => {
  await using home = await scratchHome();
  await using mcp = await embedded(["--embedded"], home.env, 1024);
  const typist = await RawSocket.open(mcp.url.replace(/\/$/, ""), "live");
  const flood = await idleConnections(mcp.url, 1100);
  try {
    // A pad already open keeps answering, and so do the tools.
    await typist.append("typed during the flood");
    const result = await mcp.call("append_to_document", {
      id: "agent",
      text: "written during the flood",
    });
    assert.equal(result.isError, undefined, JSON.stringify(result));
    // The pad server, a process of its own, says it in its log.
    const log = home.padsFile.replace(/\.sqlite$/, ".server.log");
    assert.match(
      await Deno.readTextFile(log),
      /Closed the connection idle longest as 768 are open \(RUSTPAD_EMBEDDED_MAX_CONNECTIONS\): serving a new one/,
    );
  } finally {
    for (const conn of flood) conn.close();
  }
  let text = "";
  for (let i = 0; i < 100 && text === ""; i++) {
    text = await fetch(`${mcp.url}api/text/live`).then((r) => r.text())
      .catch(() => "");
    if (text === "") await new Promise((resolve) => setTimeout(resolve, 50));
  }
  assert.equal(text, "typed during the flood");
  const read = await mcp.call("get_document", { id: "agent" });
  assert.match(JSON.stringify(read), /written during the flood/);
  typist.close();
});

Deno.test("2,000 sockets leaving one pad at once are all freed, while 100 edits on another pad all land", async () => {
  const server = await spawnServer([
    new URL("../../src/pad_server/pad_server.ts", import.meta.url).pathname,
    "--max-connections",
    "2100",
    "--max-sockets-per-pad",
    "2000",
  ]);
  try {
    const typist = await RawSocket.open(server.url, "other");
    const crowd = await Crowd.open(server.url, "crowd", 2000);
    const full = await firstFrame(server.url, "crowd");
    assert.match(full.text ?? "", /^1013 Cannot join the pad as 2000 sockets/);
    crowd.leave();
    for (let i = 0; i < 100; i++) await typist.append("x");
    // Freed: a socket is taken again (guarded, not timed).
    let probe = await firstFrame(server.url, "crowd");
    for (let i = 0; i < 600 && probe.opcode !== 1; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      probe = await firstFrame(server.url, "crowd");
    }
    assert.deepEqual([probe.opcode, probe.text], [1, '{"Identity":2000}']);
    const text = await (await fetch(`${server.url}/api/text/other`)).text();
    assert.equal(text, "x".repeat(100));
    typist.close();
  } finally {
    server.child.kill();
    await server.child.status;
  }
});
