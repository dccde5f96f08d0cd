import assert from "node:assert/strict";
// @ts-types="@modelcontextprotocol/sdk/types"
import {
  type LoggingLevel,
  LoggingMessageNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
// @ts-types="@modelcontextprotocol/sdk/client/index"
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
// @ts-types="@modelcontextprotocol/sdk/inMemory"
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { createBackend, createServer, loadConfig } from "../../src/mod.ts";
import { startPadServer } from "../../src/testing/mod.ts";
import { connect, type Harness, waitFor } from "../_mcp.ts";

interface Logged {
  level: LoggingLevel;
  message: string;
}

function collect(h: Harness): Logged[] {
  const logged: Logged[] = [];
  h.client.setNotificationHandler(
    LoggingMessageNotificationSchema,
    (notification) => {
      const data = notification.params.data as { message: string };
      logged.push({ level: notification.params.level, message: data.message });
    },
  );
  return logged;
}

/** Make Rustpad hang up on the agent's next edit while a subscription holds the pad. */
async function dropAndReconnect(h: Harness, pad: string): Promise<void> {
  await h.client.subscribeResource({ uri: `rustpad://pad/${pad}` });
  h.pads.dropNextEdit({ pad, when: "before-apply" });
  await h.call("append_to_document", { id: pad, text: "x" });
}

Deno.test("the server declares logging and a client that sets the level sees drops and reconnects", async () => {
  await using h = await connect();
  assert.ok(h.client.getServerCapabilities()?.logging);
  const logged = collect(h);
  await h.client.setLoggingLevel("info");
  await dropAndReconnect(h, "log-drop");
  await waitFor(
    () =>
      logged.some((entry) =>
        /^Reconnected to pad "log-drop"/.test(entry.message)
      ),
    "the reconnect message",
  );
  const lost = logged.find((entry) =>
    /^Lost the connection/.test(entry.message)
  );
  assert.equal(lost?.level, "warning");
  assert.match(lost?.message ?? "", /pad "log-drop" with an edit in flight/);
  assert.ok(logged.every((entry) => entry.level !== "debug"));
});

Deno.test("a client at level error hears nothing of a drop", async () => {
  await using h = await connect();
  const logged = collect(h);
  await h.client.setLoggingLevel("error");
  await dropAndReconnect(h, "log-quiet");
  await waitFor(
    async () => (await h.client.listResources()).resources.length === 1,
    "the pad to be open again",
  );
  await new Promise((resolve) => setTimeout(resolve, 50));
  assert.deepEqual(logged, []);
});

Deno.test("every MCP session on one backend that opened a pad hears of it, each at its own level; one that did not hears nothing", async () => {
  await using pads = await startPadServer();
  await using backend = createBackend(loadConfig({ RUSTPAD_URL: pads.url }));
  const sessions = await Promise.all([0, 1, 2].map(async () => {
    const server = createServer(backend.config, { backend });
    const client = new Client({ name: "test-client", version: "1.0.0" });
    const [a, b] = InMemoryTransport.createLinkedPair();
    await Promise.all([server.connect(a), client.connect(b)]);
    const logged: string[] = [];
    client.setNotificationHandler(
      LoggingMessageNotificationSchema,
      (notification) =>
        void logged.push(
          (notification.params.data as { message: string }).message,
        ),
    );
    return { server, client, logged };
  }));
  await sessions[0]!.client.setLoggingLevel("info");
  await sessions[1]!.client.setLoggingLevel("warning");
  await sessions[2]!.client.setLoggingLevel("debug");
  await sessions[0]!.client.subscribeResource({ uri: "rustpad://pad/log-two" });
  await sessions[1]!.client.readResource({ uri: "rustpad://pad/log-two" });
  pads.sendRaw("log-two", "{oops");
  await waitFor(
    () => sessions[0]!.logged.some((m) => m.startsWith("Reconnected")),
    "the reconnect message",
  );
  await waitFor(
    () => sessions[1]!.logged.some((m) => m.startsWith("Lost the connection")),
    "the drop message on the second session",
  );
  assert.ok(!sessions[1]!.logged.some((m) => m.startsWith("Reconnected")));
  // The third session never opened the pad: at debug, it heard nothing.
  assert.deepEqual(sessions[2]!.logged, []);
  for (const { client, server } of sessions) {
    await client.close();
    await server.close();
  }
});

Deno.test("a confirmation asked of a person is logged as a notice", async () => {
  await using h = await connect();
  const logged = collect(h);
  await h.client.setLoggingLevel("notice");
  await h.call("append_to_document", { id: "log-confirm", text: "keep me" });
  await h.call("set_document", { id: "log-confirm", text: "gone" });
  await waitFor(
    () =>
      logged.some((entry) =>
        entry.level === "notice" &&
        /set_document on pad "log-confirm": confirmation_required/.test(
          entry.message,
        )
      ),
    "the confirmation notice",
  );
});
