import assert from "node:assert/strict";
import { loadConfig } from "../../src/config/config.ts";
import { refusal } from "../_config.ts";

Deno.test("the embedded pad server stays on 127.0.0.1:3030 with the default pads file unless RUSTPAD_EMBEDDED_PUBLIC, RUSTPAD_EMBEDDED_DB and RUSTPAD_EMBEDDED_LISTEN say otherwise", () => {
  const defaults = loadConfig({});
  assert.equal(defaults.embeddedPublic, false);
  assert.equal(defaults.embeddedDatabase, undefined);
  assert.deepEqual(defaults.embeddedListen, {
    hostname: "127.0.0.1",
    port: 3030,
  });
  const set = loadConfig({
    RUSTPAD_EMBEDDED_PUBLIC: "YES",
    RUSTPAD_EMBEDDED_DB: "  /var/lib/pads.sqlite ",
    RUSTPAD_EMBEDDED_LISTEN: "[::1]:8030",
  });
  assert.equal(set.embeddedPublic, true);
  assert.equal(set.embeddedDatabase, "/var/lib/pads.sqlite");
  assert.deepEqual(set.embeddedListen, { hostname: "::1", port: 8030 });
  assert.equal(
    loadConfig({ RUSTPAD_EMBEDDED_DB: " Memory " }).embeddedDatabase,
    false,
  );
});

Deno.test("a bad RUSTPAD_EMBEDDED_PUBLIC, RUSTPAD_EMBEDDED_DB or RUSTPAD_EMBEDDED_LISTEN is refused naming the variable, the value and what is accepted", () => {
  assert.match(
    refusal({ RUSTPAD_EMBEDDED_PUBLIC: "open" }),
    /^RUSTPAD_EMBEDDED_PUBLIC="open" is not accepted: expected true, 1 or yes/,
  );
  assert.match(
    refusal({ RUSTPAD_EMBEDDED_DB: "pads\u0007.sqlite" }),
    /^RUSTPAD_EMBEDDED_DB="pads\\u0007.sqlite" is not accepted: expected a file path .*, or memory$/,
  );
  assert.match(
    refusal({ RUSTPAD_EMBEDDED_LISTEN: "localhost:99999" }),
    /^RUSTPAD_EMBEDDED_LISTEN="localhost:99999" is not accepted: expected \[HOST:\]PORT/,
  );
});

Deno.test("RUSTPAD_PAD_SERVER_IDLE_SECONDS is 3600 unless set, 0 means never, and anything but an integer from 0 to 31536000 is refused", () => {
  assert.equal(loadConfig({}).padServerIdleSeconds, 3600);
  assert.equal(
    loadConfig({ RUSTPAD_PAD_SERVER_IDLE_SECONDS: " 0 " }).padServerIdleSeconds,
    0,
  );
  for (const value of ["-1", "1h", "31536001"]) {
    assert.match(
      refusal({ RUSTPAD_PAD_SERVER_IDLE_SECONDS: value }),
      new RegExp(
        `^RUSTPAD_PAD_SERVER_IDLE_SECONDS="${value}" is not accepted: expected an integer from 0 to 31536000`,
      ),
    );
  }
});
