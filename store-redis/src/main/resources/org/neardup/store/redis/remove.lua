-- SPDX-License-Identifier: Apache-2.0
-- Removes a stored document and every key entry that names it; a cluster left with no stored
-- member is forgotten too, so nothing is left behind.
-- KEYS: 1 meta, 2 d, 3 s, 4 p, 5 r, 6 i, 7 x, 8 st, 9 the member set of its root,
--       then nb block keys and nk band keys.
-- ARGV: 1 id, 2 ordinal, 3 root, 4 nb, 5 nk, 6 counter ('deleted' or 'expired').
-- Returns 1 when removed, 0 when the id no longer names that document, -1 when the root moved
-- (read again and retry), -2 when the collection was dropped.
if redis.call('EXISTS', KEYS[1]) == 0 then
  return -2
end
local o = ARGV[2]
if redis.call('HGET', KEYS[6], ARGV[1]) ~= o then
  return 0
end
if (redis.call('HGET', KEYS[4], o) or o) ~= ARGV[3] then
  return -1
end
local nb = tonumber(ARGV[4])
local nk = tonumber(ARGV[5])
redis.call('HDEL', KEYS[2], o)
redis.call('HDEL', KEYS[3], o)
redis.call('HDEL', KEYS[4], o)
redis.call('HDEL', KEYS[6], ARGV[1])
redis.call('ZREM', KEYS[7], o)
for i = 1, nb + nk do
  redis.call('SREM', KEYS[9 + i], o)
end
if redis.call('SREM', KEYS[9], o) == 1 and redis.call('SCARD', KEYS[9]) == 0 then
  -- The last stored member of a cluster: forget the cluster (the set is gone with its last member).
  redis.call('HDEL', KEYS[5], ARGV[3])
end
redis.call('HINCRBY', KEYS[8], ARGV[6], 1)
return 1
