// Nothing acknowledged is lost when the pad server dies under an agent:
// a pad server child on a SQLite pads file is killed with SIGKILL at a
// random moment while a raw-socket person types at the start of a pad and
// an MCP agent (`mod.ts` on stdio through the SDK client, RUSTPAD_URL at
// the pad server) appends lines at its end; it is started again on the
// same port and file, and every acknowledged edit and append must be there,
// and no append whose call answered "Nothing was changed".

import assert from "node:assert/strict";
// @ts-types="@modelcontextprotocol/sdk/client/index"
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
// @ts-types="@modelcontextprotocol/sdk/client/stdio"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
// @ts-types="@modelcontextprotocol/sdk/types"
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { TextOperation } from "../../src/mod.ts";
import {
  type ChildServer,
  padServerArgs,
  spawnServer,
} from "./_child_server.ts";
import { delay, waitUntil } from "./_test_client.ts";
import { freePort, MOD } from "../cli/_run.ts";
import { childEnv } from "../_child_env.ts";

const TRIALS = 5;
const PAD = "shared";

/**
 * One person on one pad shared with an agent: inserts `token(n)` at the
 * start of the text after each of their edits is acknowledged (their own
 * operation echoed in a History), following every other operation.
 */
class FrontTypist {
  /** Tokens whose edit the server acknowledged, in order. */
  readonly acknowledged: string[] = [];
  readonly closed: Promise<void>;
  readonly #socket: WebSocket;
  readonly #token: (n: number) => string;
  #userId = -1;
  #joined = false;
  #revision = 0;
  #text = "";
  #pending: string | undefined;

  constructor(url: string, padId: string, token: (n: number) => string) {
    this.#token = token;
    this.#socket = new WebSocket(`${url}/api/socket/${padId}`);
    const { promise, resolve } = Promise.withResolvers<void>();
    this.closed = promise;
    this.#socket.onclose = () => resolve();
    this.#socket.onerror = () => {};
    this.#socket.onmessage = (event) => this.#receive(JSON.parse(event.data));
  }

