// The state store in Redis, for replicas: every replica that shares
// RUSTPAD_STATE_URL sees the same used tokens, idempotency records and
// author records. Each step that must be atomic is one command or one Lua
// script. Commands fail at once while the connection is down (no offline
// queue) and after the timeout if Redis does not answer, so a write that
// needs Redis fails clearly instead of hanging; the client reconnects by
// itself.

import { createClient } from "redis";
import type { UserId } from "../rustpad/protocol.ts";
import type { UsedTokens } from "../safety/confirmation.ts";
import { IdempotencyKeyReusedError } from "../safety/idempotency.ts";
import type { IdempotentOutcome } from "../safety/idempotency.ts";
import {
  type AuthorLedger,
  type IdempotencyLedger,
  type KeyedCall,
  type KeyedRunOptions,
  type SentEdit,
  type StateHealth,
  type StateStore,
  StateUnreachableError,
} from "./state_store.ts";
import { CLAIM, FINISH, RENEW, UPDATE } from "./_redis_scripts.ts";
import { RedisSuggestions } from "./_redis_suggestions.ts";
import type { SuggestionStore } from "./suggestion_store.ts";

import {
  type Client,
  type Command,
  PREFIX,
  RedisAuthors,
  sha256,
} from "./_redis_authors.ts";

/** Finished idempotency records are kept this long, as in memory. */
const RECORD_TTL_MS = 10 * 60 * 1000;
/** How often a retry looks again at a call running elsewhere. */
const POLL_MS = 50;

/** Options for {@linkcode openRedisState}. */
export interface RedisStateOptions {
  /** `redis://` or `rediss://`, with credentials and a database if any. */
  url: URL;
  /** The password, when it is not in the URL. */
  password?: string | undefined;
  /** Bound on connecting and on every command; also a call's lease. */
  timeoutMs: number;
  /** The Rustpad server, so replicas of several share one Redis safely. */
  rustpadUrl: URL;
  /**
   * Where a line goes when Redis goes away and when it is back.
   *
   * @default {console.error}
   */
  log?: ((line: string) => void) | undefined;
}

/** The URL without credentials, for messages. */
export function redactedLocation(url: URL): string {
  const shown = new URL(url.href);
  shown.username = "";
  shown.password = "";
  return shown.href.replace(/\/$/, "/0");
}

function userIdOf(text: string): UserId {
  const number = Number(text);
  return Number.isSafeInteger(number) ? number : BigInt(text);
}

/** This process, in the records of the calls it runs (for operators). */
const REPLICA = crypto.randomUUID();

interface Running {
  s: "running";
  f: string;
  /** The replica running it. */
  by: string;
  sent?: { pad: string; user: string; rev: number; lin?: string };
}
type Record =
  | Running
  | { s: "done"; f: string; v: unknown }
  | { s: "failed"; f: string; m: string };

/**
 * Connect to Redis and check it answers. A refused connection (or a
 * refused password) fails at once, not after the timeout; once connected,
 * the client reconnects by itself, and each loss and return of Redis is
 * one line on `log`.
 *
 * @throws {StateUnreachableError} If it refuses, or does not answer within
 * the timeout.
 */
export async function openRedisState(
  options: RedisStateOptions,
): Promise<StateStore> {
  const location = redactedLocation(options.url);
  const log = options.log ?? ((line: string) => console.error(line));
  let started = false;
  const client: Client = createClient({
    url: options.url.href,
    ...(options.password !== undefined && { password: options.password }),
    disableOfflineQueue: true,
    socket: {
      connectTimeout: options.timeoutMs,
      // At start, the first failure is the answer: no retries.
      reconnectStrategy: (attempt: number, cause: Error) =>
        started ? Math.min(50 * 2 ** attempt, 1000) : cause,
    },
  });
  let lastError: Error | undefined;
  let down = false;
  // Without a listener, an error event would end the process.
  client.on("error", (error: Error) => {
    lastError = error;
    if (!started || down) return;
    down = true;
    log(
      `rustpad-mcp: Redis at ${location} (RUSTPAD_STATE_URL) is unreachable (${error.message}): calls with idempotency_key or confirm_token fail until it is back; reconnecting`,
    );
  });
  client.on("ready", () => {
    if (!down) return;
    down = false;
    log(`rustpad-mcp: Redis at ${location} (RUSTPAD_STATE_URL) is back`);
  });
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    await Promise.race([
      client.connect().then(() => client.ping()),
      new Promise((_, reject) => {
        timer = setTimeout(
          () => reject(lastError ?? new Error("no answer")),
          options.timeoutMs,
        );
      }),
    ]);
  } catch (error) {
    // A refusal has closed the client already.
    if (client.isOpen) client.destroy();
    throw new StateUnreachableError("start", location, { cause: error });
  } finally {
    clearTimeout(timer);
  }
  started = true;
  return new RedisState(client, location, options);
}

