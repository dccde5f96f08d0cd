import assert from "node:assert/strict";
import { connect, errorOf, structured, textOf, waitFor } from "../_mcp.ts";
import { RawPerson } from "../_person.ts";
import { padWithAnn } from "./_pads.ts";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The agent's user id, from the UserInfo frames a person received. */
function agentId(person: RawPerson): number {
  for (const frame of person.frames) {
    const message = JSON.parse(frame);
    if (message.UserInfo?.info?.name === "rustpad-mcp") {
      return message.UserInfo.id;
    }
  }
  throw new Error("The agent never joined");
}

/** The cursor frames a person received from user `id`, oldest first. */
function cursorsFrom(person: RawPerson, id: number): number[][] {
  return person.frames.map((frame) => JSON.parse(frame))
    .filter((message) => message.UserCursor?.id === id)
    .map((message) => message.UserCursor.data.cursors);
}

Deno.test("after an edit the agent's cursor sits at the end of what it changed", async () => {
  await using h = await connect();
  await using person = await RawPerson.open(h.pads.url, "p-caret");
  await person.type(0, "abc");
  await h.call("replace_in_document", {
    id: "p-caret",
    search: "b",
    replace: "XYZ",
  });
  const id = agentId(person);
  await waitFor(() => cursorsFrom(person, id).length > 0, "the agent's cursor");
  assert.deepEqual(cursorsFrom(person, id).at(-1), [4]);
});

Deno.test("`get_document_info` reports each person's cursor with name, line, column and offset, moved by later edits", async () => {
  await using h = await connect();
  await using person = await RawPerson.open(h.pads.url, "p-info");
  person.announce("Ann");
  await person.type(0, "ab\ncd");
  person.moveCursor(4);
  await h.call("get_document_info", { id: "p-info" });
  await h.call("replace_in_document", {
    id: "p-info",
    search: "ab",
    replace: "xxab",
  });
  const info = structured(await h.call("get_document_info", { id: "p-info" }));
  assert.deepEqual(info.people, [{
    name: "Ann",
    cursors: [{ line: 2, column: 2, offset: 6 }],
    selections: [],
  }]);
});

Deno.test("a burst of edits never sends more cursor updates than one per edit and five a second", async () => {
  await using h = await connect();
  await using person = await RawPerson.open(h.pads.url, "p-rate");
  await h.call("append_to_document", { id: "p-rate", text: "start\n" });
  const id = agentId(person);
  // A socket that drains one metadata message per 100 ms: a flood of more
  // than 16 cursor updates would overflow its queue and drop it.
  assert.ok(h.pads.setDrainDelay("p-rate", person.id!, 100));
  const before = h.pads.metadataFrom("p-rate", id);
  const started = performance.now();
  for (let i = 0; i < 30; i++) {
    await h.call("append_to_document", { id: "p-rate", text: `${i}` });
  }
  const elapsed = performance.now() - started;
  await sleep(400);
  const sent = h.pads.metadataFrom("p-rate", id) - before;
  assert.ok(sent <= 30, `${sent} cursor updates for 30 edits`);
  assert.ok(
    sent <= Math.ceil((elapsed + 400) / 200) + 1,
    `${sent} cursor updates in ${Math.round(elapsed)} ms`,
  );
  assert.ok(sent >= 1, "the cursor was shown");
  await waitFor(
    () =>
      cursorsFrom(person, id).at(-1)?.[0] === [...h.pads.text("p-rate")].length,
    "the last cursor update at the end of the last edit",
  );
});

Deno.test("`replace_in_document` with avoid_people refuses, changing nothing, when a person's cursor is inside the range", async () => {
  await using h = await connect();
  await using _ann = await padWithAnn(h, "p-avoid", "hello world", 8);
  const message = errorOf(
    await h.call("replace_in_document", {
      id: "p-avoid",
      search: "world",
      replace: "there",
      avoid_people: true,
    }),
  );
  assert.match(message, /Cannot write to pad "p-avoid" as avoid_people is on/);
  assert.match(message, /"Ann" at line 1, column 9/);
  assert.equal(await h.text("p-avoid"), "hello world");
});

Deno.test("`replace_in_document` with avoid_people writes when the person's cursor is outside the range", async () => {
  await using h = await connect();
  await using _ann = await padWithAnn(h, "p-away", "hello world", 2);
  structured(
    await h.call("replace_in_document", {
      id: "p-away",
      search: "world",
      replace: "there",
      avoid_people: true,
    }),
  );
  assert.equal(await h.text("p-away"), "hello there");
});

Deno.test("`edit_document` with avoid_people refuses when a person's cursor is inside an edit", async () => {
  await using h = await connect();
  await using _ann = await padWithAnn(h, "p-avoid-batch", "one\ntwo\n", 5);
  const message = errorOf(
    await h.call("edit_document", {
      id: "p-avoid-batch",
      edits: [{ old_string: "two", new_string: "2" }],
      avoid_people: true,
    }),
  );
  assert.match(message, /avoid_people is on/);
  assert.equal(await h.text("p-avoid-batch"), "one\ntwo\n");
});

Deno.test("a write result says who is inside or next to the changed lines, and nothing when nobody is", async () => {
  await using h = await connect();
  await using _ann = await padWithAnn(
    h,
    "p-near",
    "one\ntwo\nthree\nfour\n",
    9,
  );
  const inside = structured(
    await h.call("replace_in_document", {
      id: "p-near",
      search: "three",
      replace: "3",
    }),
  );
  assert.deepEqual(inside.people_nearby, [
    { name: "Ann", line: 3, where: "inside" },
  ]);
  const next = await h.call("replace_in_document", {
    id: "p-near",
    search: "four",
    replace: "4",
  });
  assert.deepEqual(structured(next).people_nearby, [
    { name: "Ann", line: 3, where: "next to" },
  ]);
  assert.match(textOf(next), /"Ann" next to it at line 3|next to the change/);
  const far = structured(
    await h.call("replace_in_document", {
      id: "p-near",
      search: "one",
      replace: "1",
    }),
  );
  assert.equal(far.people_nearby, undefined);
});
