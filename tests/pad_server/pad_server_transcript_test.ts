// Replays the transcripts of scripted sessions against the REAL Rustpad
// server (tests/vectors/rustpad-sessions.jsonl) against the pad server,
// and checks it answers frame for frame.

import assert from "node:assert/strict";
import {
  PadDatabase,
  type PadServer,
  startPadServer,
} from "../../src/pad_server/mod.ts";
import { TestClient, waitForQuiet, waitUntil } from "./_test_client.ts";

const SESSIONS = new URL(
  "../vectors/rustpad-sessions.jsonl",
  import.meta.url,
);

/** One thing done, then what the real server was seen to do. */
type Step =
  & (
    | { do: "connect"; client: string; pad: string }
    | { do: "send"; client: string; frame: string }
    | { do: "send_binary"; client: string }
    | { do: "close"; client: string }
    | {
      do: "http";
      path: string;
      status: number;
      body: string;
      content_type: string;
    }
  )
  & {
    /** Text frames each client received, in order; absent: none. */
    received?: Record<string, string[]>;
    /** Clients whose socket the server closed. */
    closed?: string[];
  };

interface Scenario {
  scenario: string;
  steps: Step[];
}

/** No frame for this long after the expected ones: the step is over. */
const QUIET_MS = 15;
const PERSISTED = "persisted-pad-reload";

async function readScenarios(): Promise<Scenario[]> {
  const text = await Deno.readTextFile(SESSIONS);
  return text.split("\n").filter((line) => line.trim() !== "").map((line) =>
    JSON.parse(line)
  );
}

/** The clients of one scenario, driven step by step. */
class Transcript implements AsyncDisposable {
  readonly #server: PadServer;
  readonly #scenario: string;
  readonly #clients = new Map<string, TestClient>();
  readonly #reportedClosed = new Set<string>();

  constructor(server: PadServer, scenario: string) {
    this.#server = server;
    this.#scenario = scenario;
  }

  async play(steps: Step[]): Promise<void> {
    for (const [index, step] of steps.entries()) {
      const where = `${this.#scenario}, step ${index + 1} (${step.do} ${
        "client" in step ? step.client : step.path
      })`;
      if (step.do === "http") await this.#http(step, where);
      else this.#act(step);
      await this.#observe(step, where);
    }
  }

  #act(step: Exclude<Step, { do: "http" }>): void {
    if (step.do === "connect") {
      this.#clients.set(
        step.client,
        new TestClient(this.#server.url, step.pad),
      );
      return;
    }
    const client = this.#client(step.client);
    if (step.do === "send") client.send(step.frame);
    else if (step.do === "send_binary") client.send(new Uint8Array([1, 2, 3]));
    else void client.close();
  }

  async #http(
    step: Extract<Step, { do: "http" }>,
    where: string,
  ): Promise<void> {
    const response = await fetch(`${this.#server.url}${step.path}`);
    const body = await response.text();
    assert.equal(response.status, step.status, `${where}: status`);
    assert.equal(
      response.headers.get("content-type"),
      step.content_type,
      `${where}: content type`,
    );
    if (step.path === "/api/stats") {
      // start_time is the clock of the run: any number of seconds will do.
      assert.match(body, /^\{"start_time":\d+,/, `${where}: body`);
      assert.equal(withoutClock(body), withoutClock(step.body), `${where}`);
    } else {
      assert.equal(body, step.body, `${where}: body`);
    }
  }

  /** Wait for what the real server did, then for quiet, and compare. */
  async #observe(step: Step, where: string): Promise<void> {
    const received = step.received ?? {};
    const closed = step.closed ?? [];
    const clients = this.#clients;
    await waitUntil(() =>
      [...clients].every(([name, client]) =>
        client.unread >= (received[name]?.length ?? 0) &&
        (!closed.includes(name) || client.isClosed) &&
        (step.do !== "close" || name !== step.client || client.isClosed)
      )
    );
    await waitForQuiet(clients.values(), QUIET_MS);
    for (const [name, client] of clients) {
      assert.deepEqual(
        client.take(),
        received[name] ?? [],
        `${where}: frames received by ${name}`,
      );
    }
    assert.deepEqual(this.#newlyClosedByServer(), [...closed].sort(), where);
  }

  #newlyClosedByServer(): string[] {
    const names = [...this.#clients]
      .filter(([name, client]) =>
        client.closedByServer && !this.#reportedClosed.has(name)
      )
      .map(([name]) => name);
    for (const name of names) this.#reportedClosed.add(name);
    return names.sort();
  }

  #client(name: string): TestClient {
    const client = this.#clients.get(name);
    assert.ok(client, `${this.#scenario}: client ${name} never connected`);
    return client;
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await Promise.all([...this.#clients.values()].map((c) => c.close()));
  }
}

function withoutClock(stats: string): string {
  return stats.replace(/^\{"start_time":\d+,/, '{"start_time":"<clock>",');
}

async function replay(server: PadServer, scenario: Scenario): Promise<void> {
  await using transcript = new Transcript(server, scenario.scenario);
  await transcript.play(scenario.steps);
}

Deno.test("PadServer answers every live scenario of the real server's transcripts frame for frame, in file order on one server", async () => {
  const scenarios = (await readScenarios()).filter((s) =>
    !s.scenario.startsWith(PERSISTED)
  );
  assert.equal(scenarios.length, 17);
  const server = await startPadServer();
  try {
    for (const scenario of scenarios) await replay(server, scenario);
  } finally {
    await server.close();
  }
});

Deno.test("PadServer answers the real server's persisted-pad-reload transcript across a restart on the same PadDatabase", async () => {
  const byName = new Map(
    (await readScenarios()).map((s) => [s.scenario, s]),
  );
  const part = (name: string): Scenario => {
    const scenario = byName.get(`${PERSISTED} (${name})`);
    assert.ok(scenario, `the transcript has ${PERSISTED} (${name})`);
    return scenario;
  };
  const database = new PadDatabase();

  const before = await startPadServer({ database, snapshotIntervalMs: 0 });
  try {
    await replay(before, part("before restart"));
    before.snapshot(); // what the real server did 3 to 4 s later
    await replay(before, part("stats after snapshot"));
  } finally {
    await before.close();
  }

  const after = await startPadServer({ database, snapshotIntervalMs: 0 });
  try {
    await replay(after, part("after restart"));
  } finally {
    await after.close();
  }
});
