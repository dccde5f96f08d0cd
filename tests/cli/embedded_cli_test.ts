import assert from "node:assert/strict";
import { startPadServer } from "../../src/testing/mod.ts";
import { runMod, scratchHome } from "./_run.ts";
import { embedded } from "./_embedded.ts";
import { RawPerson } from "../_person.ts";

Deno.test("--embedded starts the pad server as a process of its own: the tools write to it and their editor URL opens its web editor", async () => {
  await using home = await scratchHome();
  await using mcp = await embedded(["--embedded"], home.env);
  const result = await mcp.call("append_to_document", {
    id: "trial",
    text: "written by the agent",
  });
  assert.equal(result.isError, undefined, JSON.stringify(result));
  assert.equal(mcp.url, `http://127.0.0.1:${home.port}/`);
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
  assert.match(mcp.stderr(), new RegExp(`serving on stdio for ${mcp.url}`));
});

Deno.test("--embedded keeps its pads in the user's data directory and its port across restarts, so an editor URL a tool answered with still opens the pad", async () => {
  await using home = await scratchHome();
  let editorUrl: string;
  {
    await using first = await embedded(["--embedded"], home.env);
    assert.match(
      first.stderr(),
      new RegExp(`\\(pads persist in ${home.padsFile}\\)`),
    );
    const result = await first.call("append_to_document", {
      id: "kept",
      text: "saved 🎉",
    });
    editorUrl = (result.structuredContent as { url: string }).url;
  }
  assert.ok((await Deno.stat(home.padsFile)).isFile);
  await using second = await embedded(["--embedded"], home.env);
  assert.equal(editorUrl, `${second.url}#kept`);
  assert.equal(
    await (await fetch(editorUrl.replace("/#", "/api/text/"))).text(),
    "saved 🎉",
  );
});

Deno.test("RUSTPAD_URL=embedded starts the embedded pad server as --embedded does, and RUSTPAD_EMBEDDED_DB=memory keeps its pads in memory only", async () => {
  await using home = await scratchHome();
  await using mcp = await embedded([], {
    ...home.env,
    RUSTPAD_URL: "Embedded",
    RUSTPAD_EMBEDDED_DB: "memory",
  });
  assert.match(mcp.stderr(), /\(pads in memory only\)/);
  await mcp.call("append_to_document", { id: "a", text: "x" });
  assert.equal(await (await fetch(`${mcp.url}api/text/a`)).text(), "x");
  await assert.rejects(Deno.stat(home.padsFile), Deno.errors.NotFound);
});

Deno.test("with RUSTPAD_EMBEDDED_DB the embedded pads survive a restart of the MCP server and of its pad server in that file", async () => {
  await using home = await scratchHome();
  const path = `${home.dir}/pads.sqlite`;
  const env = { ...home.env, RUSTPAD_EMBEDDED_DB: path };
  {
    await using first = await embedded(["--embedded"], env);
    assert.match(first.stderr(), new RegExp(`pads persist in ${path}`));
    await first.call("append_to_document", { id: "kept", text: "saved 🎉" });
  }
  assert.equal((await home.stopPadServers()).length, 1);
  await using second = await embedded(["--embedded"], env);
  assert.equal(
    await (await fetch(`${second.url}api/text/kept`)).text(),
    "saved 🎉",
  );
  const stats = await (await fetch(`${second.url}api/stats`)).json();
  assert.equal(stats.database_size, 1);
  await assert.rejects(Deno.stat(home.padsFile), Deno.errors.NotFound);
});

Deno.test("a second --embedded session joins the pad server the first started, which goes on serving the same pads on the same URL once the first stops", async () => {
  await using home = await scratchHome();
  const first = await embedded(["--embedded"], home.env);
  await using second = await embedded(["--embedded"], home.env);
  assert.equal(second.url, first.url);
  assert.match(second.stderr(), /pad server process \d+ joined/);
  await second.call("append_to_document", { id: "shared", text: "one\n" });
  assert.equal(
    await (await fetch(`${first.url}api/text/shared`)).text(),
    "one\n",
  );
  await first[Symbol.asyncDispose]();
  const result = await second.call("append_to_document", {
    id: "shared",
    text: "two\n",
  });
  assert.equal(result.isError, undefined, JSON.stringify(result));
  assert.equal(
    await (await fetch(`${second.url}api/text/shared`)).text(),
    "one\ntwo\n",
  );
  assert.doesNotMatch(second.stderr(), /stopped/);
});

