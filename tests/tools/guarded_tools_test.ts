import assert from "node:assert/strict";
import { connect, errorOf, type Harness, structured, textOf } from "../_mcp.ts";
import { PadSession, TextOperation } from "../../src/mod.ts";
import { RawPerson } from "../_person.ts";

const accept = () => ({
  action: "accept" as const,
  content: { confirm: true },
});

async function padWith(h: Harness, id: string, text: string): Promise<void> {
  structured(await h.call("append_to_document", { id, text }));
}

Deno.test("`set_document` on an empty pad writes without asking", async () => {
  await using h = await connect({ elicit: accept });
  const result = structured(
    await h.call("set_document", { id: "new", text: "fresh" }),
  );
  assert.equal(result.status, "applied");
  assert.equal(result.length, 5);
  assert.equal(h.elicitations.length, 0);
  assert.equal(await h.text("new"), "fresh");
});

Deno.test("`set_document` asks through a form that names the pad and its length, quoting no text", async () => {
  await using h = await connect({ elicit: accept });
  await padWith(h, "doc", "secret words 🎉");
  const result = structured(
    await h.call("set_document", { id: "doc", text: "brand-new!" }),
  );
  assert.deepEqual(result, {
    status: "applied",
    untrusted: true,
    source: "rustpad",
    id: "doc",
    url: `${h.pads.url}/#doc`,
    revision: 2,
    length: 10,
    diff: "@@ -1,1 +1,1 @@\n-secret words 🎉\n+brand-new!",
    edit_id: result.edit_id,
  });
  assert.match(String(result.edit_id), /^[\w-]+\.[\w-]{43}$/);
  assert.equal(h.elicitations.length, 1);
  const request = h.elicitations[0]!;
  assert.match(request.message, /pad "doc" \(14 code points now\)/);
  assert.doesNotMatch(request.message, /secret|brand-new/);
  assert.deepEqual(
    (request as { requestedSchema: { required: string[] } }).requestedSchema
      .required,
    ["confirm"],
  );
  assert.equal(await h.text("doc"), "brand-new!");
});

for (
  const [name, answer, said] of [
    ["decline", { action: "decline" as const }, /declined/],
    ["cancel", { action: "cancel" as const }, /dismissed/],
    ["confirm: false", {
      action: "accept" as const,
      content: { confirm: false },
    }, /no|not confirm/],
  ] as const
) {
  Deno.test(`\`set_document\` changes nothing when the person answers ${name}`, async () => {
    await using h = await connect({ elicit: () => answer });
    await padWith(h, "keep", "precious");
    const result = await h.call("set_document", { id: "keep", text: "gone" });
    const content = structured(result);
    assert.equal(content.status, "declined");
    assert.match(String(content.message), said);
    assert.match(textOf(result), /nothing was changed/);
    assert.equal(await h.text("keep"), "precious");
  });
}

Deno.test("`set_document` uses the token path when the client declares no elicitation", async () => {
  await using h = await connect();
  await padWith(h, "tok", "old");
  const first = structured(
    await h.call("set_document", { id: "tok", text: "new" }),
  );
  assert.equal(first.status, "confirmation_required");
  assert.equal(first.expires_in_seconds, 600);
  assert.equal(typeof first.confirm_token, "string");
  assert.equal(await h.text("tok"), "old");
  const second = structured(
    await h.call("set_document", {
      id: "tok",
      text: "new",
      confirm_token: first.confirm_token,
    }),
  );
  assert.equal(second.status, "applied");
  assert.equal(await h.text("tok"), "new");
});

Deno.test("`set_document` uses the token path under ELICITATION=false even if the client could ask", async () => {
  await using h = await connect({
    elicit: accept,
    env: { ELICITATION: "false" },
  });
  await padWith(h, "tok2", "old");
  const first = structured(
    await h.call("set_document", { id: "tok2", text: "new" }),
  );
  assert.equal(first.status, "confirmation_required");
  assert.equal(h.elicitations.length, 0);
});

