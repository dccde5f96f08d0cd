// The value parsers the configuration table is built from.. The ones no
// variable uses yet (choices, lists, secrets) are pinned here so the
// engineers adding variables can rely on them.

import assert from "node:assert/strict";
import {
  choiceValue,
  integerValue,
  listValue,
  notAccepted,
  textValue,
} from "../../src/config/_parse.ts";
import type { ConfigError } from "../../src/config/config_error.ts";
import { configErrorOf } from "../_config.ts";

function refusal(parse: () => unknown): ConfigError {
  const error = configErrorOf(parse);
  assert.ok(!error.message.includes("\n"));
  return error;
}

Deno.test("choiceValue() takes one of its words in any case and gives the listed spelling", () => {
  const parse = choiceValue(["destructive", "always", "never"], "destructive");
  assert.equal(parse(undefined, "X"), "destructive");
  assert.equal(parse(" ALWAYS ", "X"), "always");
  assert.equal(parse("never", "X"), "never");
  assert.equal(
    refusal(() => parse("sometimes", "RUSTPAD_CONFIRM")).message,
    'RUSTPAD_CONFIRM="sometimes" is not accepted: expected destructive, always or never',
  );
});

Deno.test("listValue() splits on commas, trims, drops empty items and checks each item", () => {
  const parse = listValue({
    fallback: ["localhost"],
    check: (item) => /^[a-z0-9.:-]+$/.test(item),
    accepted: "host names",
  });
  assert.deepEqual(parse(undefined, "X"), ["localhost"]);
  assert.deepEqual(parse(" a.example , ,b.example:8080,", "X"), [
    "a.example",
    "b.example:8080",
  ]);
  assert.equal(
    refusal(() => parse("a.example,bad host", "HOSTS")).message,
    'HOSTS="a.example,bad host" is not accepted: cannot use "bad host"; expected a comma-separated list of host names',
  );
});

Deno.test("textValue() with secret never echoes a refused value", () => {
  const parse = textValue({ fallback: undefined, maxLength: 8, secret: true });
  assert.equal(parse(undefined, "TOKEN"), undefined);
  assert.equal(parse("  s3cret ", "TOKEN"), "s3cret");
  const error = refusal(() => parse("toolongsecret", "TOKEN"));
  assert.ok(!error.message.includes("toolongsecret"), error.message);
  assert.equal(
    error.message,
    "TOKEN=(13 hidden characters) is not accepted: expected 1 to 8 characters without control characters",
  );
  assert.ok(!notAccepted("T", "abc", "x", true).message.includes("abc"));
});

Deno.test("integerValue() names the unit when it has one", () => {
  const parse = integerValue({ min: 1, max: 10, fallback: 5, unit: "seconds" });
  assert.equal(parse(undefined, "X"), 5);
  assert.equal(parse("10", "X"), 10);
  assert.match(
    refusal(() => parse("11", "IDLE")).message,
    /^IDLE="11" is not accepted: expected an integer from 1 to 10 \(seconds\)$/,
  );
});
