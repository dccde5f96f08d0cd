import assert from "node:assert/strict";
import { SEARCH_PROCESS_FLAG } from "../../src/text/search_process.ts";
import { searchBounded } from "../../src/text/bounded_search.ts";

Deno.test("searchBounded runs a regular expression in a separate process", async () => {
  const found = await searchBounded("one two\nthree", "t\\w+", {
    regex: true,
    contextLines: 1,
  });
  assert.equal(found.totalMatches, 2);
  assert.deepEqual(found.matches.map((m) => [m.line, m.column, m.text]), [
    [1, 5, "two"],
    [2, 1, "three"],
  ]);
  assert.deepEqual(found.matches[0]?.after, ["three"]);
});

Deno.test("searchBounded names the problem in an invalid pattern", async () => {
  await assert.rejects(
    searchBounded("text", "(unclosed", { regex: true }),
    (error: Error) => {
      assert.ok(error instanceof SyntaxError);
      assert.match(error.message, /not a valid JavaScript regular expression/);
      assert.match(error.message, /Unterminated group/);
      return true;
    },
  );
  // Valid without the u flag, invalid with it.
  await assert.rejects(
    searchBounded("text", "\\-", { regex: true }),
    /Invalid escape/,
  );
});

Deno.test("searchBounded stops a catastrophic regular expression after the time limit", async () => {
  const started = performance.now();
  await assert.rejects(
    searchBounded("a".repeat(30_000) + "!", "(a+)+$", { regex: true }, 300),
    /ran for over 300 ms/,
  );
  assert.ok(performance.now() - started < 3000);
});

Deno.test("searchBounded searches literally in place, without a process", async () => {
  const found = await searchBounded("(a+)+$ (a+)+$", "(a+)+$");
  assert.equal(found.totalMatches, 2);
});

Deno.test("the server's entry runs one search given the hidden flag, as a compiled binary does for itself", async () => {
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--quiet",
      new URL("../../mod.ts", import.meta.url).href,
      SEARCH_PROCESS_FLAG,
    ],
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  await new Response(JSON.stringify({
    text: "ab\nab",
    pattern: "^a",
    options: { regex: true },
  })).body?.pipeTo(child.stdin);
  const output = await child.output();
  assert.equal(output.code, 0, new TextDecoder().decode(output.stderr));
  const reply = JSON.parse(new TextDecoder().decode(output.stdout));
  assert.equal(reply.ok, true);
  assert.equal(reply.result.totalMatches, 2);
});
