// A pad at Rustpad's limit with an occurrence every other code point: the
// most places one replace_all can change. Every path from locating to the
// pad server's answer must take them without a spread of arguments
// (`push(...array)`), which overflows the stack at about 100,000.

import assert from "node:assert/strict";
import { connect, structured } from "../_mcp.ts";
import { MAX_TEXT_LENGTH } from "../../src/mod.ts";
import { startPadServer } from "../../src/testing/mod.ts";

const PAIRS = MAX_TEXT_LENGTH / 2;

async function fullPad(): Promise<Awaited<ReturnType<typeof connect>>> {
  const pads = await startPadServer({
    pads: { full: { text: "x ".repeat(PAIRS) } },
    snapshotIntervalMs: 0,
  });
  const h = await connect({ pads, env: { RUSTPAD_CONFIRM: "never" } });
  return {
    ...h,
    async [Symbol.asyncDispose]() {
      await h[Symbol.asyncDispose]();
      await pads.close();
    },
  };
}

Deno.test("`edit_document` replace_all changes all 131,072 occurrences in a full pad", async () => {
  await using h = await fullPad();
  const result = structured(
    await h.call("edit_document", {
      id: "full",
      edits: [{ old_string: "x", new_string: "y", replace_all: true }],
    }),
  );
  assert.equal(result.status, "applied");
  assert.equal(result.length, MAX_TEXT_LENGTH);
  assert.equal(await h.text("full"), "y ".repeat(PAIRS));
});

Deno.test("`replace_in_document` replace_all changes all 131,072 occurrences in a full pad", async () => {
  await using h = await fullPad();
  const result = structured(
    await h.call("replace_in_document", {
      id: "full",
      search: "x",
      replace: "z",
      replace_all: true,
    }),
  );
  assert.equal(result.status, "applied");
  assert.equal(result.length, MAX_TEXT_LENGTH);
  assert.equal(await h.text("full"), "z ".repeat(PAIRS));
});
