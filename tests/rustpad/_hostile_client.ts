// The client side of a hostile-server test, in its own process so that its
// resident memory is its own: an SDK Client calls our MCP server, which
// talks to the Rustpad at argv[0]. One call goes to the hostile pad while
// calls on pad "fine" follow one another; prints one JSON line of results.
//
// deno run -A tests/_hostile_client.ts <rustpad-url> <timeout-ms>

// @ts-types="@modelcontextprotocol/sdk/client/index"
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
// @ts-types="@modelcontextprotocol/sdk/inMemory"
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
// @ts-types="@modelcontextprotocol/sdk/types"
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { createServer, loadConfig } from "../../src/mod.ts";

/** What the parent test asserts on. */
export interface HostileRun {
  /** The hostile call's error text, or `null` if it succeeded. */
  error: string | null;
  /** How long the hostile call took, in milliseconds. */
  elapsedMs: number;
  /** How long each call on the other pad took, in milliseconds. */
  othersMs: number[];
  /** Errors of calls on the other pad. */
  otherErrors: string[];
  /** Peak resident memory of this process, in bytes. */
  peakRss: number;
}

const [url = "", timeoutMs = "1500"] = Deno.args;
const server = createServer(
  loadConfig({ RUSTPAD_URL: url, RUSTPAD_TIMEOUT_MS: timeoutMs }),
);
const client = new Client({ name: "hostile-test", version: "1.0.0" });
const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
const call = async (id: string, text: string) =>
  await client.callTool({
    name: "append_to_document",
    arguments: { id, text },
  }) as CallToolResult;
const textOf = (result: CallToolResult) => {
  const block = result.content[0];
  return block?.type === "text" ? block.text : "";
};

let peakRss = Deno.memoryUsage().rss;
const sampler = setInterval(() => {
  peakRss = Math.max(peakRss, Deno.memoryUsage().rss);
}, 5);
const started = performance.now();
let done = false;
const hostile = call("hostile", "never").then((result) => {
  done = true;
  return {
    error: result.isError ? textOf(result) : null,
    elapsedMs: performance.now() - started,
  };
});
const othersMs: number[] = [];
const otherErrors: string[] = [];
for (let i = 0; !done || i < 2; i++) {
  const before = performance.now();
  const result = await call("fine", `<${i}>`);
  othersMs.push(performance.now() - before);
  if (result.isError) otherErrors.push(textOf(result));
}
const { error, elapsedMs } = await hostile;
clearInterval(sampler);
peakRss = Math.max(peakRss, Deno.memoryUsage().rss);
await client.close();
await server.close();
const run: HostileRun = { error, elapsedMs, othersMs, otherErrors, peakRss };
console.log(JSON.stringify(run));
