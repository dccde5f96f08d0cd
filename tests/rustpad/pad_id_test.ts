import assert from "node:assert/strict";
import { checkPadId, MAX_PAD_ID_LENGTH } from "../../src/rustpad/pad_id.ts";

// ---------------------------------------------------------------------------
// Pad ids and URLs

Deno.test("`checkPadId()` accepts letters, digits, '.', '_' and '-' up to 256 characters", () => {
  for (
    const id of ["a", "abc", "A-Z_0.9", "...", ".a", "a..", "x".repeat(256)]
  ) {
    assert.equal(checkPadId(id), id);
  }
  assert.equal(MAX_PAD_ID_LENGTH, 256);
});

Deno.test("`checkPadId()` refuses ids that would not reach the server unchanged", () => {
  for (
    const id of [
      "",
      ".",
      "..",
      "a/b",
      "a b",
      "x".repeat(257),
      "%2e%2e",
      "a#b",
      "a?b",
      "é",
      "🎉",
      "a\\b",
    ]
  ) {
    assert.throws(() => checkPadId(id), TypeError, JSON.stringify(id));
  }
  assert.throws(() => checkPadId(""), {
    name: "TypeError",
    message:
      `Cannot use pad id "" as it is empty: a pad id is 1 to 256 ASCII letters, digits, '.', '_' or '-', and not '.' or '..'`,
  });
});
