// Suggestions in Redis, for replicas: one hash per pad (id to record), a
// set per pad and one for the store of the pending ones, for the bounds,
// and the pending ones' identities (per pad: id to identity, and counts by
// identity per pad and in the store), for the fair shares. Adding,
// swapping and removing are Lua scripts, so two replicas deciding one
// suggestion at once see one winner. Kept a day after the last write.

import type { Command } from "./_redis_authors.ts";
import { PREFIX, sha256 } from "./_redis_authors.ts";
import type {
  AddOutcome,
  SuggestionLimits,
  SuggestionOwner,
  SuggestionStore,
} from "./suggestion_store.ts";

const TTL_MS = 24 * 60 * 60 * 1000;

/** Forget that pending id ARGV[1] is pending: its sets and counts. */
const UNPEND = `
local function unpend(id, member)
  if redis.call('SREM', KEYS[2], id) == 0 then return end
  redis.call('SREM', KEYS[3], member)
  local who = redis.call('HGET', KEYS[4], id)
  redis.call('HDEL', KEYS[4], id)
  if not who then return end
  for _, key in ipairs({KEYS[5], KEYS[6]}) do
    if redis.call('HINCRBY', key, who, -1) <= 0 then redis.call('HDEL', key, who) end
  end
end
`;

/**
 * KEYS: records, the pad's pending set, the store's pending set, the pad's
 * owners (id to identity), the pad's counts by identity, the store's.
 * ARGV: id, record, per-pad bound, total bound, TTL, store member,
 * identity, configured identities. Returns 'added', 'full', 'pad-full' or
 * 'share:pad|total:SHARE:IDENTITIES'.
 */
const ADD = `
if redis.call('SCARD', KEYS[3]) >= tonumber(ARGV[4]) then return 'full' end
if redis.call('SCARD', KEYS[2]) >= tonumber(ARGV[3]) then return 'pad-full' end
local who = ARGV[7]
local active = redis.call('HLEN', KEYS[6])
if redis.call('HEXISTS', KEYS[6], who) == 0 then active = active + 1 end
local identities = math.max(tonumber(ARGV[8]), active)
local padShare = math.max(1, math.floor(tonumber(ARGV[3]) / identities))
if tonumber(redis.call('HGET', KEYS[5], who) or '0') >= padShare then
  return 'share:pad:' .. padShare .. ':' .. identities
end
local totalShare = math.max(1, math.floor(tonumber(ARGV[4]) / identities))
if tonumber(redis.call('HGET', KEYS[6], who) or '0') >= totalShare then
  return 'share:total:' .. totalShare .. ':' .. identities
end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
redis.call('SADD', KEYS[2], ARGV[1])
redis.call('SADD', KEYS[3], ARGV[6])
redis.call('HSET', KEYS[4], ARGV[1], who)
redis.call('HINCRBY', KEYS[5], who, 1)
redis.call('HINCRBY', KEYS[6], who, 1)
for i = 1, 5 do
  if i ~= 3 then redis.call('PEXPIRE', KEYS[i], ARGV[5]) end
end
return 'added'
`;

/**
 * KEYS as ADD. ARGV: id, expected, next, '1' if next is pending, store
 * member.
 */
const SWAP = `${UNPEND}
if redis.call('HGET', KEYS[1], ARGV[1]) ~= ARGV[2] then return 0 end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[3])
if ARGV[4] ~= '1' then unpend(ARGV[1], ARGV[5]) end
return 1
`;

/** KEYS as ADD. ARGV: id, store member. */
const REMOVE = `${UNPEND}
unpend(ARGV[1], ARGV[2])
redis.call('HDEL', KEYS[1], ARGV[1])
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
      keys: [
        records,
        `${records}:pending`,
        `${PREFIX}suggestions:pending`,
        `${records}:owners`,
        `${records}:by-identity`,
        `${PREFIX}suggestions:by-identity`,
      ],
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
    owner: SuggestionOwner,
  ): Promise<AddOutcome> {
    const { keys, member } = await this.#keys(pad, id);
    const added = String(
      await this.#command(WHAT, (redis) =>
        redis.eval(ADD, {
          keys,
          arguments: [
            id,
            record,
            String(limits.perPad),
            String(limits.total),
            String(TTL_MS),
            member,
            owner.identity,
            String(owner.identities),
          ],
        })),
    );
    if (!added.startsWith("share:")) return added as AddOutcome;
    const [, share, of, identities] = added.split(":");
    return {
      share: share === "pad" ? "pad" : "total",
      of: Number(of),
      identities: Number(identities),
    };
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
    await this.#command(
      WHAT,
      (redis) => redis.eval(REMOVE, { keys, arguments: [id, member] }),
    );
  }
}
