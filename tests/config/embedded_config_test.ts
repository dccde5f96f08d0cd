import assert from "node:assert/strict";
import { loadConfig } from "../../src/config/config.ts";
import { refusal } from "../_config.ts";

Deno.test("the embedded pad server stays on loopback and in memory unless RUSTPAD_EMBEDDED_PUBLIC and RUSTPAD_EMBEDDED_DB say otherwise", () => {
  const defaults = loadConfig({});
  assert.equal(defaults.embeddedPublic, false);
  assert.equal(defaults.embeddedDatabase, undefined);
  const set = loadConfig({
    RUSTPAD_EMBEDDED_PUBLIC: "YES",
    RUSTPAD_EMBEDDED_DB: "  /var/lib/pads.sqlite ",
  });
  assert.equal(set.embeddedPublic, true);
  assert.equal(set.embeddedDatabase, "/var/lib/pads.sqlite");
});

Deno.test("a bad RUSTPAD_EMBEDDED_PUBLIC or RUSTPAD_EMBEDDED_DB is refused naming the variable, the value and what is accepted", () => {
  assert.match(
    refusal({ RUSTPAD_EMBEDDED_PUBLIC: "open" }),
    /^RUSTPAD_EMBEDDED_PUBLIC="open" is not accepted: expected true, 1 or yes/,
  );
  assert.match(
    refusal({ RUSTPAD_EMBEDDED_DB: "pads\u0007.sqlite" }),
    /^RUSTPAD_EMBEDDED_DB="pads\\u0007.sqlite" is not accepted: expected a file path/,
  );
});
