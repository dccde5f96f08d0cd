// replace_in_document beyond exact strings (issue 27): whole words, so that
// `foo` leaves `food` alone, and RE2 patterns with `$1` in the replacement,
// counted and confirmed as literal text is.

import assert from "node:assert/strict";
import { connect, errorOf, structured } from "../_mcp.ts";

const accept = () => ({
  action: "accept" as const,
  content: { confirm: true },
});

Deno.test("replace_in_document's whole_word says plainly that matches inside longer words are replaced without it", async () => {
  await using h = await connect({ elicit: accept });
  await h.call("append_to_document", { id: "food", text: "foo food foo" });
  const listed = (await h.client.listTools()).tools.find((tool) =>
    tool.name === "replace_in_document"
  );
  const wholeWord = (listed?.inputSchema.properties as Record<
    string,
    { description?: string }
  >).whole_word;
  assert.match(
    wholeWord?.description ?? "",
    /Skip matches inside words, regex too/,
  );
  const all = structured(
    await h.call("replace_in_document", {
      id: "food",
      search: "foo",
      replace: "bar",
      replace_all: true,
    }),
  );
  assert.equal(all.replacements, 3);
  assert.equal(await h.text("food"), "bar bard bar");
});

Deno.test("replace_in_document with whole_word leaves matches inside longer words alone", async () => {
  await using h = await connect({ elicit: accept });
  await h.call("append_to_document", {
    id: "words",
    text: "foo food foo_bar éfoo foo.",
  });
  const replaced = structured(
    await h.call("replace_in_document", {
      id: "words",
      search: "foo",
      replace: "bar",
      replace_all: true,
      whole_word: true,
    }),
  );
  assert.equal(replaced.replacements, 2);
  assert.equal(await h.text("words"), "bar food foo_bar éfoo bar.");
  assert.equal(h.elicitations.length, 1, "two places: a person was asked");
  assert.match(h.elicitations[0]!.message, /Replace all 2 matches/);
});

Deno.test("replace_in_document with whole_word says when the text occurs only inside longer words, changing nothing", async () => {
  await using h = await connect();
  await h.call("append_to_document", { id: "inside", text: "food and foods" });
  const message = errorOf(
    await h.call("replace_in_document", {
      id: "inside",
      search: "foo",
      replace: "bar",
      whole_word: true,
    }),
  );
  assert.equal(
    message,
    'Cannot replace in pad "inside" as the search text does not occur: it occurs 2 times only inside longer words; drop whole_word to replace there. Nothing was changed',
  );
  assert.equal(await h.text("inside"), "food and foods");
});

Deno.test("replace_in_document with regex replaces RE2 matches, expanding $1 and $<name> per match", async () => {
  await using h = await connect({ elicit: accept });
  await h.call("append_to_document", {
    id: "mail",
    text: "ana@example.com, bo@example.com\nprice: $5\n",
  });
  const replaced = structured(
    await h.call("replace_in_document", {
      id: "mail",
      search: "(\\w+)@example\\.com",
      replace: "$1@example.org",
      replace_all: true,
      regex: true,
    }),
  );
  assert.equal(replaced.replacements, 2);
  assert.match(
    h.elicitations[0]!.message,
    /Replace all 2 matches of the pattern/,
  );
  structured(
    await h.call("replace_in_document", {
      id: "mail",
      search: "^price: \\$(?P<amount>\\d+)$",
      replace: "cost: $$$<amount>.00",
      regex: true,
    }),
  );
  assert.equal(
    await h.text("mail"),
    "ana@example.org, bo@example.org\ncost: $5.00\n",
  );
});

Deno.test("replace_in_document with regex counts as literal text does: several matches without replace_all change nothing", async () => {
  await using h = await connect();
  await h.call("append_to_document", { id: "count", text: "a1 b2 c3" });
  const message = errorOf(
    await h.call("replace_in_document", {
      id: "count",
      search: "[a-z]\\d",
      replace: "x",
      regex: true,
    }),
  );
  assert.equal(
    message,
    'Cannot replace in pad "count" as the pattern matches 3 times: make search narrower so it matches exactly once, or pass replace_all: true',
  );
  const none = errorOf(
    await h.call("replace_in_document", {
      id: "count",
      search: "z\\d",
      replace: "x",
      regex: true,
    }),
  );
  assert.match(
    none,
    /as the pattern matches nothing: check it with search_document/,
  );
  const bad = errorOf(
    await h.call("replace_in_document", {
      id: "count",
      search: "(?=a)",
      replace: "x",
      regex: true,
    }),
  );
  assert.match(bad, /lookahead/);
  assert.equal(await h.text("count"), "a1 b2 c3");
});

Deno.test("replace_in_document with regex and replace_all asks for a token with the count, then replaces exactly those", async () => {
  await using h = await connect();
  await h.call("append_to_document", { id: "token", text: "x=1\ny=2\n" });
  const args = {
    id: "token",
    search: "^(\\w)=(\\d)$",
    replace: "$2=$1",
    replace_all: true,
    regex: true,
  };
  const asked = structured(await h.call("replace_in_document", args));
  assert.equal(asked.status, "confirmation_required");
  assert.equal(asked.replacements, 2);
  assert.equal(await h.text("token"), "x=1\ny=2\n");
  const done = structured(
    await h.call("replace_in_document", {
      ...args,
      confirm_token: asked.confirm_token,
    }),
  );
  assert.equal(done.status, "applied");
  assert.equal(await h.text("token"), "1=x\n2=y\n");
});

Deno.test("replace_in_document matches a search copied from read_lines (LF) in a CRLF pad, and writes CRLF", async () => {
  await using h = await connect();
  await h.call("append_to_document", {
    id: "crlf",
    text: "one\r\ntwo\r\nthree four five\r\n",
  });
  const lines = structured(await h.call("read_lines", { id: "crlf" }));
  assert.equal(lines.text, "1\tone\n2\ttwo\n3\tthree four five");
  const replaced = structured(
    await h.call("replace_in_document", {
      id: "crlf",
      search: "one\ntwo",
      replace: "1\n2",
    }),
  );
  assert.equal(replaced.status, "applied");
  assert.equal(await h.text("crlf"), "1\r\n2\r\nthree four five\r\n");
});

Deno.test("what replace_in_document and edit_document write into a CRLF pad takes CRLF line breaks, whatever the search; an LF pad keeps them as given", async () => {
  await using h = await connect();
  await h.call("append_to_document", { id: "crlf", text: "a b\r\nc\r\n" });
  await h.call("append_to_document", { id: "lf", text: "a b\nc\n" });
  const replace = (id: string, args: Record<string, unknown>) =>
    h.call("replace_in_document", { id, ...args }).then(structured);
  assert.equal(
    (await replace("crlf", { search: " ", replace: "\n" })).status,
    "applied",
  );
  assert.equal(await h.text("crlf"), "a\r\nb\r\nc\r\n");
  await replace("crlf", { search: "(b)", replace: "$1\nB", regex: true });
  assert.equal(await h.text("crlf"), "a\r\nb\r\nB\r\nc\r\n");
  await h.call("edit_document", {
    id: "crlf",
    edits: [{ old_string: "c", new_string: "c\nd" }],
  }).then(structured);
  assert.equal(await h.text("crlf"), "a\r\nb\r\nB\r\nc\r\nd\r\n");
  await replace("lf", { search: " ", replace: "\n" });
  assert.equal(await h.text("lf"), "a\nb\nc\n");
});
