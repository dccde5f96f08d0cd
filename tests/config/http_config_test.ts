import assert from "node:assert/strict";
import { loadConfig } from "../../src/mod.ts";
import { isLoopback } from "../../src/config/listen.ts";
import { refusal } from "../_config.ts";

Deno.test("loadConfig() leaves HTTP off and the limits at their defaults when the variables are unset", () => {
  const config = loadConfig({});
  assert.equal(config.listen, undefined);
  assert.equal(config.httpToken, undefined);
  assert.deepEqual(config.allowedHosts, []);
  assert.deepEqual(config.allowedOrigins, []);
  assert.equal(config.sessionIdleS, 1800);
  assert.equal(config.maxSessions, 1000);
  assert.equal(config.maxConnections, 1024);
  assert.equal(config.requestTimeoutMs, 10_000);
  assert.equal(config.keepAliveTimeoutMs, 5000);
  assert.equal(config.maxMessageBytes, 8 * 1024 * 1024);
  assert.equal(config.confirmSecret, undefined);
});

Deno.test("The HTTP listener bounds and the message cap parse and refuse values out of range", () => {
  const config = loadConfig({
    RUSTPAD_MCP_MAX_CONNECTIONS: "20000",
    RUSTPAD_MCP_REQUEST_TIMEOUT_MS: "250",
    RUSTPAD_MCP_KEEP_ALIVE_TIMEOUT_MS: "60000",
    RUSTPAD_MCP_MAX_MESSAGE_BYTES: "65536",
  });
  assert.equal(config.maxConnections, 20_000);
  assert.equal(config.requestTimeoutMs, 250);
  assert.equal(config.keepAliveTimeoutMs, 60_000);
  assert.equal(config.maxMessageBytes, 65_536);
  assert.match(
    refusal({ RUSTPAD_MCP_MAX_CONNECTIONS: "0" }),
    /^RUSTPAD_MCP_MAX_CONNECTIONS="0" is not accepted: expected an integer from 1 to 1000000/,
  );
  assert.match(
    refusal({ RUSTPAD_MCP_REQUEST_TIMEOUT_MS: "10s" }),
    /^RUSTPAD_MCP_REQUEST_TIMEOUT_MS="10s" is not accepted: expected an integer from 1 to 3600000 \(milliseconds\)/,
  );
  assert.match(
    refusal({ RUSTPAD_MCP_KEEP_ALIVE_TIMEOUT_MS: "-1" }),
    /^RUSTPAD_MCP_KEEP_ALIVE_TIMEOUT_MS="-1" is not accepted/,
  );
  assert.match(
    refusal({ RUSTPAD_MCP_MAX_MESSAGE_BYTES: "1024" }),
    /^RUSTPAD_MCP_MAX_MESSAGE_BYTES="1024" is not accepted: expected an integer from 65536 to 67108864 \(bytes\)/,
  );
});

Deno.test("isLoopback() decides on the parsed address, never on how a name reads", () => {
  for (
    const address of [
      "127.0.0.1",
      "127.255.0.9",
      "::1",
      "[::1]",
      "0:0:0:0:0:0:0:1",
      "::ffff:127.0.0.1",
      "localhost",
      "LOCALHOST",
    ]
  ) {
    assert.equal(isLoopback(address), true, address);
  }
  for (
    const address of [
      "127.0.0.1.attacker.example",
      "127.example.com",
      "127.0.0.256",
      "0.0.0.0",
      "10.0.0.1",
      "::",
      "::2",
      "::ffff:10.0.0.1",
      "localhost.attacker.example",
      "",
    ]
  ) {
    assert.equal(isLoopback(address), false, address);
  }
});

Deno.test("RUSTPAD_MCP_LISTEN takes [HOST:]PORT with 127.0.0.1 as the default host", () => {
  assert.deepEqual(loadConfig({ RUSTPAD_MCP_LISTEN: "8080" }).listen, {
    hostname: "127.0.0.1",
    port: 8080,
  });
  assert.deepEqual(loadConfig({ RUSTPAD_MCP_LISTEN: "0.0.0.0:80" }).listen, {
    hostname: "0.0.0.0",
    port: 80,
  });
  assert.deepEqual(loadConfig({ RUSTPAD_MCP_LISTEN: "[::1]:0" }).listen, {
    hostname: "::1",
    port: 0,
  });
  for (const bad of ["http://x:1", "host:", "70000", "a b:1"]) {
    assert.match(
      refusal({ RUSTPAD_MCP_LISTEN: bad }),
      /^RUSTPAD_MCP_LISTEN=.* is not accepted: expected \[HOST:\]PORT/,
    );
  }
});

