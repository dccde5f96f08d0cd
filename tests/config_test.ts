import assert from "node:assert/strict";
import {
  CONFIG_VARIABLES,
  ConfigError,
  configFromEnvironment,
  ESSENTIAL_TOOLS,
  loadConfig,
  READ_TOOLS,
  TOOL_NAMES,
  usage,
} from "../src/config.ts";

type Env = Record<string, string | undefined>;

/** Assert that `env` is refused for `variable` with a one-line message. */
function assertRefused(
  env: Env,
  variable: string,
  pattern: RegExp,
): ConfigError {
  let caught: unknown;
  try {
    loadConfig(env);
  } catch (error) {
    caught = error;
  }
  assert.ok(
    caught instanceof ConfigError,
    `expected a ConfigError for ${JSON.stringify(env)}`,
  );
  assert.equal(caught.variable, variable);
  assert.equal(caught.name, "ConfigError");
  assert.ok(!caught.message.includes("\n"), "the message is one line");
  assert.ok(caught.message.startsWith(variable), caught.message);
  assert.match(caught.message, pattern);
  return caught;
}

Deno.test("loadConfig() gives the defaults for an empty environment", () => {
  const config = loadConfig({});
  assert.equal(config.rustpadUrl.href, "https://rustpad.io/");
  assert.deepEqual([...config.tools], [...TOOL_NAMES]);
  assert.equal(config.readOnly, false);
  assert.equal(config.elicitation, true);
  assert.equal(config.userName, "rustpad-mcp");
  assert.equal(config.userHue, 200);
  assert.equal(config.timeoutMs, 15000);
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

Deno.test("TOOL_NAMES, READ_TOOLS and ESSENTIAL_TOOLS list the tools of the issue", () => {
  assert.deepEqual(TOOL_NAMES, [
    "get_document",
    "get_document_info",
    "get_stats",
    "create_document",
    "set_document",
    "append_to_document",
    "replace_in_document",
    "set_language",
  ]);
  assert.deepEqual(READ_TOOLS, [
    "get_document",
    "get_document_info",
    "get_stats",
  ]);
  assert.deepEqual(ESSENTIAL_TOOLS, [
    "get_document",
    "get_document_info",
    "create_document",
    "set_document",
    "append_to_document",
  ]);
  assert.ok(Object.isFrozen(TOOL_NAMES));
  assert.ok(Object.isFrozen(READ_TOOLS));
  assert.ok(Object.isFrozen(ESSENTIAL_TOOLS));
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

Deno.test("loadConfig() with RUSTPAD_READ_ONLY registers only the three read tools", () => {
  const config = loadConfig({ RUSTPAD_READ_ONLY: "yes" });
  assert.equal(config.readOnly, true);
  assert.deepEqual([...config.tools], [...READ_TOOLS]);
});

Deno.test("loadConfig() with RUSTPAD_ALLOW_TOOLS registers only the listed tools, in TOOL_NAMES order", () => {
  const config = loadConfig({
    RUSTPAD_ALLOW_TOOLS: " set_language , ,get_stats,,get_stats ",
  });
  assert.deepEqual([...config.tools], ["get_stats", "set_language"]);
});

Deno.test("loadConfig() expands essential in RUSTPAD_ALLOW_TOOLS", () => {
  assert.deepEqual(
    [...loadConfig({ RUSTPAD_ALLOW_TOOLS: "essential" }).tools],
    [...ESSENTIAL_TOOLS],
  );
  assert.deepEqual(
    [...loadConfig({ RUSTPAD_ALLOW_TOOLS: "essential,set_language" }).tools],
    [...ESSENTIAL_TOOLS, "set_language"],
  );
});

Deno.test("loadConfig() removes RUSTPAD_DENY_TOOLS from all tools", () => {
  assert.deepEqual(
    [...loadConfig({ RUSTPAD_DENY_TOOLS: "replace_in_document" }).tools],
    TOOL_NAMES.filter((tool) => tool !== "replace_in_document"),
  );
  assert.deepEqual(
    [...loadConfig({ RUSTPAD_DENY_TOOLS: "essential" }).tools],
    ["get_stats", "replace_in_document", "set_language"],
  );
});

Deno.test("loadConfig() with allow essential and deny set_document keeps the other essential tools", () => {
  const config = loadConfig({
    RUSTPAD_ALLOW_TOOLS: "essential",
    RUSTPAD_DENY_TOOLS: "set_document",
  });
  assert.deepEqual([...config.tools], [
    "get_document",
    "get_document_info",
    "create_document",
    "append_to_document",
  ]);
});

Deno.test("loadConfig() with read-only and an allow list keeps only allowed read tools", () => {
  const config = loadConfig({
    RUSTPAD_READ_ONLY: "true",
    RUSTPAD_ALLOW_TOOLS: "get_document,set_document,get_stats",
  });
  assert.deepEqual([...config.tools], ["get_document", "get_stats"]);
  const essential = loadConfig({
    RUSTPAD_READ_ONLY: "1",
    RUSTPAD_ALLOW_TOOLS: "essential",
    RUSTPAD_DENY_TOOLS: "get_document",
  });
  assert.deepEqual([...essential.tools], ["get_document_info"]);
});

Deno.test("loadConfig() refuses an unknown tool name, naming it", () => {
  for (const variable of ["RUSTPAD_ALLOW_TOOLS", "RUSTPAD_DENY_TOOLS"]) {
    for (const name of ["get_docs", "Get_Document", "ESSENTIAL", "all", "*"]) {
      assertRefused(
        { [variable]: `get_document,${name}` },
        variable,
        new RegExp(
          `is not accepted: unknown tool name "${
            name.replace("*", "\\*")
          }"; expected a comma-separated list of tool names \\(get_document, .*\\) or the word essential$`,
        ),
      );
    }
  }
});

Deno.test("loadConfig() refuses tool settings that leave no tool, naming both variables", () => {
  const denied = assertRefused(
    { RUSTPAD_ALLOW_TOOLS: "get_stats", RUSTPAD_DENY_TOOLS: "get_stats" },
    "RUSTPAD_ALLOW_TOOLS",
    /^RUSTPAD_ALLOW_TOOLS="get_stats" and RUSTPAD_DENY_TOOLS="get_stats" are not accepted together: they leave no tool to register/,
  );
  assert.match(
    denied.message,
    /expected at least one tool that is allowed and not denied$/,
  );
  assertRefused(
    { RUSTPAD_DENY_TOOLS: TOOL_NAMES.join(",") },
    "RUSTPAD_DENY_TOOLS",
    /^RUSTPAD_DENY_TOOLS=".*" is not accepted: it leaves no tool to register/,
  );
  assertRefused(
    { RUSTPAD_ALLOW_TOOLS: " , ," },
    "RUSTPAD_ALLOW_TOOLS",
    /it leaves no tool to register/,
  );
});

Deno.test("loadConfig() refuses read-only with an allow list of write tools", () => {
  assertRefused(
    { RUSTPAD_READ_ONLY: "yes", RUSTPAD_ALLOW_TOOLS: "set_document" },
    "RUSTPAD_ALLOW_TOOLS",
    /^RUSTPAD_ALLOW_TOOLS="set_document" and RUSTPAD_READ_ONLY="yes" are not accepted together: they leave no tool to register; expected at least one read tool that is allowed and not denied$/,
  );
  assertRefused(
    { RUSTPAD_READ_ONLY: "yes", RUSTPAD_DENY_TOOLS: READ_TOOLS.join(",") },
    "RUSTPAD_DENY_TOOLS",
    /^RUSTPAD_DENY_TOOLS=".*" and RUSTPAD_READ_ONLY="yes" are not accepted together/,
  );
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
  });
  assert.deepEqual({
    ...config,
    rustpadUrl: config.rustpadUrl.href,
    tools: [...config.tools],
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
  });
});

Deno.test("CONFIG_VARIABLES lists the eight variables of the issue with defaults", () => {
  assert.deepEqual(CONFIG_VARIABLES.map((v) => v.name), [
    "RUSTPAD_URL",
    "RUSTPAD_ALLOW_TOOLS",
    "RUSTPAD_DENY_TOOLS",
    "RUSTPAD_READ_ONLY",
    "ELICITATION",
    "RUSTPAD_USER_NAME",
    "RUSTPAD_USER_HUE",
    "RUSTPAD_TIMEOUT_MS",
  ]);
  const defaults = Object.fromEntries(
    CONFIG_VARIABLES.map((v) => [v.name, v.default]),
  );
  assert.equal(defaults.RUSTPAD_URL, "https://rustpad.io");
  assert.equal(defaults.RUSTPAD_USER_NAME, "rustpad-mcp");
  assert.equal(defaults.RUSTPAD_TIMEOUT_MS, "15000");
  assert.equal(defaults.RUSTPAD_USER_HUE, String(loadConfig({}).userHue));
  assert.equal(defaults.ELICITATION, "true");
  assert.equal(defaults.RUSTPAD_READ_ONLY, "false");
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

Deno.test("configFromEnvironment() reads only the configuration variables from Deno.env", async () => {
  const names = CONFIG_VARIABLES.map((v) => v.name);
  const script = await Deno.makeTempFile({ suffix: ".ts" });
  try {
    await Deno.writeTextFile(
      script,
      `import { configFromEnvironment } from ${
        JSON.stringify(new URL("../src/config.ts", import.meta.url).href)
      };
const c = configFromEnvironment();
console.log(JSON.stringify({
  url: c.rustpadUrl.href,
  tools: [...c.tools],
  hue: c.userHue,
  elicitation: c.elicitation,
}));
`,
    );
    const inherited: Record<string, string> = {};
    for (const name of ["HOME", "PATH", "DENO_DIR"]) {
      const value = Deno.env.get(name);
      if (value !== undefined) inherited[name] = value;
    }
    const { code, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
      // Only the listed variables may be read: any other read would throw.
      args: ["run", "--no-prompt", `--allow-env=${names.join(",")}`, script],
      clearEnv: true,
      env: {
        ...inherited,
        NO_COLOR: "1",
        RUSTPAD_URL: "http://127.0.0.1:9/",
        RUSTPAD_READ_ONLY: "yes",
        RUSTPAD_USER_HUE: "7",
        ELICITATION: "no",
      },
      stdout: "piped",
      stderr: "piped",
    }).output();
    const decoder = new TextDecoder();
    assert.equal(code, 0, decoder.decode(stderr));
    assert.deepEqual(JSON.parse(decoder.decode(stdout)), {
      url: "http://127.0.0.1:9/",
      tools: [...READ_TOOLS],
      hue: 7,
      elicitation: false,
    });
  } finally {
    await Deno.remove(script);
  }
});

Deno.test("configFromEnvironment() gives what loadConfig() gives for the same variables", () => {
  const env: Record<string, string | undefined> = {};
  for (const { name } of CONFIG_VARIABLES) env[name] = Deno.env.get(name);
  const outcome = (load: () => unknown): unknown => {
    try {
      return load();
    } catch (error) {
      return error instanceof ConfigError ? error.message : error;
    }
  };
  assert.deepEqual(
    outcome(() => configFromEnvironment()),
    outcome(() => loadConfig(env)),
  );
});
