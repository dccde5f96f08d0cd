import assert from "node:assert/strict";
import { loadConfig } from "../../src/config/config.ts";
import { CONFIG_VARIABLES, usage } from "../../src/config/usage.ts";

Deno.test("CONFIG_VARIABLES lists every variable with its default", () => {
  assert.deepEqual(CONFIG_VARIABLES.map((v) => v.name), [
    "RUSTPAD_URL",
    "RUSTPAD_ALLOW_TOOLS",
    "RUSTPAD_DENY_TOOLS",
    "RUSTPAD_READ_ONLY",
    "ELICITATION",
    "RUSTPAD_CONFIRM",
    "RUSTPAD_SUGGEST",
    "RUSTPAD_SUGGEST_TTL",
    "RUSTPAD_REQUIRE_READ",
    "RUSTPAD_USER_NAME",
    "RUSTPAD_USER_HUE",
    "RUSTPAD_TIMEOUT_MS",
    "RUSTPAD_MAX_OPEN_PADS",
    "RUSTPAD_MCP_LISTEN",
    "RUSTPAD_MCP_TOKEN",
    "RUSTPAD_MCP_ALLOWED_HOSTS",
    "RUSTPAD_MCP_ALLOWED_ORIGINS",
    "RUSTPAD_MCP_SESSION_IDLE_S",
    "RUSTPAD_MCP_MAX_SESSIONS",
    "RUSTPAD_MCP_MAX_CONNECTIONS",
    "RUSTPAD_MCP_REQUEST_TIMEOUT_MS",
    "RUSTPAD_MCP_KEEP_ALIVE_TIMEOUT_MS",
    "RUSTPAD_MCP_MAX_MESSAGE_BYTES",
    "RUSTPAD_CONFIRM_SECRET",
    "RUSTPAD_MCP_TOKENS",
    "RUSTPAD_STATE_URL",
    "RUSTPAD_STATE_PASSWORD",
    "RUSTPAD_EMBEDDED_PUBLIC",
    "RUSTPAD_EMBEDDED_DB",
    "RUSTPAD_EMBEDDED_LISTEN",
    "RUSTPAD_EMBEDDED_PUBLIC_HOST",
    "RUSTPAD_EMBEDDED_ALLOWED_ORIGINS",
    "RUSTPAD_EMBEDDED_MAX_CONNECTIONS",
    "RUSTPAD_EMBEDDED_MAX_SOCKETS_PER_PAD",
    "RUSTPAD_PAD_SERVER_IDLE_SECONDS",
    "RUSTPAD_EMBEDDED_SYNC",
    "RUSTPAD_AGENT_SECRET_FILE",
    "RUSTPAD_AGENT_SECRET",
  ]);
  const defaults = Object.fromEntries(
    CONFIG_VARIABLES.map((v) => [v.name, v.default]),
  );
  assert.equal(defaults.RUSTPAD_URL, "https://rustpad.io");
  assert.equal(defaults.RUSTPAD_USER_NAME, "rustpad-mcp");
  assert.equal(defaults.RUSTPAD_TIMEOUT_MS, "15000");
  assert.equal(defaults.RUSTPAD_MAX_OPEN_PADS, "100");
  assert.equal(defaults.RUSTPAD_USER_HUE, String(loadConfig({}).userHue));
  assert.equal(defaults.ELICITATION, "true");
  assert.equal(defaults.RUSTPAD_READ_ONLY, "false");
  assert.equal(defaults.RUSTPAD_CONFIRM, "destructive");
  assert.equal(defaults.RUSTPAD_MCP_SESSION_IDLE_S, "1800");
  assert.equal(defaults.RUSTPAD_MCP_MAX_SESSIONS, "1000");
  assert.equal(defaults.RUSTPAD_EMBEDDED_PUBLIC, "false");
  assert.equal(defaults.RUSTPAD_EMBEDDED_DB, "the user's data directory");
  assert.equal(defaults.RUSTPAD_EMBEDDED_LISTEN, "127.0.0.1:3030");
  assert.equal(defaults.RUSTPAD_EMBEDDED_MAX_CONNECTIONS, "1024");
  assert.equal(defaults.RUSTPAD_EMBEDDED_MAX_SOCKETS_PER_PAD, "256");
  assert.equal(defaults.RUSTPAD_EMBEDDED_SYNC, "normal");
  assert.equal(defaults.RUSTPAD_PAD_SERVER_IDLE_SECONDS, "3600");
  assert.equal(defaults.RUSTPAD_MCP_MAX_CONNECTIONS, "1024");
  assert.equal(defaults.RUSTPAD_MCP_REQUEST_TIMEOUT_MS, "10000");
  assert.equal(defaults.RUSTPAD_MCP_KEEP_ALIVE_TIMEOUT_MS, "5000");
  assert.equal(defaults.RUSTPAD_MCP_MAX_MESSAGE_BYTES, "8388608 (8 MiB)");
  for (const variable of CONFIG_VARIABLES) {
    assert.ok(variable.meaning.length > 0);
  }
  assert.ok(Object.isFrozen(CONFIG_VARIABLES));
});

Deno.test("usage() names the version, every variable with its default, and fits 80 columns", () => {
  const text = usage("1.2.3");
  assert.match(text, /^rustpad-mcp 1\.2\.3\n/);
  assert.match(text, /--help/);
  assert.match(text, /exit code 2/);
  assert.ok(text.endsWith("\n"));
  for (const variable of CONFIG_VARIABLES) {
    assert.ok(text.includes(`\n  ${variable.name}\n`), variable.name);
    assert.ok(text.includes(`Default: ${variable.default}\n`), variable.name);
  }
  for (const line of text.split("\n")) assert.ok(line.length <= 80, line);
});