Deno.test("RUSTPAD_MCP_TOKEN and RUSTPAD_CONFIRM_SECRET need 32 characters or bytes and are never echoed", () => {
  const short = "tooshort-secret-value";
  for (const name of ["RUSTPAD_MCP_TOKEN", "RUSTPAD_CONFIRM_SECRET"]) {
    const message = refusal({ [name]: short });
    assert.match(message, new RegExp(`^${name}=\\(21 hidden characters\\)`));
    assert.ok(!message.includes(short));
  }
  const token = "t".repeat(32);
  assert.equal(loadConfig({ RUSTPAD_MCP_TOKEN: token }).httpToken, token);
  // 16 two-byte characters are 32 bytes of key.
  const secret = loadConfig({ RUSTPAD_CONFIRM_SECRET: "é".repeat(16) })
    .confirmSecret;
  assert.equal(secret?.length, 32);
});

Deno.test("The HTTP allow-lists and limits parse and refuse bad values", () => {
  const config = loadConfig({
    RUSTPAD_MCP_ALLOWED_HOSTS: "mcp.example.com, 10.0.0.5:8080",
    RUSTPAD_MCP_ALLOWED_ORIGINS: "https://agents.example.com",
    RUSTPAD_MCP_SESSION_IDLE_S: "60",
    RUSTPAD_MCP_MAX_SESSIONS: "5",
  });
  assert.deepEqual(config.allowedHosts, ["mcp.example.com", "10.0.0.5:8080"]);
  assert.deepEqual(config.allowedOrigins, ["https://agents.example.com"]);
  assert.equal(config.sessionIdleS, 60);
  assert.equal(config.maxSessions, 5);
  assert.match(
    refusal({ RUSTPAD_MCP_ALLOWED_ORIGINS: "https://a.example/path" }),
    /^RUSTPAD_MCP_ALLOWED_ORIGINS=.* is not accepted: cannot use "https:\/\/a\.example\/path"/,
  );
  assert.match(
    refusal({ RUSTPAD_MCP_MAX_SESSIONS: "0" }),
    /^RUSTPAD_MCP_MAX_SESSIONS="0" is not accepted: expected an integer from 1 to 100000/,
  );
});

Deno.test("RUSTPAD_STATE_URL takes redis:// and rediss:// URLs with a database, and a refusal never shows a password", () => {
  assert.equal(loadConfig({}).stateUrl, undefined);
  assert.equal(
    loadConfig({ RUSTPAD_STATE_URL: "redis://cache.internal:6380/3" }).stateUrl
      ?.href,
    "redis://cache.internal:6380/3",
  );
  assert.equal(
    loadConfig({ RUSTPAD_STATE_URL: "rediss://:pw@cache.internal" }).stateUrl
      ?.protocol,
    "rediss:",
  );
  for (
    const value of [
      "http://cache.internal:6379",
      "redis://",
      "redis://cache.internal/db/extra",
      "redis://cache.internal?x=1",
      "cache.internal:6379",
    ]
  ) {
    assert.match(
      refusal({ RUSTPAD_STATE_URL: value }),
      /^RUSTPAD_STATE_URL=.* is not accepted: expected redis:\/\/HOST\[:PORT\]\[\/DB\] or rediss:\/\//,
      value,
    );
  }
  const secret = "s3cr3t-password-never-shown";
  const message = refusal({
    RUSTPAD_STATE_URL: `redis://user:${secret}@cache.internal/x`,
  });
  assert.ok(!message.includes(secret), message);
  assert.match(message, /credentials hidden/);
});

Deno.test("RUSTPAD_STATE_PASSWORD is kept as given and never echoed when refused", () => {
  assert.equal(
    loadConfig({ RUSTPAD_STATE_PASSWORD: "pa ss" }).statePassword,
    "pa ss",
  );
  const message = refusal({ RUSTPAD_STATE_PASSWORD: "bad\u0007bell" });
  assert.ok(!message.includes("bad"), message);
  assert.match(message, /^RUSTPAD_STATE_PASSWORD=\(8 hidden characters\)/);
});