class RedisState implements StateStore {
  readonly kind = "redis" as const;
  readonly location: string;
  readonly usedTokens: UsedTokens;
  readonly idempotency: IdempotencyLedger;
  readonly authors: AuthorLedger;
  readonly suggestions: SuggestionStore;
  readonly #client: Client;
  #closed = false;

  constructor(client: Client, location: string, options: RedisStateOptions) {
    this.#client = client;
    this.location = location;
    const command = <T>(what: string, run: (client: Client) => Promise<T>) =>
      this.#command(what, run, options.timeoutMs);
    this.usedTokens = {
      has: async (nonce) =>
        await command(
          "redeem confirm_token",
          (redis) => redis.exists(`${PREFIX}token:${nonce}`),
        ) === 1,
      use: async (nonce, expiresAt) =>
        await command(
          "redeem confirm_token",
          (redis) =>
            redis.set(`${PREFIX}token:${nonce}`, "1", {
              NX: true,
              PX: Math.max(1, expiresAt - Date.now()),
            }),
        ) === "OK",
    };
    this.idempotency = new RedisIdempotency(command, options.timeoutMs);
    this.authors = new RedisAuthors(command, options.rustpadUrl.href);
    this.suggestions = new RedisSuggestions(command, options.rustpadUrl.href);
  }

  health(): StateHealth {
    return this.#client.isReady ? "ok" : "unreachable";
  }

  async #command<T>(
    what: string,
    run: (client: Client) => Promise<T>,
    timeoutMs: number,
  ): Promise<T> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    try {
      return await Promise.race([
        run(this.#client),
        new Promise<never>((_, reject) => {
          timer = setTimeout(
            () => reject(new Error(`no answer within ${timeoutMs} ms`)),
            timeoutMs,
          );
        }),
      ]);
    } catch (error) {
      throw new StateUnreachableError(what, this.location, { cause: error });
    } finally {
      clearTimeout(timer);
    }
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    try {
      await this.#client.close();
    } catch {
      this.#client.destroy();
    }
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }
}

const RUN_WHAT = "run the call with idempotency_key";

class RedisIdempotency implements IdempotencyLedger {
  readonly #command: Command;
  readonly #leaseMs: number;

  constructor(command: Command, leaseMs: number) {
    this.#command = command;
    this.#leaseMs = leaseMs;
  }