Deno.test("--embedded on a port held by something other than a pad server listens on a port after it and says so", async () => {
  await using home = await scratchHome();
  await using _other = Deno.serve(
    { hostname: "127.0.0.1", port: home.port, onListen() {} },
    () => new Response("not a pad server", { status: 404 }),
  );
  await using mcp = await embedded(["--embedded"], home.env);
  assert.notEqual(mcp.url, `http://127.0.0.1:${home.port}/`);
  assert.match(
    mcp.stderr(),
    new RegExp(
      `127\\.0\\.0\\.1:${home.port} is in use by something other than a pad server: the embedded pad server listens on port \\d+ instead`,
    ),
  );
  await mcp.call("append_to_document", { id: "moved", text: "here" });
  assert.equal(await (await fetch(`${mcp.url}api/text/moved`)).text(), "here");
  const elsewhere = await fetch(`http://127.0.0.1:${home.port}/api/text/moved`);
  assert.equal(await elsewhere.text(), "not a pad server");
});

Deno.test("--embedded PORT where a pad server already answers points the tools at that server", async () => {
  await using home = await scratchHome();
  await using taken = await startPadServer();
  await using mcp = await embedded(
    ["--embedded", String(taken.port)],
    home.env,
  );
  assert.equal(mcp.url, `${taken.url}/`);
  await mcp.call("append_to_document", { id: "theirs", text: "hello" });
  assert.equal(taken.text("theirs"), "hello");
});

Deno.test("--embedded on an address other than loopback is refused in one line with exit code 2 while RUSTPAD_EMBEDDED_PUBLIC is not true", async () => {
  const { code, stdout, stderr } = await runMod(["--embedded", "0.0.0.0:0"]);
  assert.equal(code, 2);
  assert.equal(stdout, "");
  assert.deepEqual(stderr.trim().split("\n"), [
    "rustpad-mcp: Cannot serve the embedded pad server on 0.0.0.0 as pad ids are its only access control: current RUSTPAD_EMBEDDED_PUBLIC is false; set RUSTPAD_EMBEDDED_PUBLIC=true to serve it beyond loopback",
  ]);
});

Deno.test("--embedded with a value that is not [HOST:]PORT, or a pads file that cannot be used, stops with one line and exit code 2", async () => {
  await using home = await scratchHome();
  const bad = await runMod(["--embedded", "port-eighty"], home.env);
  assert.equal(bad.code, 2);
  assert.match(
    bad.stderr.trim(),
    /^rustpad-mcp: --embedded "port-eighty" is not accepted: expected \[HOST:\]PORT/,
  );
  assert.equal(bad.stderr.trim().split("\n").length, 1);
  await Deno.writeTextFile(`${home.dir}/notes.txt`, "not a database");
  const file = await runMod(["--embedded"], {
    ...home.env,
    RUSTPAD_EMBEDDED_DB: `${home.dir}/notes.txt`,
  });
  assert.equal(file.code, 2);
  assert.match(
    file.stderr.trim(),
    /^rustpad-mcp: Cannot persist pads in .*notes\.txt as it is not a usable SQLite database: .*; set RUSTPAD_EMBEDDED_DB to another file, or to memory to keep pads in memory only$/,
  );
});

Deno.test("--embedded without a HOME to find the data directory in keeps pads in memory and says how to keep them", async () => {
  await using home = await scratchHome();
  // Its pad server's files go to a temporary folder: one in the home, so
  // that disposing the home stops that pad server too.
  const env = { ...home.env, HOME: "", XDG_DATA_HOME: "", TMPDIR: home.dir };
  await using mcp = await embedded(["--embedded"], env);
  assert.match(
    mcp.stderr(),
    /\(pads in memory only, as no HOME names a data directory; set RUSTPAD_EMBEDDED_DB to keep them\)/,
  );
  await mcp.call("append_to_document", { id: "a", text: "x" });
  assert.equal(await (await fetch(`${mcp.url}api/text/a`)).text(), "x");
});

Deno.test("--embedded serves the agent's suggestions to the page's API: a person accepts one over HTTP and it lands", async () => {
  await using home = await scratchHome();
  await using mcp = await embedded(["--embedded"], home.env);
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
  await using ann = await RawPerson.open(mcp.url.replace(/\/$/, ""), "review");
  await ann.introduce("Ann");
  const decided = await fetch(
    `${mcp.url}api/suggestions/review/${suggestion_id}`,
    {
      method: "POST",
      body: JSON.stringify({ verdict: "accept", user_id: ann.id }),
    },
  );
  assert.equal(decided.status, 200);
  assert.equal((await decided.json()).decidedBy, "Ann");
  assert.equal(
    await (await fetch(`${mcp.url}api/text/review`)).text(),
    "proposed line\n",
  );
});
