// Author records in Redis: which identity each replica's pad connection
// is, one hash per pad (user id to identity name), kept a day after the
// last write, with what this replica learnt cached in memory.

import type { createClient } from "redis";
import type { UserId } from "../rustpad/protocol.ts";
import { type AuthorLedger, AuthorsInMemory } from "./state_store.ts";

/** The prefix of every key the server writes. */
export const PREFIX = "rustpad-mcp:";
/** Author records live this long after the last write to them. */
const AUTHORS_TTL_MS = 24 * 60 * 60 * 1000;

/** The Redis client. */
export type Client = ReturnType<typeof createClient>;

/** Run one command, failing with StateUnreachableError after the timeout. */
export type Command = <T>(
  what: string,
  run: (client: Client) => Promise<T>,
) => Promise<T>;

/** SHA-256 as hex: keys of fixed length whatever a pad id or key holds. */
export async function sha256(text: string): Promise<string> {
  const digest = await crypto.subtle.digest(
    "SHA-256",
    new TextEncoder().encode(text),
  );
  return Array.from(
    new Uint8Array(digest),
    (byte) => byte.toString(16).padStart(2, "0"),
  ).join("");
}

/** Author records shared by the replicas. */
export class RedisAuthors implements AuthorLedger {
  readonly #command: Command;
  readonly #rustpadUrl: string;
  readonly #known = new AuthorsInMemory();

  constructor(command: Command, rustpadUrl: string) {
    this.#command = command;
    this.#rustpadUrl = rustpadUrl;
  }

  async #key(pad: string): Promise<string> {
    return `${PREFIX}authors:${await sha256(`${this.#rustpadUrl}\0${pad}`)}`;
  }

  record(pad: string, userId: UserId, identity: string): void {
    this.#known.record(pad, userId, identity);
    void this.#key(pad).then((key) =>
      this.#command("record an author", (redis) =>
        redis.multi()
          .hSet(key, String(userId), identity)
          .pExpire(key, AUTHORS_TTL_MS)
          .exec())
    ).catch(() => {
      // Best effort: other replicas then name the connection as announced.
    });
  }

  async learn(pad: string, userIds: readonly UserId[]): Promise<void> {
    const unknown = [...new Set(userIds)].filter((id) =>
      this.#known.identityOf(pad, id) === undefined
    );
    if (unknown.length === 0) return;
    try {
      const key = await this.#key(pad);
      const found = await this.#command(
        "read authors",
        (redis) => redis.hmGet(key, unknown.map(String)),
      );
      unknown.forEach((id, index) => {
        const identity = found[index];
        if (typeof identity === "string") {
          this.#known.record(pad, id, identity);
        }
      });
    } catch {
      // Best effort: unknown ones keep the name they announced.
    }
  }

  identityOf(pad: string, userId: UserId): string | undefined {
    return this.#known.identityOf(pad, userId);
  }
}
