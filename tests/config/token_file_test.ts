import assert from "node:assert/strict";
import { ConfigError } from "../../src/mod.ts";
import { parseTokenFile, readTokenFile } from "../../src/config/token_file.ts";
import { configErrorOf } from "../_config.ts";

const A = "a".repeat(32);
const B = "b".repeat(40);

function refusal(text: string, unnamed?: string): string {
  const error = configErrorOf(() =>
    parseTokenFile(text, "/etc/tokens", unnamed)
  );
  assert.equal(error.variable, "RUSTPAD_MCP_TOKENS");
  return error.message;
}

Deno.test("parseTokenFile() reads name-token lines, skipping comments and blank lines", () => {
  const text = `# the team\n\nalice ${A}\n  bob\t${B}  \r\n# end\n`;
  assert.deepEqual(parseTokenFile(text, "/etc/tokens"), [
    { name: "alice", token: A },
    { name: "bob", token: B },
  ]);
});

Deno.test("parseTokenFile() refuses a bad line naming its number, never the token", () => {
  const cases: [string, RegExp][] = [
    [
      `alice ${A}\nbad name ${B}`,
      /line 2 is not accepted: expected "name token"/,
    ],
    [
      `al/ice ${A}`,
      /line 1 is not accepted: expected "name token" with a name of 1 to 64/,
    ],
    [`${"n".repeat(65)} ${A}`, /line 1 .* a name of 1 to 64/],
    [`alice`, /line 1 .* a name, one space and a token/],
    [
      `alice shorttoken`,
      /line 1 .* the token of alice must be 32 to 4096 characters .*current length 10/,
    ],
    [`alice ${A}\nalice ${B}`, /line 2 .* the name alice is used twice/],
    [`alice ${A}\nbob ${A}`, /line 2 .* the token of bob is already used/],
    [`# only comments\n\n`, /names no identity/],
  ];
  for (const [text, pattern] of cases) {
    const message = refusal(text);
    assert.match(message, /^RUSTPAD_MCP_TOKENS file "\/etc\/tokens" /);
    assert.match(message, pattern, text);
    assert.ok(!message.includes(A) && !message.includes(B), message);
    assert.ok(!message.includes("shorttoken"), message);
  }
});

Deno.test("parseTokenFile() refuses a named token equal to RUSTPAD_MCP_TOKEN", () => {
  assert.match(
    refusal(`alice ${A}`, A),
    /line 1 .* already used .*RUSTPAD_MCP_TOKEN/,
  );
});

Deno.test("readTokenFile() reads the file, and refuses one it cannot read", async () => {
  const file = await Deno.makeTempFile();
  try {
    await Deno.writeTextFile(file, `alice ${A}\n`);
    assert.deepEqual(await readTokenFile(file), [{ name: "alice", token: A }]);
  } finally {
    await Deno.remove(file);
  }
  await assert.rejects(
    readTokenFile(`${file}.missing`),
    (error: Error) =>
      error instanceof ConfigError &&
      /^RUSTPAD_MCP_TOKENS=".*\.missing" is not accepted: cannot read it \(NotFound\)/
        .test(error.message),
  );
});
