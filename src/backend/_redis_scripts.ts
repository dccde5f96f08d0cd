// The Lua scripts of the Redis state store: each runs atomically in Redis,
// so two replicas racing on one idempotency key see one winner. KEYS[1] is
// the key's record (JSON, see _redis_state.ts), KEYS[2] its lease: held by
// the replica running the call (ARGV owner), renewed while it runs, and
// gone once that replica stops renewing it (it died or lost Redis).

/**
 * Claim a key: absent, it is ours (record and lease set); running with a
 * lapsed lease, it is ours to settle (`takeover`, with the record); else the
 * record as it is (`known`), or `reused` for another fingerprint.
 * ARGV: running record, owner, record TTL, lease TTL, fingerprint.
 */
export const CLAIM = `
local found = redis.call('GET', KEYS[1])
if not found then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[3])
  redis.call('SET', KEYS[2], ARGV[2], 'PX', ARGV[4])
  return {'claimed'}
end
local record = cjson.decode(found)
if record.f ~= ARGV[5] then return {'reused'} end
if record.s == 'running' and redis.call('EXISTS', KEYS[2]) == 0 then
  redis.call('SET', KEYS[2], ARGV[2], 'PX', ARGV[4])
  redis.call('PEXPIRE', KEYS[1], ARGV[3])
  return {'takeover', found}
end
return {'known', found}
`;

/** Renew the lease if it is still ours. ARGV: owner, lease TTL. */
export const RENEW = `
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 1
`;

/** Replace the running record, keeping its TTL, if the lease is ours. ARGV: owner, record. */
export const UPDATE = `
if redis.call('GET', KEYS[2]) ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], ARGV[2], 'KEEPTTL')
return 1
`;

/**
 * End the call, if the lease is ours: store its outcome (or, with an empty
 * outcome, forget the key) and drop the lease. ARGV: owner, outcome, TTL.
 */
export const FINISH = `
if redis.call('GET', KEYS[2]) ~= ARGV[1] then return 0 end
if ARGV[2] == '' then
  redis.call('DEL', KEYS[1])
else
  redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3])
end
redis.call('DEL', KEYS[2])
return 1
`;
