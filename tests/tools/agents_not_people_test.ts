// Agents are told apart from people wherever people are listed: another
// identity's agent in the same process, and this identity's own connection
// through another replica (two `mod.ts --http` on one real redis-server),
// are neither people in get_document_info nor a person's cursor in a
// write's people_nearby. A raw-socket person is.

import assert from "node:assert/strict";
import { startPadServer } from "../../src/testing/mod.ts";
import { connectHttp, spawnCli, startHttp } from "../_http.ts";
import { RawPerson } from "../_person.ts";
import { startRedis } from "../_redis.ts";
import { structured, waitFor } from "../_mcp.ts";

const ALICE = "alice-token-0123456789-abcdefghijklmnop";
const BOB = "bob-token-0123456789-abcdefghijklmnopqrs";

interface Listed {
  name: string;
  cursors: { offset: number }[];
}

Deno.test("another identity's agent is not listed among people, nor as a person's cursor next to a write", async () => {
  await using http = await startHttp({
    identities: [{ name: "alice", token: ALICE }, { name: "bob", token: BOB }],
  });
  await using person = await RawPerson.open(http.pads.url, "room");
  person.announce("Ann");
  await using alice = await connectHttp(http.server.url, { token: ALICE });
  await using bob = await connectHttp(http.server.url, { token: BOB });
  structured(await bob.call("get_document", { id: "room" }));
  structured(
    await alice.call("append_to_document", { id: "room", text: "one\ntwo" }),
  );
  // Alice's caret follows her edit; the person puts theirs beside it.
  await waitFor(
    () => person.frames.some((frame) => frame.includes('"UserCursor"')),
    "alice's caret reaching the pad",
  );
  person.moveCursor(7);
  const people = async () =>
    structured(await bob.call("get_document_info", { id: "room" }))
      .people as Listed[];
  await waitFor(
    async () => (await people())[0]?.cursors[0]?.offset === 7,
    "the person's cursor reaching bob",
  );
  assert.deepEqual((await people()).map((listed) => listed.name), ["Ann"]);
  const written = structured(
    await bob.call("append_to_document", { id: "room", text: "!" }),
  );
  assert.deepEqual(written.people_nearby, [
    { name: "Ann", line: 2, where: "inside" },
  ]);
});

Deno.test("replicas: this identity's own connection through the other replica is not another person", async () => {
  await using pads = await startPadServer();
  await using redis = await startRedis();
  const env = { RUSTPAD_URL: pads.url, RUSTPAD_STATE_URL: redis.url };
  await using a = await spawnCli(env);
  await using b = await spawnCli(env);
  await using person = await RawPerson.open(pads.url, "shared");
  person.announce("Ann");
  await using onA = await connectHttp(a.url);
  await using onB = await connectHttp(b.url);
  structured(await onA.call("append_to_document", { id: "shared", text: "a" }));
  structured(await onB.call("append_to_document", { id: "shared", text: "b" }));
  await waitFor(() => pads.text("shared") === "ab", "both writes");
  for (const agent of [onA, onB]) {
    const info = structured(
      await agent.call("get_document_info", { id: "shared" }),
    );
    assert.deepEqual(
      (info.people as Listed[]).map((listed) => listed.name),
      ["Ann"],
    );
    assert.equal(info.more_people, undefined);
  }
  // B's caret is at the end after its write; the person's goes there too.
  await waitFor(
    () =>
      person.frames.filter((frame) => frame.includes('"UserCursor"')).length >=
        2,
    "both agents' carets reaching the pad",
  );
  person.moveCursor(2);
  await waitFor(
    async () =>
      (structured(await onA.call("get_document_info", { id: "shared" }))
        .people as Listed[])[0]?.cursors[0]?.offset === 2,
    "the person's cursor reaching replica A",
  );
  const written = structured(
    await onA.call("append_to_document", { id: "shared", text: "!" }),
  );
  assert.deepEqual(written.people_nearby, [
    { name: "Ann", line: 1, where: "inside" },
  ]);
});
