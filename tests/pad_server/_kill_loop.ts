// The kill -9 loop of a pad server under a person and an MCP agent on one
// pad: a raw-socket person types at the start of the pad and the agent
// appends lines at its end, each trial's pad server is killed with SIGKILL
// at a random moment once both had an edit acknowledged, and after it
// serves again every acknowledged edit and append must be in the text,
// once, and no append whose call answered "Nothing was changed".

import assert from "node:assert/strict";
// @ts-types="@modelcontextprotocol/sdk/client/index"
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
// @ts-types="@modelcontextprotocol/sdk/types"
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { TextOperation } from "../../src/mod.ts";
import { delay, waitUntil } from "./_test_client.ts";

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
  /** What each refused call said, by line. */
  readonly refusals = new Map<string, string>();
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
        const said = JSON.stringify(result.content);
        if (said.includes("Nothing was changed")) {
          this.refused.push(line);
          this.refusals.set(line, said);
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

/** What the pad server under test is and how it dies and comes back. */
export interface KillLoopOptions {
  /** Its base URL, without the trailing `/`. */
  readonly url: string;
  /** The agent, connected. */
  readonly client: Client;
  readonly trials: number;
  /** SIGKILL the pad server and wait until it is gone. */
  kill(): Promise<void>;
  /** Wait until a pad server serves `url` again, starting it or not. */
  restart(): Promise<void>;
  /** What the agent said on stderr, for a failure's message. */
  stderr(): string;
}

/** What a kill loop counted. */
export interface KillLoopFigures {
  /** Raw edits acknowledged. */
  readonly edits: number;
  /** Appends whose call answered success. */
  readonly appends: number;
  /** Appends that failed, and those that said nothing was changed. */
  readonly failed: number;
  readonly refused: number;
  /** Acknowledged edits and appends missing after a restart. */
  readonly lost: number;
}

/** Run the loop, asserting after each trial; what it counted. */
export async function killLoop(
  options: KillLoopOptions,
): Promise<KillLoopFigures> {
  const { url, trials } = options;
  const agent = new Appender(options.client);
  const tokens: string[] = [];
  let lost = 0;
  let judged = 0;
  try {
    for (let trial = 0; trial < trials; trial++) {
      const typist = new FrontTypist(url, PAD, (n) => `[p${trial}.${n}]`);
      agent.start(trial);
      assert.ok(
        await waitUntil(
          () => typist.acknowledged.length > 0 && agent.ofTrial > 0,
          30_000,
        ),
        `trial ${trial}: nothing acknowledged; the agent said ${options.stderr()}`,
      );
      await delay(Math.floor(Math.random() * 600));
      await options.kill();
      await typist.closed;
      tokens.push(...typist.acknowledged);
      await options.restart();
      // The call in flight when it died answers, either way, by now.
      await agent.stop();
      const now = await (await fetch(`${url}/api/text/${PAD}`)).text();
      const lostNow = missing(now, tokens, agent.acknowledged);
      lost += lostNow;
      assert.equal(lostNow, 0, `trial ${trial}: ${lostNow} lost in ${now}`);
      // Each refused line is judged once, in the trial that refused it.
      const changed = agent.refused.slice(judged).filter((line) =>
        now.includes(line)
      );
      judged = agent.refused.length;
      const said = changed.map((line) =>
        `${JSON.stringify(line)} landed after the call said ${
          agent.refusals.get(line)
        }`
      );
      assert.deepEqual(said, [], `trial ${trial}: said nothing changed`);
    }
  } finally {
    await agent.stop();
  }
  return {
    edits: tokens.length,
    appends: agent.acknowledged.length,
    failed: agent.failed,
    refused: agent.refused.length,
    lost,
  };
}
