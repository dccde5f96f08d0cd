// A real redis-server for tests: the system's binary (.ci/run installs it
// with apt-get), on a loopback port picked free, without persistence, stopped
// by the test. It can be stopped and started again on the same port, to test
// a Redis that goes away during calls.

import { type Backend, createBackend } from "../src/backend/backend.ts";
import { openStateStore } from "../src/backend/open_state.ts";
import type { Config } from "../src/config/config.ts";
import { freePort } from "./_free_port.ts";

export interface RedisServer extends AsyncDisposable {
  /** `redis://127.0.0.1:PORT/0`. */
  readonly url: string;
  readonly port: number;
  /** Stop the server (SIGKILL): it answers no more until `start`. */
  stop(): Promise<void>;
  /** Start it again on the same port, empty. */
  start(): Promise<void>;
}

async function answers(port: number): Promise<boolean> {
  try {
    const connection = await Deno.connect({ hostname: "127.0.0.1", port });
    try {
      await connection.write(new TextEncoder().encode("PING\r\n"));
      const buffer = new Uint8Array(16);
      const read = await connection.read(buffer);
      return new TextDecoder().decode(buffer.subarray(0, read ?? 0))
        .startsWith("+PONG");
    } finally {
      connection.close();
    }
  } catch {
    return false;
  }
}

/** Start `redis-server`; fails, saying how to install it, if it is missing. */
export async function startRedis(): Promise<RedisServer> {
  const port = freePort();
  let process: Deno.ChildProcess | undefined;
  const start = async () => {
    try {
      process = new Deno.Command("redis-server", {
        args: [
          "--port",
          String(port),
          "--bind",
          "127.0.0.1",
          "--save",
          "",
          "--appendonly",
          "no",
          "--protected-mode",
          "no",
        ],
        stdin: "null",
        stdout: "null",
        stderr: "null",
      }).spawn();
    } catch (error) {
      throw new Error(
        `Cannot start redis-server (${
          (error as Error).message
        }): install it with apt-get install redis-server; .ci/run does`,
      );
    }
    for (let i = 0; i < 200; i++) {
      if (await answers(port)) return;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    throw new Error(`redis-server did not answer on port ${port}`);
  };
  const stop = async () => {
    const running = process;
    process = undefined;
    if (running === undefined) return;
    try {
      running.kill("SIGKILL");
    } catch {
      // Already gone.
    }
    await running.status;
  };
  await start();
  return {
    url: `redis://127.0.0.1:${port}/0`,
    port,
    stop,
    start,
    [Symbol.asyncDispose]: stop,
  };
}

/**
 * Two replicas: backends of one configuration, each with its own state
 * store on one Redis.
 */
export interface Replicas extends AsyncDisposable {
  readonly a: Backend;
  readonly b: Backend;
}

/** Two backends of `config` sharing the Redis at `redisUrl`, as two replicas. */
export async function twoReplicas(
  redisUrl: string,
  config: Config,
): Promise<Replicas> {
  const open = () =>
    openStateStore({
      url: new URL(redisUrl),
      timeoutMs: 2000,
      rustpadUrl: config.rustpadUrl,
    });
  const stateA = await open();
  const stateB = await open();
  const a = createBackend(config, { state: stateA });
  const b = createBackend(config, { state: stateB });
  return {
    a,
    b,
    async [Symbol.asyncDispose]() {
      await a.close();
      await b.close();
      await stateA.close();
      await stateB.close();
    },
  };
}