  async run<T>(
    scope: string,
    key: string,
    fingerprint: string,
    work: (call: KeyedCall) => Promise<T>,
    options: KeyedRunOptions<T>,
  ): Promise<IdempotentOutcome<T>> {
    const record = `${PREFIX}key:${await sha256(`${scope}\0${key}`)}`;
    const lease = `${record}:lease`;
    const owner = crypto.randomUUID();
    const running: Running = { s: "running", f: fingerprint, by: REPLICA };
    const deadline = Date.now() + options.waitMs;
    for (;;) {
      const [state, found] = await this.#command(
        RUN_WHAT,
        (redis) =>
          redis.eval(CLAIM, {
            keys: [record, lease],
            arguments: [
              JSON.stringify(running),
              owner,
              String(RECORD_TTL_MS),
              String(this.#leaseMs),
              fingerprint,
            ],
          }),
      ) as [string, string | undefined];
      if (state === "reused") throw new IdempotencyKeyReusedError(key);
      const owned = { record, lease, owner, running };
      if (state === "claimed") {
        return await this.#runOwned(owned, work, options);
      }
      const known = JSON.parse(found!) as Record;
      if (state === "takeover") {
        const sent = (known as Running).sent;
        const settled = sent === undefined ? undefined : await this.#holding(
          owned,
          () =>
            options.settle({
              pad: sent.pad,
              userId: userIdOf(sent.user),
              revision: sent.rev,
              ...sent.lin !== undefined && { lineage: sent.lin },
            }),
        );
        if (settled === undefined) {
          return await this.#runOwned(owned, work, options);
        }
        await this.#finish(owned, { s: "done", f: fingerprint, v: settled });
        return { value: settled, replayed: true };
      }
      if (known.s === "done") return { value: known.v as T, replayed: true };
      if (known.s === "failed") throw new Error(known.m);
      if (Date.now() >= deadline) {
        throw new Error(
          `Cannot answer the call with idempotency_key "${key}" yet as the first call with it is still running on another replica after ${options.waitMs} ms: nothing was changed by this call; repeat it later to get the first call's result`,
        );
      }
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  }

  /** Run `step` while renewing the lease, so no other replica takes over. */
  async #holding<R>(
    owned: { lease: string; owner: string },
    step: () => Promise<R>,
  ): Promise<R> {
    const renew = setInterval(() => {
      this.#command(RUN_WHAT, (redis) =>
        redis.eval(RENEW, {
          keys: [owned.lease],
          arguments: [owned.owner, String(this.#leaseMs)],
        })).catch(() => {
          // Redis is away: the lease may lapse; a retry then settles by
          // the pad's history.
        });
    }, Math.max(10, Math.floor(this.#leaseMs / 3)));
    try {
      return await step();
    } finally {
      clearInterval(renew);
    }
  }

  async #runOwned<T>(
    owned: { record: string; lease: string; owner: string; running: Running },
    work: (call: KeyedCall) => Promise<T>,
    options: KeyedRunOptions<T>,
  ): Promise<IdempotentOutcome<T>> {
    const { record, lease, owner, running } = owned;
    const call: KeyedCall = {
      sending: async (edit: SentEdit) => {
        const updated: Running = {
          ...running,
          sent: {
            pad: edit.pad,
            user: String(edit.userId),
            rev: edit.revision,
            ...edit.lineage !== undefined && { lin: edit.lineage },
          },
        };
        const held = await this.#command(
          RUN_WHAT,
          (redis) =>
            redis.eval(UPDATE, {
              keys: [record, lease],
              arguments: [owner, JSON.stringify(updated)],
            }),
        );
        if (held !== 1) {
          throw new Error(
            "Cannot send the edit as this call's claim on its idempotency_key lapsed (another replica may be running it): nothing was changed; repeat the call to get that call's result",
          );
        }
      },
    };
    let value: T;
    try {
      value = await this.#holding(owned, () => work(call));
    } catch (error) {
      await this.#finish(
        owned,
        options.keep({ error })
          ? { s: "failed", f: running.f, m: (error as Error).message }
          : undefined,
      );
      throw error;
    }
    await this.#finish(
      owned,
      options.keep({ value })
        ? { s: "done", f: running.f, v: value }
        : undefined,
    );
    return { value, replayed: false };
  }

  /** Store the outcome (or forget the key) and give up the lease. */
  async #finish(
    owned: { record: string; lease: string; owner: string },
    outcome: Record | undefined,
  ): Promise<void> {
    try {
      await this.#command(RUN_WHAT, (redis) =>
        redis.eval(FINISH, {
          keys: [owned.record, owned.lease],
          arguments: [
            owned.owner,
            outcome === undefined ? "" : JSON.stringify(outcome),
            String(RECORD_TTL_MS),
          ],
        }));
    } catch {
      // The outcome stands; a retry finds the lease lapsed and settles it
      // from the pad's history.
    }
  }
}
