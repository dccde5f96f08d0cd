import assert from "node:assert/strict";
import { loadConfig } from "../../src/config/config.ts";
import { TOOL_NAMES } from "../../src/config/tool_names.ts";
import { CONFIG_VARIABLES } from "../../src/config/usage.ts";
import { assertRefused, type Env } from "../_config.ts";

Deno.test("loadConfig() gives the defaults for an empty environment", () => {
  const config = loadConfig({});
  assert.equal(config.rustpadUrl.href, "https://rustpad.io/");
  assert.deepEqual([...config.tools], [...TOOL_NAMES]);
  assert.equal(config.readOnly, false);
  assert.equal(config.elicitation, true);
  assert.equal(config.userName, "rustpad-mcp");
  assert.equal(config.userHue, 200);
  assert.equal(config.timeoutMs, 15000);
  assert.equal(config.maxOpenPads, 100);
});

Deno.test("loadConfig() treats empty and blank variables as unset", () => {
  const blank: Env = {};
  for (const { name } of CONFIG_VARIABLES) blank[name] = "";
  assert.deepEqual(loadConfig(blank), loadConfig({}));
  for (const { name } of CONFIG_VARIABLES) blank[name] = "  \t";
  assert.deepEqual(loadConfig(blank), loadConfig({}));
  const undefinedValues: Env = {};
  for (const { name } of CONFIG_VARIABLES) undefinedValues[name] = undefined;
  assert.deepEqual(loadConfig(undefinedValues), loadConfig({}));
});

Deno.test("loadConfig() ignores variables it does not know", () => {
  assert.deepEqual(
    loadConfig({ RUSTPAD_READONLY: "banana", HOME: "/root" }),
    loadConfig({}),
  );
});

Deno.test("loadConfig() reads RUSTPAD_URL through parseBaseUrl and keeps a path prefix", () => {
  assert.equal(
    loadConfig({ RUSTPAD_URL: "http://127.0.0.1:3030" }).rustpadUrl.href,
    "http://127.0.0.1:3030/",
  );
  assert.equal(
    loadConfig({ RUSTPAD_URL: " https://example.com/rustpad " }).rustpadUrl
      .href,
    "https://example.com/rustpad/",
  );
});

Deno.test("loadConfig() refuses a RUSTPAD_URL that is not an absolute http(s) URL", () => {
  for (
    const value of [
      "ftp://example.com",
      "ws://example.com",
      "example.com",
      "/relative",
      "https://example.com/?q=1",
      "https://example.com/#x",
      "https://user:pw@example.com/",
    ]
  ) {
    const error = assertRefused(
      { RUSTPAD_URL: value },
      "RUSTPAD_URL",
      /is not accepted: expected an absolute http or https URL/,
    );
    assert.ok(error.message.includes(JSON.stringify(value)), error.message);
  }
});

Deno.test("loadConfig() reads RUSTPAD_READ_ONLY and ELICITATION as booleans in any case", () => {
  for (const value of ["true", "TRUE", "True", "1", "yes", "YES", " yes\n"]) {
    assert.equal(
      loadConfig({ RUSTPAD_READ_ONLY: value }).readOnly,
      true,
      value,
    );
    assert.equal(loadConfig({ ELICITATION: value }).elicitation, true, value);
  }
  for (const value of ["false", "FALSE", "0", "no", "No", " no "]) {
    assert.equal(
      loadConfig({ RUSTPAD_READ_ONLY: value }).readOnly,
      false,
      value,
    );
    assert.equal(loadConfig({ ELICITATION: value }).elicitation, false, value);
  }
});

Deno.test("loadConfig() refuses an unrecognised boolean, naming the variable and the value", () => {
  for (const variable of ["RUSTPAD_READ_ONLY", "ELICITATION"]) {
    for (const value of ["maybe", "on", "off", "y", "n", "2", "true!", "t"]) {
      const error = assertRefused(
        { [variable]: value },
        variable,
        /is not accepted: expected true, 1 or yes, or false, 0 or no \(any case\)$/,
      );
      assert.ok(
        error.message.startsWith(`${variable}=${JSON.stringify(value)} `),
        error.message,
      );
    }
  }
});

