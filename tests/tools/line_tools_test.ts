import assert from "node:assert/strict";
import { connect, errorOf, type Harness, structured, textOf } from "../_mcp.ts";
import { startPadServer } from "../../src/testing/mod.ts";

/** A harness on a pad server that starts with these pads. */
async function withPads(pads: Record<string, string>): Promise<Harness> {
  const server = await startPadServer({
    pads: Object.fromEntries(
      Object.entries(pads).map(([id, text]) => [id, { text }]),
    ),
    snapshotIntervalMs: 0,
  });
  const h = await connect({ pads: server });
  return {
    ...h,
    async [Symbol.asyncDispose]() {
      await h[Symbol.asyncDispose]();
      await server.close();
    },
  };
}

const FENCE = /^<untrusted-[0-9a-f]{32}>$/m;

Deno.test("`read_lines` numbers lines like cat -n, hides CRLF's \\r but says crlf: true, and marks the result untrusted", async () => {
  await using h = await withPads({ crlf: "one\r\ntwo\r\n\r\nfour\r\n" });
  const result = await h.call("read_lines", { id: "crlf" });
  assert.deepEqual(structured(result), {
    id: "crlf",
    text: "1\tone\n2\ttwo\n3\t\n4\tfour",
    start_line: 1,
    end_line: 4,
    total_lines: 4,
    next_start_line: null,
    crlf: true,
    revision: 1,
    untrusted: true,
    source: "rustpad",
  });
  assert.match(textOf(result), FENCE);
  assert.match(textOf(result), /^Pad "crlf" at revision 1, lines 1 to 4 of 4:/);
  // The \r stays in the pad.
  assert.equal(await h.text("crlf"), "one\r\ntwo\r\n\r\nfour\r\n");
});

Deno.test("`read_lines` walks a pad to the end with next_start_line", async () => {
  const lines = Array.from({ length: 25 }, (_, i) => `row ${i + 1}`);
  await using h = await withPads({ rows: lines.join("\n") + "\n" });
  const read: string[] = [];
  let start: number | null = 1;
  let calls = 0;
  while (start !== null) {
    const page = structured(
      await h.call("read_lines", {
        id: "rows",
        start_line: start,
        line_count: 10,
      }),
    );
    assert.equal(page.total_lines, 25);
    assert.equal(page.start_line, start);
    read.push(...(page.text as string).split("\n"));
    start = page.next_start_line as number | null;
    calls++;
  }
  assert.equal(calls, 3);
  assert.deepEqual(read, lines.map((line, i) => `${i + 1}\t${line}`));
});

Deno.test("`read_lines` cuts a line over 2000 code points with a visible marker", async () => {
  await using h = await withPads({ long: "a\n" + "b".repeat(2100) + "\nc" });
  const text = structured(await h.call("read_lines", { id: "long" }))
    .text as string;
  const second = text.split("\n")[1] ?? "";
  assert.equal(second.slice(0, 2002), `2\t${"b".repeat(2000)}`);
  assert.match(
    second,
    /\[line cut: 2000 of 2100 code points shown; the rest starts at offset 2002\]$/,
  );
});

Deno.test("`read_lines` refuses line 0 without reading", async () => {
  await using h = await connect();
  assert.match(
    errorOf(await h.call("read_lines", { id: "x", start_line: 0 })),
    /start_line/,
  );
});

Deno.test("`search_document` finds literal text with line, UTF-16 column, context and revision", async () => {
  await using h = await withPads({
    code: "let a = 1;\r\n// 🎉 TODO: fix\r\nlet b = 2;\r\n// todo later\r\n",
  });
  const result = await h.call("search_document", {
    id: "code",
    pattern: "TODO",
    context_lines: 1,
  });
  assert.deepEqual(structured(result), {
    id: "code",
    matches: [{
      line: 2,
      column: 7,
      text: "TODO",
      line_text: "// 🎉 TODO: fix",
      before: ["let a = 1;"],
      after: ["let b = 2;"],
    }],
    total_matches: 1,
    revision: 1,
    untrusted: true,
    source: "rustpad",
  });
  assert.match(textOf(result), FENCE);
  assert.match(
    textOf(result),
    /^1-let a = 1;\n2:7:\/\/ 🎉 TODO: fix\n3-let b = 2;(<\/untrusted|$)/m,
  );
  const both = structured(
    await h.call("search_document", {
      id: "code",
      pattern: "todo",
      case_insensitive: true,
    }),
  );
  assert.deepEqual((both.matches as { line: number }[]).map((m) => m.line), [
    2,
    4,
  ]);
});

