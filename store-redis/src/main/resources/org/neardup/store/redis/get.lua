-- SPDX-License-Identifier: Apache-2.0
-- A stored document by id, read in one step.
-- KEYS: 1 meta, 2 the id's bucket of i, 3 p, 4 r.  ARGV: 1 id, 2 key base.
-- Returns {record, ordinal, root, root id}, {} when the id is not stored, or {-1} when the
-- collection was dropped.
if redis.call('EXISTS', KEYS[1]) == 0 then
  return {-1}
end
local o = redis.call('HGET', KEYS[2], ARGV[1])
if not o then
  return {}
end
local n = tonumber(o)
local rec = redis.call('HGET', ARGV[2] .. 'd' .. math.floor(n / 128), tostring(n % 128))
local root = redis.call('HGET', KEYS[3], o)
if root then
  return {rec, o, root, redis.call('HGET', KEYS[4], root) or ''}
end
return {rec, o, o, ARGV[1]}