Deno.test("`set_document` rejects each kind of bad token, changing nothing", async () => {
  await using h = await connect();
  await padWith(h, "bad", "old");
  const issue = async (text = "new"): Promise<string> =>
    structured(await h.call("set_document", { id: "bad", text }))
      .confirm_token as string;
  const call = (token: string, text = "new") =>
    h.call("set_document", { id: "bad", text, confirm_token: token });

  assert.match(errorOf(await call("not-a-token")), /malformed|forged/i);
  const token = await issue();
  const [payload, mac] = token.split(".");
  const flipped = `${payload!.slice(0, -1)}${
    payload!.endsWith("A") ? "B" : "A"
  }.${mac}`;
  assert.match(errorOf(await call(flipped)), /altered|forged|malformed/i);
  assert.match(errorOf(await call(token, "other text")), /argument/i);
  assert.equal(await h.text("bad"), "old");

  assert.equal(structured(await call(token)).status, "applied");
  await padWith(h, "bad", "!");
  assert.match(errorOf(await call(token)), /already been used/);

  // A token bound to content that has changed since needs a fresh confirmation.
  const stale = await issue("newer");
  await padWith(h, "bad", "?");
  assert.match(errorOf(await call(stale, "newer")), /changed/i);
  assert.equal(await h.text("bad"), "new!?");
});

Deno.test("`set_document` rejects a token issued by another server process as forged", async () => {
  await using first = await connect();
  await using second = await connect({ pads: first.pads });
  await padWith(first, "cross", "old");
  const token =
    structured(await first.call("set_document", { id: "cross", text: "x" }))
      .confirm_token;
  const message = errorOf(
    await second.call("set_document", {
      id: "cross",
      text: "x",
      confirm_token: token,
    }),
  );
  assert.match(message, /forged/i);
});

Deno.test("`set_document` refuses when the pad changed while the person was deciding", async () => {
  const people: { person?: PadSession } = {};
  await using h = await connect({
    elicit: async () => {
      // The person types while the dialog is open.
      await person?.submit(
        new TextOperation().retain(person.length).insert(" more"),
      );
      await new Promise((resolve) => setTimeout(resolve, 50));
      return accept();
    },
  });
  await padWith(h, "moving", "draft");
  const person = await PadSession.open(h.pads.url, "moving");
  people.person = person;
  const message = errorOf(
    await h.call("set_document", { id: "moving", text: "final" }),
  );
  assert.match(message, /changed while waiting for confirmation/);
  assert.equal(await h.text("moving"), "draft more");
  await person.close();
});

Deno.test("`set_document` with the pad's current text sends nothing, asks nothing and says 'unchanged'", async () => {
  await using h = await connect({ elicit: accept });
  await padWith(h, "same", "as is");
  const result = structured(
    await h.call("set_document", { id: "same", text: "as is" }),
  );
  assert.equal(result.status, "unchanged");
  assert.equal(result.revision, 1);
  assert.equal(h.elicitations.length, 0);
  const read = structured(await h.call("get_document", { id: "same" }));
  assert.equal(read.revision, 1);
});

Deno.test("`replace_in_document` replaces a unique occurrence in place", async () => {
  await using h = await connect({ elicit: accept });
  await padWith(h, "r", "🎉 the cat sat");
  const result = await h.call("replace_in_document", {
    id: "r",
    search: "cat",
    replace: "dog",
  });
  assert.match(String(structured(result).edit_id), /^[\w-]+\.[\w-]{43}$/);
  assert.deepEqual(structured(result), {
    edit_id: structured(result).edit_id,
    status: "applied",
    untrusted: true,
    source: "rustpad",
    id: "r",
    url: `${h.pads.url}/#r`,
    revision: 2,
    length: 13,
    replacements: 1,
    diff: "@@ -1,1 +1,1 @@\n-🎉 the cat sat\n+🎉 the dog sat",
  });
  assert.equal(h.elicitations.length, 0);
  assert.equal(await h.text("r"), "🎉 the dog sat");
});

Deno.test("`replace_in_document` gives the count when the search is missing or ambiguous", async () => {
  await using h = await connect();
  await padWith(h, "amb", "a-b a-b a-b");
  assert.match(
    errorOf(
      await h.call("replace_in_document", {
        id: "amb",
        search: "zzz",
        replace: "y",
      }),
    ),
    /does not occur/,
  );
  const message = errorOf(
    await h.call("replace_in_document", {
      id: "amb",
      search: "a-b",
      replace: "y",
    }),
  );
  assert.match(
    message,
    /occurs 3 times: make search longer .* or pass replace_all/,
  );
  assert.match(
    errorOf(
      await h.call("replace_in_document", {
        id: "amb",
        search: "",
        replace: "y",
      }),
    ),
    /empty/,
  );
  assert.equal(await h.text("amb"), "a-b a-b a-b");
});

