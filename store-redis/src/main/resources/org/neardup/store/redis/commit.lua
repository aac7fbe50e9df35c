-- SPDX-License-Identifier: Apache-2.0
-- Stores a decided document, unless the decision is stale: the conflict check of a check-and-insert
-- across service nodes. The decision was made from a probe that saw ordinals up to ARGV[1]; it
-- still holds when no document above that ordinal is a candidate under the query's keys (within k
-- bits under a block key, any under a band key), every match is still stored, and every match's
-- cluster root is the one the probe saw. Then the document gets the next ordinal and joins the
-- clusters of its matches, whose earliest root represents the union. Redis runs a script alone, so
-- the check and the insert are one step.
-- KEYS: 1 meta, 2 seq, 3 d, 4 s, 5 p, 6 r, 7 i (id -> ordinal), 8 x (expiry), 9 st (stats),
--       then nb block keys, nk band keys, then one member set per distinct root (ARGV order).
-- ARGV: 1 seen, 2 id, 3 record, 4 sketch ('' for none), 5 expiresAt ('' for never), 6 k,
--       7 nb, 8 nk, 9 number of matches n, 10 number of distinct roots nr,
--       then n pairs (ordinal, root), then nr distinct roots (ascending).
--       An optional last key is a batch marker: a commit pipelined after one that answered retry
--       answers retry too, so the documents of a batch are stored in batch order.
-- Returns {'stored', ordinal}, {'exists', record, root id}, {'retry'}, or {'dropped'}.
if redis.call('EXISTS', KEYS[1]) == 0 then
  return {'dropped'}
end
local marker = nil
if #KEYS > 9 + tonumber(ARGV[7]) + tonumber(ARGV[8]) + tonumber(ARGV[10]) then
  marker = KEYS[#KEYS]
  if redis.call('EXISTS', marker) == 1 then
    return {'retry'}
  end
end
local function retry()
  if marker then
    redis.call('SET', marker, '1', 'PX', 60000)
  end
  return {'retry'}
end
local id = ARGV[2]
local existing = redis.call('HGET', KEYS[7], id)
if existing then
  local rec = redis.call('HGET', KEYS[3], existing)
  local root = redis.call('HGET', KEYS[5], existing)
  local rootId = id
  if root then
    rootId = redis.call('HGET', KEYS[6], root) or ''
  end
  return {'exists', rec, rootId}
end
local seen = tonumber(ARGV[1])
local k = tonumber(ARGV[6])
local nb = tonumber(ARGV[7])
local nk = tonumber(ARGV[8])
local n = tonumber(ARGV[9])
local nr = tonumber(ARGV[10])
local seq = tonumber(redis.call('GET', KEYS[2]) or '0')
if seq > seen then
  local pop = {[0] = 0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4}
  local q = {string.byte(ARGV[3], 1, 8)}
  for i = 1, nb do
    for _, m in ipairs(redis.call('SMEMBERS', KEYS[9 + i])) do
      if tonumber(m) > seen then
        local rec = redis.call('HGET', KEYS[3], m)
        if rec then
          local d = 0
          for j = 1, 8 do
            local x = bit.bxor(q[j], string.byte(rec, j))
            d = d + pop[bit.band(x, 15)] + pop[bit.rshift(x, 4)]
          end
          if d <= k then
            return retry()
          end
        end
      end
    end
  end
  for i = 1, nk do
    for _, m in ipairs(redis.call('SMEMBERS', KEYS[9 + nb + i])) do
      if tonumber(m) > seen then
        return retry()
      end
    end
  end
end
for j = 1, n do
  local m = ARGV[10 + 2 * j - 1]
  if redis.call('HEXISTS', KEYS[3], m) == 0 then
    return retry()
  end
  local root = redis.call('HGET', KEYS[5], m) or m
  if root ~= ARGV[10 + 2 * j] then
    return retry()
  end
end
local o = redis.call('INCR', KEYS[2])
redis.call('HSET', KEYS[3], o, ARGV[3])
if ARGV[4] ~= '' then
  redis.call('HSET', KEYS[4], o, ARGV[4])
end
redis.call('HSET', KEYS[7], id, o)
for i = 1, nb + nk do
  redis.call('SADD', KEYS[9 + i], o)
end
if ARGV[5] ~= '' then
  redis.call('ZADD', KEYS[8], ARGV[5], o)
end
redis.call('HINCRBY', KEYS[9], 'inserted', 1)
if nr > 0 then
  redis.call('HINCRBY', KEYS[9], 'duplicates', 1)
  local base = 10 + 2 * n
  local first = ARGV[base + 1]
  local firstSet = KEYS[9 + nb + nk + 1]
  if redis.call('EXISTS', firstSet) == 0 then
    -- A live single document becomes a cluster of several: file it and keep its id.
    local rec = redis.call('HGET', KEYS[3], first)
    redis.call('SADD', firstSet, first)
    redis.call('HSET', KEYS[6], first, string.sub(rec, 26 + 8 * string.byte(rec, 25)))
  end
  for j = 2, nr do
    local r = ARGV[base + j]
    local set = KEYS[9 + nb + nk + j]
    local members = redis.call('SMEMBERS', set)
    if #members == 0 then
      members = {r}
    end
    for _, m in ipairs(members) do
      redis.call('SADD', firstSet, m)
      redis.call('HSET', KEYS[5], m, first)
    end
    redis.call('DEL', set)
    redis.call('HDEL', KEYS[6], r)
  end
  redis.call('SADD', firstSet, o)
  redis.call('HSET', KEYS[5], o, first)
end
return {'stored', o}
