// The HTTP server as people run it: `mod.ts --http` subprocesses, signals,
// and replicas that share nothing but RUSTPAD_CONFIRM_SECRET.

import assert from "node:assert/strict";
import { PadSession, replaceAllOperation, VERSION } from "../../src/mod.ts";
import { startPadServer } from "../../src/testing/mod.ts";
import { connectHttp, spawnCli } from "../_http.ts";
import { errorOf, structured, waitFor } from "../_mcp.ts";
import { runMod } from "./_run.ts";

const SECRET = "replicas-share-this-secret-0123456789abcdef";

Deno.test("mod.ts --http on a non-loopback address without RUSTPAD_MCP_TOKEN refuses to start with exit code 2", async () => {
  const output = await runMod(["--http", "0.0.0.0:0"]);
  assert.equal(output.code, 2);
  assert.match(
    output.stderr,
    /Cannot serve HTTP on 0\.0\.0\.0 without a token .*set RUSTPAD_MCP_TOKEN \(at least 32 characters\)/,
  );
});

Deno.test("mod.ts --http with a bad address exits 2 naming the accepted form", async () => {
  const output = await runMod(["--http", "localhost:port"]);
  assert.equal(output.code, 2);
  assert.match(
    output.stderr,
    /--http "localhost:port" is not accepted: expected \[HOST:\]PORT/,
  );
});

Deno.test("RUSTPAD_MCP_LISTEN serves HTTP without the flag, and GET /healthz answers with the version", async () => {
  await using cli = await spawnCli(
    { RUSTPAD_MCP_LISTEN: "127.0.0.1:0", RUSTPAD_URL: "http://127.0.0.1:9" },
    [],
  );
  const response = await fetch(new URL("/healthz", cli.url));
  assert.equal(response.status, 200);
  // The first probe of Rustpad has only just started.
  assert.deepEqual(await response.json(), {
    status: "ok",
    version: VERSION,
    rustpad: "unknown",
  });
});

Deno.test("SIGTERM drains: the call in flight finishes, then the process closes everything and exits 0", async () => {
  await using pads = await startPadServer();
  await using cli = await spawnCli({ RUSTPAD_URL: pads.url });
  const asked = Promise.withResolvers<void>();
  const answer = Promise.withResolvers<void>();
  await using agent = await connectHttp(cli.url, {
    elicit: async () => {
      asked.resolve();
      await answer.promise;
      return { action: "accept", content: { confirm: true } };
    },
  });
  structured(await agent.call("append_to_document", { id: "t", text: "old" }));
  const call = agent.call("set_document", { id: "t", text: "new" });
  await asked.promise;
  cli.process.kill("SIGTERM");
  await new Promise((resolve) => setTimeout(resolve, 300));
  answer.resolve();
  assert.equal(structured(await call).status, "applied");
  assert.equal(await cli.exited(), 0);
  assert.equal(pads.text("t"), "new");
  assert.match(cli.stderr(), /draining/);
  assert.match(cli.stderr(), /rustpad-mcp: stopped\n$/);
  assert.match(cli.stderr(), /POST \/mcp 200 /);
});

Deno.test("Replicas sharing RUSTPAD_CONFIRM_SECRET: a token from A is redeemed on B, then refused everywhere, even after the old text is restored", async () => {
  await using pads = await startPadServer();
  const env = {
    RUSTPAD_URL: pads.url,
    RUSTPAD_CONFIRM_SECRET: SECRET,
    ELICITATION: "false",
  };
  await using replicaA = await spawnCli(env);
  await using replicaB = await spawnCli(env);
  await using agentA = await connectHttp(replicaA.url);
  await using agentB = await connectHttp(replicaB.url);
  structured(
    await agentA.call("append_to_document", { id: "r", text: "old text" }),
  );
  const args = { id: "r", text: "new text" };
  const issued = structured(await agentA.call("set_document", args));
  assert.equal(issued.status, "confirmation_required");
  const confirm_token = issued.confirm_token as string;

  const redeemed = structured(
    await agentB.call("set_document", { ...args, confirm_token }),
  );
  assert.equal(redeemed.status, "applied");
  assert.equal(pads.text("r"), "new text");
  // Calling again now would change nothing: the pad already says "new text".
  // A person puts the old text back: the content the token was bound to.
  const person = await PadSession.open(pads.url, "r");
  try {
    await person.submit(replaceAllOperation(person.text, "old text"));
  } finally {
    await person.close();
  }
  assert.equal(pads.text("r"), "old text");
  for (const agent of [agentA, agentB]) {
    await waitFor(async () => {
      const read = structured(await agent.call("get_document", { id: "r" }));
      return read.text === "old text";
    }, "the replica to see the restored text");
  }
  // Replica A never saw the token used; the revision tells it anyway.
  assert.match(
    errorOf(await agentA.call("set_document", { ...args, confirm_token })),
    /^Cannot accept confirm_token as the pad changed since the confirmation was issued: pad "r" is at revision 3, not 1 \(someone edited it, or this token was already used\)/,
  );
  assert.match(
    errorOf(await agentB.call("set_document", { ...args, confirm_token })),
    /^Cannot accept confirm_token as it has already been used/,
  );
  assert.equal(pads.text("r"), "old text");
});

Deno.test("A replica with another secret refuses the token as not issued by it", async () => {
  await using pads = await startPadServer();
  const env = { RUSTPAD_URL: pads.url, ELICITATION: "false" };
  await using replicaA = await spawnCli({
    ...env,
    RUSTPAD_CONFIRM_SECRET: SECRET,
  });
  await using replicaC = await spawnCli({
    ...env,
    RUSTPAD_CONFIRM_SECRET: `${SECRET}-other`,
  });
  await using agentA = await connectHttp(replicaA.url);
  await using agentC = await connectHttp(replicaC.url);
  structured(await agentA.call("append_to_document", { id: "s", text: "x" }));
  const args = { id: "s", text: "y" };
  const issued = structured(await agentA.call("set_document", args));
  assert.match(
    errorOf(
      await agentC.call("set_document", {
        ...args,
        confirm_token: issued.confirm_token,
      }),
    ),
    /this server did not issue it/,
  );
  assert.equal(pads.text("s"), "x");
});

Deno.test("--http without RUSTPAD_URL says, once it serves, that it uses the public rustpad.io", async () => {
  await using cli = await spawnCli(
    { RUSTPAD_MCP_LISTEN: "127.0.0.1:0", RUSTPAD_URL: "" },
    [],
  );
  await waitFor(
    () => /RUSTPAD_URL is not set/.test(cli.stderr()),
    "the line about rustpad.io",
  );
  assert.match(
    cli.stderr(),
    /serving MCP over HTTP at \S+ for https:\/\/rustpad\.io\/ .*\nrustpad-mcp: RUSTPAD_URL is not set: using the public server https:\/\/rustpad\.io\//,
  );
});