Deno.test("`replace_in_document` with replace_all asks with the count, then replaces them all", async () => {
  await using h = await connect({ elicit: accept });
  await padWith(h, "all", "x1 x2 x3");
  const result = structured(
    await h.call("replace_in_document", {
      id: "all",
      search: "x",
      replace: "yy",
      replace_all: true,
    }),
  );
  assert.equal(result.replacements, 3);
  assert.match(
    h.elicitations[0]!.message,
    /all 3 matches .* pad "all" \(8 code points now\)/,
  );
  assert.equal(await h.text("all"), "yy1 yy2 yy3");
});

Deno.test("`replace_in_document` with replace_all on one occurrence asks nothing", async () => {
  await using h = await connect({ elicit: accept });
  await padWith(h, "one", "only once");
  const result = structured(
    await h.call("replace_in_document", {
      id: "one",
      search: "once",
      replace: "twice",
      replace_all: true,
    }),
  );
  assert.equal(result.replacements, 1);
  assert.equal(h.elicitations.length, 0);
});

Deno.test("`replace_in_document` token path binds the count: a new occurrence needs a fresh confirmation", async () => {
  await using h = await connect();
  await padWith(h, "cnt", "a a");
  const args = { id: "cnt", search: "a", replace: "b", replace_all: true };
  const first = structured(await h.call("replace_in_document", args));
  assert.equal(first.status, "confirmation_required");
  assert.equal(first.replacements, 2);
  await padWith(h, "cnt", " a");
  const message = errorOf(
    await h.call("replace_in_document", {
      ...args,
      confirm_token: first.confirm_token,
    }),
  );
  assert.match(message, /changed|argument/i);
  const again = structured(await h.call("replace_in_document", args));
  const done = structured(
    await h.call("replace_in_document", {
      ...args,
      confirm_token: again.confirm_token,
    }),
  );
  assert.equal(done.replacements, 3);
  assert.equal(await h.text("cnt"), "b b b");
});

Deno.test("`replace_in_document` keeps what a person types through a raw socket elsewhere at the same moment", async () => {
  await using h = await connect();
  // Long enough that the replacement deletes less than half of it (more
  // would ask first).
  await padWith(h, "shared", "TODO: write intro\n\nthe body people wrote");
  await using person = await RawPerson.open(h.pads.url, "shared");
  const typing = person.type(40, " more body");
  await new Promise((resolve) => setTimeout(resolve, 3));
  const result = await h.call("replace_in_document", {
    id: "shared",
    search: "TODO: write intro",
    replace: "Introduction",
  });
  await typing;
  assert.equal(structured(result).replacements, 1);
  assert.equal(
    await h.text("shared"),
    "Introduction\n\nthe body people wrote more body",
  );
});

Deno.test("`set_document` rejects an expired token", async () => {
  let now = Date.parse("2026-11-29T12:00:00Z");
  await using h = await connect({ now: () => now });
  await padWith(h, "late", "old");
  const first = structured(
    await h.call("set_document", { id: "late", text: "new" }),
  );
  now += 10 * 60 * 1000 + 1;
  const message = errorOf(
    await h.call("set_document", {
      id: "late",
      text: "new",
      confirm_token: first.confirm_token,
    }),
  );
  assert.match(message, /expired/);
  assert.equal(await h.text("late"), "old");
});

Deno.test("`replace_in_document` refuses a result over the limit, giving both lengths", async () => {
  await using h = await connect();
  await padWith(h, "grow", "ab".repeat(100_000));
  const message = errorOf(
    await h.call("replace_in_document", {
      id: "grow",
      search: "ab",
      replace: "abcd",
      replace_all: true,
    }),
  );
  assert.match(
    message,
    /result would be 400000 code points, over Rustpad's limit of 262144: current length is 200000/,
  );
});

Deno.test("`set_document` changes nothing when the confirmation dialog fails", async () => {
  await using h = await connect({
    elicit: () => Promise.reject(new Error("the window was closed")),
  });
  await padWith(h, "dialog", "keep me");
  const message = errorOf(
    await h.call("set_document", { id: "dialog", text: "x" }),
  );
  assert.match(message, /confirmation dialog failed: .*Nothing was changed/);
  assert.equal(await h.text("dialog"), "keep me");
});
