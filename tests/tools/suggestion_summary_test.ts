// The agent's reason for a suggestion: every write that can suggest takes
// `summary` (one line, at most 200 characters); without it the suggestion
// carries words for its change, never the tool's title. People read it in
// the pad server's list; a model reads it back fenced as untrusted.

import assert from "node:assert/strict";
import { structured, textOf } from "../_mcp.ts";
import { connectWithDesk, listed } from "./_suggestions.ts";

Deno.test("a suggestion carries the agent's summary to the people's list, and back to a model fenced as untrusted", async () => {
  await using h = await connectWithDesk();
  await h.call("create_document", { id: "why", text: "Ship on Friday.\n" });
  const held = structured(
    await h.call("replace_in_document", {
      id: "why",
      search: "Friday",
      replace: "Thursday",
      suggest: true,
      summary: "The release moved to Thursday (see the team call).",
    }),
  );
  assert.equal(held.status, "suggested");
  const [shown] = (await listed(h, "why")).suggestions as unknown as {
    summary: string;
  }[];
  assert.equal(
    shown!.summary,
    "The release moved to Thursday (see the team call).",
  );
  const read = await h.call("list_suggestions", { id: "why" });
  const text = textOf(read);
  const fence = text.indexOf("<untrusted-");
  assert.ok(fence >= 0, text);
  assert.ok(
    text.indexOf("The release moved to Thursday") > fence,
    "the summary is inside the fence",
  );
  assert.match(text, /each summary is its agent's words/);
  assert.match(text, /^Pad "why" has 1 suggestion \(1 pending\)/);
});

Deno.test("without a summary, a suggestion says what its change does, never the tool's title", async () => {
  await using h = await connectWithDesk();
  await h.call("create_document", {
    id: "words",
    text: "teh cat\nand teh dog\n",
  });
  await h.call("replace_in_document", {
    id: "words",
    search: "teh",
    replace: "the",
    replace_all: true,
    suggest: true,
  });
  await h.call("append_to_document", {
    id: "words",
    text: "the end\n",
    suggest: true,
  });
  await h.call("set_language", {
    id: "words",
    language: "markdown",
    suggest: true,
  });
  const summaries = (await listed(h, "words")).suggestions.map((each) =>
    (each as unknown as { summary: string }).summary
  );
  assert.deepEqual(summaries, [
    'Replace "teh" with "the" (2 places)',
    'Insert "the end" at line 3',
    "Set the language to markdown",
  ]);
});

Deno.test("a summary on more than one line, blank, or over 200 characters is refused, and nothing is held", async () => {
  await using h = await connectWithDesk();
  await h.call("create_document", { id: "bad", text: "a\n" });
  const cases: [string, RegExp][] = [
    ["two\nlines", /must be one sentence on one line, not blank/],
    ["   ", /must be one sentence on one line, not blank/],
    ["x".repeat(201), /summary/],
  ];
  for (const [summary, expected] of cases) {
    const refused = await h.call("append_to_document", {
      id: "bad",
      text: "b\n",
      suggest: true,
      summary,
    });
    assert.equal(refused.isError, true, JSON.stringify(refused));
    assert.match(textOf(refused), expected);
  }
  assert.equal((await listed(h, "bad")).suggestions.length, 0);
});
