import assert from "node:assert/strict";
import {
  type AgentStore,
  MemoryAgentStore,
  PadDatabase,
  SqliteAgentStore,
  SqlitePadDatabase,
} from "../../src/pad_server/mod.ts";
import { startPadServer } from "../../src/testing/mod.ts";
import { RawPerson } from "../_person.ts";
import { TextOperation } from "../../src/mod.ts";
import { agentApi, SECRET } from "./_agents.ts";

const stores: [string, () => AgentStore & Partial<Disposable>][] = [
  ["MemoryAgentStore", () => new MemoryAgentStore()],
  ["SqliteAgentStore", () => new SqliteAgentStore(":memory:")],
];

for (const [name, make] of stores) {
  Deno.test(`${name} keeps suggestions by pad, counts the pending ones per pad and identity, and replaces an author by user id`, () => {
    const store = make();
    store.putSuggestion("a", {
      id: "1",
      identity: "alice",
      pending: true,
      json: "{1}",
    });
    store.putSuggestion("a", {
      id: "2",
      identity: "bob",
      pending: true,
      json: "{2}",
    });
    store.putSuggestion("b", {
      id: "3",
      identity: "alice",
      pending: true,
      json: "{3}",
    });
    store.putSuggestion("b", {
      id: "4",
      identity: "alice",
      pending: false,
      json: "{4}",
    });
    const counts = store.pending("a", "alice");
    assert.deepEqual(
      { ...counts, identities: [...counts.identities].sort() },
      {
        pad: 2,
        padByIdentity: 1,
        total: 3,
        totalByIdentity: 2,
        identities: ["alice", "bob"],
      },
    );
    store.putSuggestion("a", {
      id: "1",
      identity: "alice",
      pending: false,
      json: "{1'}",
    });
    assert.equal(store.suggestion("a", "1")?.json, "{1'}");
    assert.equal(store.pending("a", "alice").padByIdentity, 0);
    store.removeSuggestion("a", "2");
    assert.deepEqual(store.suggestions("a").map((s) => s.id), ["1"]);
    assert.equal(store.suggestion("a", "2"), undefined);
    store.putAuthor("a", { userId: 3, name: "old", agent: true, identity: "" });
    store.putAuthor("a", {
      userId: 3,
      name: "new",
      agent: true,
      identity: "x",
    });
    assert.deepEqual(store.authors("a"), [
      { userId: 3, name: "new", agent: true, identity: "x" },
    ]);
    assert.deepEqual(store.authors("b"), []);
    store[Symbol.dispose]?.();
  });
}

/** Hold "Say hi" at revision 1 of pad "kept" (after a person's "hello"). */
async function holdOne(url: string): Promise<void> {
  const held = await agentApi(url, "suggestions/kept", {
    identity: "",
    agent: "session-1",
    author: { name: "rustpad-mcp", hue: 200 },
    summary: "Say hi",
    revision: 1,
    operation: [5, " hi"],
    diff: "-hello\n+hello hi",
    ttlMs: 60_000,
    identities: 1,
  });
  assert.equal(held.status, 201, JSON.stringify(held.body));
  const recorded = await agentApi(url, "authors/kept", {
    userId: 7,
    name: "rustpad-mcp",
    identity: "",
  });
  assert.equal(recorded.status, 204);
}

Deno.test("with the pads' SQLite file, a pad server's pending suggestions and agents' authors outlive it: after a restart the suggestion is still pending and a person's accept lands on the same history", async () => {
  const path = await Deno.makeTempFile({ suffix: ".sqlite" });
  try {
    {
      using database = new SqlitePadDatabase(path);
      await using pads = await startPadServer({
        database,
        agentSecret: SECRET,
        agentStore: database.agentStore(),
      });
      await using person = await RawPerson.open(pads.url, "kept");
      await person.edit(new TextOperation().insert("hello"));
      await holdOne(pads.url);
    }
    using database = new SqlitePadDatabase(path);
    await using pads = await startPadServer({
      database,
      agentSecret: SECRET,
      agentStore: database.agentStore(),
    });
    await using person = await RawPerson.open(pads.url, "kept");
    const listed = await (await fetch(`${pads.url}/api/suggestions/kept`))
      .json();
    assert.equal(listed.suggestions.length, 1);
    assert.equal(listed.suggestions[0].summary, "Say hi");
    assert.equal(listed.suggestions[0].status, "pending");
    const decided = await fetch(
      `${pads.url}/api/suggestions/kept/${listed.suggestions[0].id}`,
      { method: "POST", body: JSON.stringify({ verdict: "accept" }) },
    );
    assert.equal(decided.status, 200, await decided.clone().text());
    assert.equal(
      await (await fetch(`${pads.url}/api/text/kept`)).text(),
      "hello hi",
    );
    const authors = await agentApi(pads.url, "authors/kept");
    assert.ok(
      (authors.body.authors as { userId: number; name: string }[]).some((
        author,
      ) => author.userId === 7 && author.name === "rustpad-mcp"),
      JSON.stringify(authors.body),
    );
    void person;
  } finally {
    await Deno.remove(path);
  }
});

Deno.test("with snapshots only (a pad server that restarts as Rustpad does, at revision 1), a pending suggestion made on the old history is outdated, saying so", async () => {
  const pads = new PadDatabase();
  using agentStore = new SqliteAgentStore(":memory:");
  {
    await using server = await startPadServer({
      database: pads,
      agentSecret: SECRET,
      agentStore,
    });
    await using person = await RawPerson.open(server.url, "kept");
    await person.edit(new TextOperation().insert("hello"));
    await holdOne(server.url);
    await person.type(5, "!");
    server.snapshot();
  }
  await using server = await startPadServer({
    database: pads,
    agentSecret: SECRET,
    agentStore,
  });
  await using _person = await RawPerson.open(server.url, "kept");
  const listed = await (await fetch(`${server.url}/api/suggestions/kept`))
    .json();
  assert.equal(listed.suggestions[0].status, "outdated");
  assert.match(
    listed.suggestions[0].reason,
    /the pad restarted since it was made/,
  );
});
