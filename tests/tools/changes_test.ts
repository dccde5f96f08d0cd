import assert from "node:assert/strict";
import { connect, structured } from "../_mcp.ts";
import { RawPerson } from "../_person.ts";
import { startPadServer } from "../../src/testing/mod.ts";
import { untilServerSees } from "./_pads.ts";

interface Changes {
  revision: number;
  hunks: {
    start_line: number;
    end_line: number;
    authors: { name: string; self: boolean }[];
    text: string;
  }[];
  lines?: {
    start_line: number;
    end_line: number;
    author: { name: string; self: boolean };
    revision: number;
  }[];
}

Deno.test("get_changes names who wrote each line after three people and the agent wrote, and what changed since a revision", async () => {
  await using h = await connect();
  structured(
    await h.call("append_to_document", { id: "c-four", text: "agent\n" }),
  );
  const people = await Promise.all(
    ["Ann", "Bo", ""].map(async (name) => {
      const person = await RawPerson.open(h.pads.url, "c-four");
      if (name !== "") person.announce(name);
      return person;
    }),
  );
  try {
    await people[0]!.type(6, "ann\n");
    await people[1]!.type(10, "bo\n");
    const since = people[1]!.revision;
    await people[2]!.type(13, "nameless\n");
    // Ann edits inside the agent's line: the line's last writer is Ann.
    await people[0]!.type(2, "X");
    await untilServerSees(h, "c-four", people[0]!.revision);
    const all = structured(
      await h.call("get_changes", { id: "c-four", start_line: 1 }),
    ) as unknown as Changes;
    const unnamed = `user ${people[2]!.id}`;
    assert.deepEqual(
      all.lines?.map((line) => [line.start_line, line.author.name]),
      [[1, "Ann"], [2, "Ann"], [3, "Bo"], [4, unnamed]],
    );
    assert.equal(all.lines?.[2]?.revision, 1 + 4 + 3);
    // One hunk since revision 0: the whole text, all four writers.
    assert.deepEqual(
      all.hunks.map((hunk) => hunk.authors.map((a) => a.name).sort()),
      [["Ann", "Bo", "you", unnamed].sort()],
    );
    assert.ok(
      all.hunks[0]!.authors.some((a) => a.name === "you" && a.self === true),
    );

    const recent = structured(
      await h.call("get_changes", { id: "c-four", since_revision: since }),
    ) as unknown as Changes;
    assert.equal(recent.lines, undefined);
    assert.deepEqual(
      recent.hunks.map((hunk) => [hunk.start_line, hunk.end_line, hunk.text]),
      [[1, 1, "X"], [4, 4, "nameless\n"]],
    );
    assert.deepEqual(recent.hunks[1]!.authors, [{
      name: unnamed,
      self: false,
    }]);
  } finally {
    for (const person of people) await person[Symbol.asyncDispose]();
  }
});

Deno.test("get_changes calls the text a restarted pad server reloaded 'restored'", async () => {
  await using pads = await startPadServer({
    pads: { "c-restored": { text: "old\n" } },
  });
  await using h = await connect({ pads });
  structured(
    await h.call("append_to_document", { id: "c-restored", text: "new\n" }),
  );
  const changes = structured(
    await h.call("get_changes", {
      id: "c-restored",
      start_line: 1,
      end_line: 2,
    }),
  ) as unknown as Changes;
  assert.deepEqual(
    changes.lines?.map((
      line,
    ) => [line.start_line, line.author.name, line.revision]),
    [[1, "restored", 1], [2, "you", 2]],
  );
});

/**
 * `count` numbered lines of 10 code points (12 UTF-16 units) each, an
 * astral character in every one.
 */
function astralLines(count: number): string {
  return Array.from(
    { length: count },
    (_, k) => `${String(k + 1).padStart(5, "0")} 😀 é\n`,
  ).join("");
}

Deno.test("get_changes since a revision finds what was written since at its lines in a long pad of astral characters, wherever the pad's chunks end", async () => {
  await using h = await connect();
  // Many chunks.
  structured(
    await h.call("append_to_document", {
      id: "c-long",
      text: astralLines(3000),
    }),
  );
  await using person = await RawPerson.open(h.pads.url, "c-long");
  const since = person.revision;
  await person.type(10 * 1499, "NEW1\n");
  // Line 2,999 is line 3,000 now, 5 code points on; into it after "02999 😀".
  await person.type(10 * 2998 + 5 + 7, "NEW2");
  await untilServerSees(h, "c-long", person.revision);
  const recent = structured(
    await h.call("get_changes", { id: "c-long", since_revision: since }),
  ) as unknown as Changes;
  assert.deepEqual(
    recent.hunks.map((hunk) => [hunk.start_line, hunk.end_line, hunk.text]),
    [[1500, 1500, "NEW1\n"], [3000, 3000, "NEW2"]],
  );
  const text = await (await fetch(`${h.pads.url}/api/text/c-long`)).text();
  assert.equal(text.split("\n")[2999], "02999 😀NEW2 é");
});

Deno.test("get_changes cuts a hunk past 2,000 code points and counts the whole hunk in code points, astral characters and a person's later line included", async () => {
  await using h = await connect();
  const text = astralLines(300);
  structured(await h.call("append_to_document", { id: "c-cut", text }));
  await using person = await RawPerson.open(h.pads.url, "c-cut");
  await person.type(3000, "by a person 😀\n");
  await untilServerSees(h, "c-cut", person.revision);
  const changes = structured(
    await h.call("get_changes", { id: "c-cut" }),
  ) as unknown as Changes;
  assert.equal(changes.hunks.length, 1);
  const [hunk] = changes.hunks;
  const marker = " [cut: 3014 code points in all; read_lines shows them]";
  assert.ok(hunk!.text.endsWith(`…${marker}`), hunk!.text.slice(-80));
  const shown = hunk!.text.slice(0, -marker.length - 1);
  assert.equal([...shown].length, 2000);
  assert.equal(shown, [...text].slice(0, 2000).join(""));
  assert.deepEqual([hunk!.start_line, hunk!.end_line], [1, 301]);
});
