// Suggestions in Redis, for replicas: one hash per pad (id to record), a
// set per pad and one for the store of the pending ones, for the bounds.
// Adding and swapping are Lua scripts, so two replicas deciding one
// suggestion at once see one winner. Kept a day after the last write.

import type { Command } from "./_redis_authors.ts";
import { PREFIX, sha256 } from "./_redis_authors.ts";
import type {
  AddOutcome,
  SuggestionLimits,
  SuggestionStore,
} from "./suggestion_store.ts";

const TTL_MS = 24 * 60 * 60 * 1000;

/**
 * KEYS: records, the pad's pending set, the store's pending set.
 * ARGV: id, record, per-pad bound, total bound, TTL, store member.
 */
const ADD = `
if redis.call('SCARD', KEYS[3]) >= tonumber(ARGV[4]) then return 'full' end
if redis.call('SCARD', KEYS[2]) >= tonumber(ARGV[3]) then return 'pad-full' end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
redis.call('SADD', KEYS[2], ARGV[1])
redis.call('SADD', KEYS[3], ARGV[6])
for i = 1, 2 do redis.call('PEXPIRE', KEYS[i], ARGV[5]) end
return 'added'
`;

/**
 * KEYS as ADD. ARGV: id, expected, next, '1' if next is pending, store
 * member.
 */
const SWAP = `
if redis.call('HGET', KEYS[1], ARGV[1]) ~= ARGV[2] then return 0 end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[3])
if ARGV[4] ~= '1' then
  redis.call('SREM', KEYS[2], ARGV[1])
  redis.call('SREM', KEYS[3], ARGV[5])
end
return 1
`;

const WHAT = "keep suggestions";

/** Suggestions shared by the replicas of one Rustpad server. */
export class RedisSuggestions implements SuggestionStore {
  readonly #command: Command;
  readonly #rustpadUrl: string;

  constructor(command: Command, rustpadUrl: string) {
    this.#command = command;
    this.#rustpadUrl = rustpadUrl;
  }

  /** The pad's records, its pending set, the store's, and id's member. */
  async #keys(
    pad: string,
    id: string,
  ): Promise<{ records: string; keys: string[]; member: string }> {
    const hash = await sha256(`${this.#rustpadUrl}\0${pad}`);
    const records = `${PREFIX}suggestions:${hash}`;
    return {
      records,
      keys: [records, `${records}:pending`, `${PREFIX}suggestions:pending`],
      member: `${hash}:${id}`,
    };
  }

  async all(pad: string): Promise<Map<string, string>> {
    const { records } = await this.#keys(pad, "");
    const found = await this.#command(WHAT, (redis) => redis.hGetAll(records));
    return new Map(Object.entries(found));
  }

  async get(pad: string, id: string): Promise<string | undefined> {
    const { records } = await this.#keys(pad, id);
    const found = await this.#command(WHAT, (redis) => redis.hGet(records, id));
    return found ?? undefined;
  }

  async add(
    pad: string,
    id: string,
    record: string,
    limits: SuggestionLimits,
  ): Promise<AddOutcome> {
    const { keys, member } = await this.#keys(pad, id);
    return await this.#command(WHAT, (redis) =>
      redis.eval(ADD, {
        keys,
        arguments: [
          id,
          record,
          String(limits.perPad),
          String(limits.total),
          String(TTL_MS),
          member,
        ],
      })) as AddOutcome;
  }

  async swap(
    pad: string,
    id: string,
    expected: string,
    next: string,
    pending: boolean,
  ): Promise<boolean> {
    const { keys, member } = await this.#keys(pad, id);
    return await this.#command(WHAT, (redis) =>
      redis.eval(SWAP, {
        keys,
        arguments: [id, expected, next, pending ? "1" : "0", member],
      })) === 1;
  }

  async remove(pad: string, id: string): Promise<void> {
    const { keys, member } = await this.#keys(pad, id);
    await this.#command(WHAT, (redis) =>
      redis.multi()
        .hDel(keys[0]!, id)
        .sRem(keys[1]!, id)
        .sRem(keys[2]!, member)
        .exec());
  }
}