Deno.test("loadConfig() reads RUSTPAD_USER_NAME trimmed", () => {
  assert.equal(
    loadConfig({ RUSTPAD_USER_NAME: "  Claude  " }).userName,
    "Claude",
  );
  assert.equal(
    loadConfig({ RUSTPAD_USER_NAME: "🤖 agent" }).userName,
    "🤖 agent",
  );
  const longest = "🤖".repeat(64);
  assert.equal(loadConfig({ RUSTPAD_USER_NAME: longest }).userName, longest);
});

Deno.test("loadConfig() refuses a RUSTPAD_USER_NAME that is too long or holds control characters", () => {
  for (
    const value of [
      "a".repeat(65),
      "🤖".repeat(65),
      "a\nb",
      "tab\there",
      "bell\u0007",
      "del\u007f",
      "c1\u0085",
    ]
  ) {
    assertRefused(
      { RUSTPAD_USER_NAME: value },
      "RUSTPAD_USER_NAME",
      /is not accepted: expected 1 to 64 characters without control characters$/,
    );
  }
});

Deno.test("loadConfig() reads RUSTPAD_USER_HUE from 0 to 359", () => {
  assert.equal(loadConfig({ RUSTPAD_USER_HUE: "0" }).userHue, 0);
  assert.equal(loadConfig({ RUSTPAD_USER_HUE: "359" }).userHue, 359);
  assert.equal(loadConfig({ RUSTPAD_USER_HUE: " 042 " }).userHue, 42);
});

Deno.test("loadConfig() refuses a RUSTPAD_USER_HUE that is not an integer from 0 to 359", () => {
  for (
    const value of [
      "red",
      "360",
      "-1",
      "1.5",
      "1e2",
      "0x10",
      "+5",
      "12 3",
      "99999999999999999999999",
    ]
  ) {
    const error = assertRefused(
      { RUSTPAD_USER_HUE: value },
      "RUSTPAD_USER_HUE",
      /is not accepted: expected an integer from 0 to 359$/,
    );
    assert.ok(error.message.includes(JSON.stringify(value)));
  }
  assert.equal(
    assertRefused({ RUSTPAD_USER_HUE: "red" }, "RUSTPAD_USER_HUE", /./).message,
    'RUSTPAD_USER_HUE="red" is not accepted: expected an integer from 0 to 359',
  );
});

Deno.test("loadConfig() reads RUSTPAD_TIMEOUT_MS from 1 to 3600000", () => {
  assert.equal(loadConfig({ RUSTPAD_TIMEOUT_MS: "1" }).timeoutMs, 1);
  assert.equal(
    loadConfig({ RUSTPAD_TIMEOUT_MS: "3600000" }).timeoutMs,
    3600000,
  );
  assert.equal(loadConfig({ RUSTPAD_TIMEOUT_MS: "2500" }).timeoutMs, 2500);
});

Deno.test("loadConfig() refuses a RUSTPAD_TIMEOUT_MS that is not a plain integer in range", () => {
  for (
    const value of [
      "0",
      "3600001",
      "15s",
      "1e3",
      "1.5",
      "-5",
      "abc",
      "1_000",
      "Infinity",
    ]
  ) {
    assertRefused(
      { RUSTPAD_TIMEOUT_MS: value },
      "RUSTPAD_TIMEOUT_MS",
      /is not accepted: expected an integer from 1 to 3600000 \(milliseconds\)$/,
    );
  }
});

Deno.test("loadConfig() reads RUSTPAD_MAX_OPEN_PADS from 1 to 10000", () => {
  assert.equal(loadConfig({ RUSTPAD_MAX_OPEN_PADS: "1" }).maxOpenPads, 1);
  assert.equal(loadConfig({ RUSTPAD_MAX_OPEN_PADS: " 5 " }).maxOpenPads, 5);
  assert.equal(
    loadConfig({ RUSTPAD_MAX_OPEN_PADS: "10000" }).maxOpenPads,
    10000,
  );
});

Deno.test("loadConfig() refuses a RUSTPAD_MAX_OPEN_PADS that is not an integer from 1 to 10000", () => {
  for (const value of ["0", "10001", "-1", "1.5", "many", "1e2"]) {
    assertRefused(
      { RUSTPAD_MAX_OPEN_PADS: value },
      "RUSTPAD_MAX_OPEN_PADS",
      /is not accepted: expected an integer from 1 to 10000$/,
    );
  }
});

