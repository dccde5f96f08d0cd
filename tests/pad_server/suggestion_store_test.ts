import assert from "node:assert/strict";
import {
  type AgentStore,
  MemoryAgentStore,
  SqliteAgentStore,
} from "../../src/pad_server/mod.ts";
import { startPadServer } from "../../src/testing/mod.ts";
import { RawPerson } from "../_person.ts";
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

Deno.test("with a SqliteAgentStore a pad server's suggestions and agents' authors outlive it; a pending one made on the old history is outdated, saying so", async () => {
  const path = await Deno.makeTempFile({ suffix: ".sqlite" });
  try {
    {
      using agentStore = new SqliteAgentStore(path);
      await using pads = await startPadServer({
        agentSecret: SECRET,
        agentStore,
      });
      await using _person = await RawPerson.open(pads.url, "kept");
      const held = await agentApi(pads.url, "suggestions/kept", {
        identity: "",
        agent: "session-1",
        author: { name: "rustpad-mcp", hue: 200 },
        summary: "Say hi",
        revision: 0,
        operation: ["hi"],
        diff: "+hi",
        ttlMs: 60_000,
        identities: 1,
      });
      assert.equal(held.status, 201);
      const recorded = await agentApi(pads.url, "authors/kept", {
        userId: 7,
        name: "rustpad-mcp",
        identity: "",
      });
      assert.equal(recorded.status, 204);
    }
    using agentStore = new SqliteAgentStore(path);
    await using pads = await startPadServer({
      agentSecret: SECRET,
      agentStore,
    });
    const listed = await (await fetch(`${pads.url}/api/suggestions/kept`))
      .json();
    assert.equal(listed.suggestions.length, 1);
    assert.equal(listed.suggestions[0].summary, "Say hi");
    assert.equal(listed.suggestions[0].status, "outdated");
    assert.match(
      listed.suggestions[0].reason,
      /the pad restarted since it was made/,
    );
    const authors = await agentApi(pads.url, "authors/kept");
    assert.deepEqual(authors.body.authors, [
      { userId: 7, name: "rustpad-mcp", agent: true, identity: "" },
    ]);
  } finally {
    await Deno.remove(path);
  }
});