Deno.test("`search_document` finds lines copied from read_lines (LF) in a CRLF pad, ignoring case too", async () => {
  await using h = await withPads({
    crlf: "one\r\nTwo\r\nthree\r\n",
    lf: "one\nTwo\n",
  });
  const lines = (pad: string, pattern: string, caseInsensitive = false) =>
    h.call("search_document", {
      id: pad,
      pattern,
      ...(caseInsensitive && { case_insensitive: true }),
    }).then((result) =>
      (structured(result).matches as { line: number; text: string }[])
        .map((match) => [match.line, match.text])
    );
  assert.deepEqual(await lines("crlf", "one\nTwo"), [[1, "one\r\nTwo"]]);
  assert.deepEqual(await lines("crlf", "ONE\ntwo", true), [[1, "one\r\nTwo"]]);
  assert.deepEqual(await lines("crlf", "one\r\nTwo"), [[1, "one\r\nTwo"]]);
  assert.deepEqual(await lines("lf", "ONE\ntwo", true), [[1, "one\nTwo"]]);
  assert.deepEqual(await lines("lf", "one\r\nTwo"), []);
});

Deno.test("`search_document` counts all matches but returns max_results, and says when none match", async () => {
  await using h = await withPads({ many: "x\n".repeat(30) });
  const found = structured(
    await h.call("search_document", {
      id: "many",
      pattern: "x",
      max_results: 5,
    }),
  );
  assert.equal(found.total_matches, 30);
  assert.equal((found.matches as unknown[]).length, 5);
  const none = await h.call("search_document", { id: "many", pattern: "y" });
  assert.equal(structured(none).total_matches, 0);
  assert.match(textOf(none), /^No match in pad "many" at revision 1\.$/);
});

Deno.test("`search_document` with regex uses RE2 syntax and names the problem in a bad pattern", async () => {
  await using h = await withPads({ re: "fn alpha()\nfn beta()\n" });
  const found = structured(
    await h.call("search_document", {
      id: "re",
      pattern: "^fn (\\w+)",
      regex: true,
    }),
  );
  assert.deepEqual(
    (found.matches as { text: string }[]).map((m) => m.text),
    ["fn alpha", "fn beta"],
  );
  const message = errorOf(
    await h.call("search_document", { id: "re", pattern: "fn (", regex: true }),
  );
  assert.match(message, /not valid RE2 syntax/);
  assert.match(message, /missing closing \)/);
  const lookahead = errorOf(
    await h.call("search_document", {
      id: "re",
      pattern: "fn (?=beta)",
      regex: true,
    }),
  );
  assert.match(
    lookahead,
    /uses lookahead \(\?=\.\.\.\), which RE2 does not run/,
  );
});

Deno.test("`search_document` answers a pattern that backtracks for ever elsewhere, and refuses one too large for the pad", async () => {
  await using h = await withPads({
    evil: "a".repeat(30_000) + "!",
    fine: "a".repeat(30_000),
  });
  const none = structured(
    await h.call("search_document", {
      id: "evil",
      pattern: "(a+)+$",
      regex: true,
    }),
  );
  assert.equal(none.total_matches, 0);
  const one = structured(
    await h.call("search_document", {
      id: "fine",
      pattern: "(a+)+$",
      regex: true,
    }),
  );
  assert.equal(one.total_matches, 1);
  const message = errorOf(
    await h.call("search_document", {
      id: "evil",
      pattern: "(?:a?){500}a{500}",
      regex: true,
    }),
  );
  assert.match(
    message,
    /compiles to more RE2 instructions than a text of 30001 UTF-16 units allows \(at most 1118,.*current count is 1502\. Nothing was searched; use a simpler pattern/,
  );
  // The server goes on answering.
  const read = structured(
    await h.call("get_document", { id: "evil", limit: 5 }),
  );
  assert.equal(read.text, "aaaaa");
});

Deno.test("`search_document` stops giving match details at 262,144 code points and says so", async () => {
  // 100 lines of 2,000 units: each match repeats its line and 20 more.
  await using h = await withPads({
    wide: (`${"w".repeat(1999)}\n`).repeat(100),
  });
  const result = await h.call("search_document", {
    id: "wide",
    pattern: "w".repeat(1999),
    context_lines: 20,
    max_results: 1000,
  });
  const found = structured(result);
  assert.equal(found.total_matches, 100);
  const shown = (found.matches as unknown[]).length;
  assert.ok(shown > 0 && shown < 100, `${shown} shown`);
  assert.match(textOf(result), /details stop at 262144 code points/);
});
