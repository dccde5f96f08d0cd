import assert from "node:assert/strict";
import {
  ConfigError,
  configFromEnvironment,
  loadConfig,
} from "../../src/config/config.ts";
import { childEnv } from "../_child_env.ts";
import { READ_TOOLS } from "../../src/config/tool_names.ts";
import { CONFIG_VARIABLES } from "../../src/config/usage.ts";

Deno.test("configFromEnvironment() reads only the configuration variables from Deno.env", async () => {
  const names = CONFIG_VARIABLES.map((v) => v.name);
  const script = await Deno.makeTempFile({ suffix: ".ts" });
  try {
    await Deno.writeTextFile(
      script,
      `import { configFromEnvironment } from ${
        JSON.stringify(
          new URL("../../src/config/config.ts", import.meta.url).href,
        )
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
    const { code, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
      // Only the listed variables may be read: any other read would throw.
      args: ["run", "--no-prompt", `--allow-env=${names.join(",")}`, script],
      clearEnv: true,
      env: childEnv({
        RUSTPAD_URL: "http://127.0.0.1:9/",
        RUSTPAD_READ_ONLY: "yes",
        RUSTPAD_USER_HUE: "7",
        ELICITATION: "no",
      }),
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
