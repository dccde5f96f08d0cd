// What people put in a pad is bounded when it arrives: a name or language of
// millions of characters is cut to 64 code points and marked, a thousand
// cursors to 16, and an answer lists at most 100 people, saying how many
// more there are. The people here are raw sockets; the pad's state is read
// over the pad server's HTTP API.

import assert from "node:assert/strict";
import { connect, structured, textOf, waitFor } from "../_mcp.ts";
import { RawPerson } from "../_person.ts";
import { PadSession, TextOperation } from "../../src/mod.ts";

const HUGE = 2_000_000;

interface Info {
  users: string[];
  people: {
    name: string;
    name_truncated?: boolean;
    cursors: unknown[];
    selections: unknown[];
  }[];
  more_people?: number;
  language: string | null;
}

async function infoOf(
  h: Awaited<ReturnType<typeof connect>>,
  id: string,
): Promise<Info> {
  return structured(
    await h.call("get_document_info", { id }),
  ) as unknown as Info;
}

Deno.test("a person's 2,000,000-character name and 1,000 cursors arrive cut: 64 code points marked as cut, 16 cursors, a small answer", async () => {
  await using h = await connect();
  const id = "huge-name";
  await h.call("append_to_document", { id, text: "a".repeat(2000) });
  await using person = await RawPerson.open(h.pads.url, id);
  person.announce("🎉".repeat(HUGE / 2));
  const spread = Array.from({ length: 1000 }, (_, i) => i);
  person.sendCursors(spread, spread.map((i) => [i, i + 1]));
  let info: Info | undefined;
  await waitFor(async () => {
    info = await infoOf(h, id);
    return info?.people[0]?.selections.length === 16;
  }, "the person's cursors to arrive");
  const [shown] = info!.people;
  assert.equal([...shown!.name].length, 64);
  assert.equal(shown!.name, `${"🎉".repeat(63)}…`);
  assert.equal(shown!.name_truncated, true);
  assert.equal(shown!.cursors.length, 16);
  assert.deepEqual(info!.users, [shown!.name]);
  const answer = await h.call("get_document_info", { id });
  assert.ok(JSON.stringify(answer).length < 10_000);
  assert.ok(!textOf(answer).includes("🎉".repeat(64)));
  // The same for the language, which anyone may set to anything: a Monaco
  // language id never holds "…", so the ending marks the cut.
  person.sendLanguage("x".repeat(HUGE));
  await waitFor(async () => {
    info = await infoOf(h, id);
    return info?.language?.endsWith("…") === true;
  }, "the language to arrive");
  assert.equal(info!.language, `${"x".repeat(63)}…`);
  // The agent's memory did not take the name in: well under 512 MiB.
  assert.ok(Deno.memoryUsage().heapUsed < 512 * 2 ** 20);
  // Other pads answer, and nothing applied is lost.
  await h.call("append_to_document", { id: "other", text: "still here" });
  assert.equal(await h.text("other"), "still here");
  assert.equal(await h.text(id), "a".repeat(2000));
});

Deno.test("`get_document_info` lists the first 100 of 105 people and says 5 more", async () => {
  await using h = await connect();
  const id = "crowd";
  await h.call("get_document_info", { id });
  const people: PadSession[] = [];
  try {
    // One by one, each announced and echoed: a burst would overflow
    // Rustpad's 16-message metadata queue and drop people.
    for (let n = 0; n < 105; n++) {
      people.push(
        await PadSession.open(h.pads.url, id, {
          user: { name: `person ${n}`, hue: n },
        }),
      );
    }
    let info: Info | undefined;
    await waitFor(async () => {
      info = await infoOf(h, id);
      return info?.more_people === 5;
    }, "all 105 people to be seen");
    assert.equal(info!.people.length, 100);
    assert.equal(info!.users.length, 100);
    assert.equal(info!.users[0], "person 0");
    const answer = await h.call("get_document_info", { id });
    assert.match(
      textOf(answer),
      /105 other people present \(the first 100 listed, 5 more\)/,
    );
  } finally {
    for (const person of people) await person.close();
  }
});

Deno.test("a person rewriting a full pad 40 times leaves the agent a bounded history: it answers, and refuses an edit based before it", async () => {
  await using h = await connect();
  const id = "rewrites";
  structured(await h.call("append_to_document", { id, text: "start" }));
  const person = await PadSession.open(h.pads.url, id);
  try {
    for (let n = 0; n < 40; n++) {
      await person.submit(
        new TextOperation().delete(person.length).insert(
          String.fromCharCode(97 + (n % 26)).repeat(262_144),
        ),
      );
    }
    let info: Info | undefined;
    await waitFor(async () => {
      info = await infoOf(h, id);
      return (info as unknown as { revision: number }).revision === 41;
    }, "the agent to see every rewrite");
    const refused = await h.call("edit_document", {
      id,
      base_revision: 1,
      edits: [{ old_string: "start", new_string: "x" }],
    });
    assert.equal(refused.isError, true);
    assert.match(textOf(refused), /older than the oldest revision/);
    assert.match(textOf(refused), /nothing was changed/);
    assert.ok(Deno.memoryUsage().heapUsed < 512 * 2 ** 20);
    assert.equal(await h.text(id), "n".repeat(262_144));
  } finally {
    await person.close();
  }
});