Deno.test("ConfigError messages quote control characters and shorten very long values", () => {
  const error = assertRefused(
    { RUSTPAD_USER_HUE: "1\n2" },
    "RUSTPAD_USER_HUE",
    /^RUSTPAD_USER_HUE="1\\n2" is not accepted/,
  );
  assert.ok(error instanceof Error);
  const long = assertRefused(
    { RUSTPAD_TIMEOUT_MS: "9".repeat(1000) },
    "RUSTPAD_TIMEOUT_MS",
    /\.\.\. \(1000 characters\) is not accepted/,
  );
  assert.ok(long.message.length < 400, long.message);
});

Deno.test("loadConfig() reports the first bad variable in the documented order", () => {
  assertRefused(
    { RUSTPAD_URL: "ftp://x", RUSTPAD_USER_HUE: "red" },
    "RUSTPAD_URL",
    /./,
  );
  assertRefused(
    { RUSTPAD_ALLOW_TOOLS: "nope", RUSTPAD_READ_ONLY: "maybe" },
    "RUSTPAD_ALLOW_TOOLS",
    /./,
  );
  assertRefused(
    { RUSTPAD_USER_HUE: "red", RUSTPAD_TIMEOUT_MS: "15s" },
    "RUSTPAD_USER_HUE",
    /./,
  );
});

Deno.test("loadConfig() reads every variable at once", () => {
  const config = loadConfig({
    RUSTPAD_URL: "http://localhost:3030/pads",
    RUSTPAD_ALLOW_TOOLS: "essential,replace_in_document",
    RUSTPAD_DENY_TOOLS: "create_document",
    RUSTPAD_READ_ONLY: "no",
    ELICITATION: "false",
    RUSTPAD_USER_NAME: "Agent",
    RUSTPAD_USER_HUE: "120",
    RUSTPAD_TIMEOUT_MS: "5000",
    RUSTPAD_EMBEDDED_DB: "pads.sqlite",
    RUSTPAD_MAX_OPEN_PADS: "7",
    RUSTPAD_MCP_TOKENS: "/etc/rustpad-mcp/tokens",
    RUSTPAD_STATE_URL: "redis://127.0.0.1:6379/2",
    RUSTPAD_STATE_PASSWORD: "hunter2",
    RUSTPAD_PAD_SERVER_IDLE_SECONDS: "0",
    RUSTPAD_EMBEDDED_SYNC: "full",
    RUSTPAD_AGENT_SECRET_FILE: "/srv/pads/agent.secret",
    RUSTPAD_AGENT_SECRET: "s".repeat(43),
  });
  assert.deepEqual({
    ...config,
    rustpadUrl: config.rustpadUrl.href,
    tools: [...config.tools],
    stateUrl: config.stateUrl?.href,
  }, {
    rustpadUrl: "http://localhost:3030/pads/",
    tools: [
      "get_document",
      "get_document_info",
      "set_document",
      "append_to_document",
      "replace_in_document",
    ],
    readOnly: false,
    elicitation: false,
    userName: "Agent",
    userHue: 120,
    timeoutMs: 5000,
    maxOpenPads: 7,
    confirm: "destructive",
    suggest: "offer",
    suggestTtlS: 3600,
    requireRead: false,
    listen: undefined,
    httpToken: undefined,
    allowedHosts: [],
    allowedOrigins: [],
    sessionIdleS: 1800,
    maxSessions: 1000,
    maxConnections: 1024,
    requestTimeoutMs: 10_000,
    keepAliveTimeoutMs: 5000,
    maxMessageBytes: 8_388_608,
    confirmSecret: undefined,
    httpTokensFile: "/etc/rustpad-mcp/tokens",
    stateUrl: "redis://127.0.0.1:6379/2",
    statePassword: "hunter2",
    embeddedPublic: false,
    embeddedDatabase: "pads.sqlite",
    embeddedListen: { hostname: "127.0.0.1", port: 3030 },
    embeddedPublicHost: undefined,
    embeddedAllowedOrigins: [],
    embeddedMaxConnections: 1024,
    embeddedMaxSocketsPerPad: 256,
    padServerIdleSeconds: 0,
    embeddedSync: "full",
    agentSecretFile: "/srv/pads/agent.secret",
    agentSecretText: "s".repeat(43),
  });
});