  #receive(message: Record<string, unknown>): void {
    if ("Identity" in message) {
      this.#userId = message.Identity as number;
      // Its echo comes after the whole initial History: the barrier.
      this.#socket.send('{"CursorData":{"cursors":[],"selections":[]}}');
    } else if ("UserCursor" in message) {
      const { id } = message.UserCursor as { id: number };
      if (id === this.#userId && !this.#joined) {
        this.#joined = true;
        this.#next();
      }
    } else if ("History" in message) {
      const { start, operations } = message.History as {
        start: number;
        operations: { id: number; operation: (number | string)[] }[];
      };
      for (const [index, { id, operation }] of operations.entries()) {
        if (start + index < this.#revision) continue;
        this.#text = TextOperation.fromJSON(operation).apply(this.#text);
        this.#revision = start + index + 1;
        if (this.#joined && id === this.#userId && this.#pending) {
          this.acknowledged.push(this.#pending);
          this.#pending = undefined;
        }
      }
      if (this.#joined) this.#next();
    }
  }

  #next(): void {
    if (this.#pending !== undefined) return;
    if (this.#socket.readyState !== WebSocket.OPEN) return;
    const text = this.#token(this.acknowledged.length);
    this.#pending = text;
    const length = [...this.#text].length;
    const operation = length === 0 ? [text] : [text, length];
    this.#socket.send(
      JSON.stringify({ Edit: { revision: this.#revision, operation } }),
    );
  }
}

/**
 * An MCP agent appending distinct lines to {@linkcode PAD} one call after
 * another while running; it keeps the lines whose call answered success,
 * and those whose error said nothing was changed.
 */
class Appender {
  readonly acknowledged: string[] = [];
  /** Lines whose call answered that nothing was changed. */
  readonly refused: string[] = [];
  /** Calls that failed, whatever they said. */
  failed = 0;
  trial = 0;
  #running = false;
  #loop: Promise<void> = Promise.resolve();
  readonly #client: Client;

  constructor(client: Client) {
    this.#client = client;
  }

  /** This trial's appends so far. */
  get ofTrial(): number {
    return this.acknowledged.filter((line) =>
      line.startsWith(`agent ${this.trial}.`)
    ).length;
  }

  start(trial: number): void {
    this.trial = trial;
    this.#running = true;
    this.#loop = this.#run();
  }

  /** Stop after the call in flight answers. */
  async stop(): Promise<void> {
    this.#running = false;
    await this.#loop;
  }

  async #run(): Promise<void> {
    for (let n = 0; this.#running; n++) {
      const line = `agent ${this.trial}.${n}\n`;
      try {
        const result = await this.#client.callTool(
          { name: "append_to_document", arguments: { id: PAD, text: line } },
          undefined,
          { timeout: 20_000 },
        ) as CallToolResult;
        if (!result.isError) {
          this.acknowledged.push(line);
          continue;
        }
        if (JSON.stringify(result.content).includes("Nothing was changed")) {
          this.refused.push(line);
        }
      } catch { /* timed out: counted as failed */ }
      this.failed++;
      await delay(20);
    }
  }
}

function occurrences(text: string, part: string): number {
  return text.split(part).length - 1;
}

/** How many of `known` are not in `text` exactly once (agent lines in order). */
function missing(text: string, tokens: string[], lines: string[]): number {
  let lost = 0;
  for (const token of tokens) if (occurrences(text, token) !== 1) lost++;
  let from = 0;
  for (const line of lines) {
    const at = text.indexOf(line, from);
    if (at === -1 || occurrences(text, line) !== 1) lost++;
    else from = at + line.length;
  }
  return lost;
}

Deno.test("a pad server killed with SIGKILL while a raw-socket person types and an MCP agent appends loses no acknowledged edit or append in any of 5 trials", async () => {
  const dir = await Deno.makeTempDir();
  const port = freePort();
  const url = `http://127.0.0.1:${port}`;
  const start = (): Promise<ChildServer> =>
    spawnServer(
      Deno.execPath(),
      padServerArgs("--db", `${dir}/pads.sqlite`, "--port", String(port)),
    );
  let server = await start();
  assert.equal(server.url, url);
  const transport = new StdioClientTransport({
    command: Deno.execPath(),
    args: ["run", "-A", MOD],
    env: childEnv({ RUSTPAD_URL: url, RUSTPAD_USER_NAME: "Appender" }),
    stderr: "pipe",
  });
  let agentStderr = "";
  transport.stderr?.on("data", (chunk: Uint8Array) => {
    agentStderr += new TextDecoder().decode(chunk);
  });
  const client = new Client({ name: "kill-loop-test", version: "1.0.0" });
  await client.connect(transport);
  const agent = new Appender(client);
  const tokens: string[] = [];
  let lost = 0;
  const text = async () => await (await fetch(`${url}/api/text/${PAD}`)).text();
  try {
    for (let trial = 0; trial < TRIALS; trial++) {
      const typist = new FrontTypist(url, PAD, (n) => `[p${trial}.${n}]`);
      agent.start(trial);
      // Kill at a random moment once both have had an edit acknowledged.
      assert.ok(
        await waitUntil(
          () => typist.acknowledged.length > 0 && agent.ofTrial > 0,
          30_000,
        ),
        `trial ${trial}: nothing acknowledged; the agent said ${agentStderr}`,
      );
      await delay(Math.floor(Math.random() * 600));
      server.child.kill("SIGKILL");
      await server.child.status;
      await typist.closed;
      tokens.push(...typist.acknowledged);
      server = await start();
      // The call in flight when it died answers, either way, by now.
      await agent.stop();
      const now = await text();
      const lostNow = missing(now, tokens, agent.acknowledged);
      lost += lostNow;
      assert.equal(lostNow, 0, `trial ${trial}: ${lostNow} lost in ${now}`);
      // An append that answered "Nothing was changed" is not there.
      const changed = agent.refused.filter((line) => now.includes(line));
      assert.deepEqual(changed, [], `trial ${trial}`);
    }
    server.child.kill("SIGTERM");
    assert.equal((await server.child.status).code, 0, await server.stderr);
    console.log(
      `SIGKILL trials: ${TRIALS}, raw edits acknowledged: ${tokens.length}, MCP appends acknowledged: ${agent.acknowledged.length} (${agent.failed} failed while it was down, ${agent.refused.length} of them saying nothing was changed, none of those there), lost: ${lost}`,
    );
    assert.equal(lost, 0);
    assert.ok(agent.acknowledged.length >= TRIALS);
    assert.ok(tokens.length >= TRIALS);
  } finally {
    await agent.stop();
    await client.close();
    try {
      server.child.kill("SIGKILL");
    } catch { /* exited */ }
    await server.child.status;
    await Deno.remove(dir, { recursive: true });
  }
});
