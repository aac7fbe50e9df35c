-- SPDX-License-Identifier: Apache-2.0
-- Removes a stored document and every key entry that names it; a cluster left with no stored
-- member is forgotten too, so nothing is left behind.
-- KEYS: 1 meta, 2 p, 3 r, 4 the id's bucket of i, 5 st, 6 the member set of its root,
--       then nb block keys and nk distinct band buckets.
-- ARGV: 1 id, 2 ordinal, 3 root, 4 nb, 5 nk, 6 counter ('deleted' or 'expired'), 7 key base,
--       8 entry width of the block keys (5-byte ordinal + rest), 9 entry width of the band buckets.
-- Returns 1 when removed, 0 when the id no longer names that document, -1 when the root moved
-- (read again and retry), -2 when the collection was dropped.
if redis.call('EXISTS', KEYS[1]) == 0 then
  return -2
end
local o = ARGV[2]
if redis.call('HGET', KEYS[4], ARGV[1]) ~= o then
  return 0
end
if (redis.call('HGET', KEYS[2], o) or o) ~= ARGV[3] then
  return -1
end
local nb = tonumber(ARGV[4])
local nk = tonumber(ARGV[5])
local base = ARGV[7]
local ew = tonumber(ARGV[8])
local n = tonumber(o)
local b = tostring(math.floor(n / 128))
local f = tostring(n % 128)
redis.call('HDEL', base .. 'd' .. b, f)
redis.call('HDEL', base .. 's' .. b, f)
redis.call('HDEL', KEYS[2], o)
redis.call('HDEL', KEYS[4], ARGV[1])
local ob = string.char(math.floor(n / 4294967296) % 256, math.floor(n / 16777216) % 256,
  math.floor(n / 65536) % 256, math.floor(n / 256) % 256, n % 256)
for i = 1, nb do
  local key = KEYS[6 + i]
  local s = redis.call('GET', key)
  if s then
    local at = 1
    while at <= #s do
      if string.sub(s, at, at + 4) == ob then
        if #s == ew then
          redis.call('DEL', key)
        else
          redis.call('SET', key, string.sub(s, 1, at - 1) .. string.sub(s, at + ew))
        end
        break
      end
      at = at + ew
    end
  end
end
-- A band bucket may hold several entries of the document (keys with the bucket's top bits), next
-- to each other (one commit appended them together): all go.
local bw = tonumber(ARGV[9])
for i = 1, nk do
  local key = KEYS[6 + nb + i]
  local s = redis.call('GET', key)
  if s then
    local at = 1
    while at <= #s and string.sub(s, at, at + 4) ~= ob do
      at = at + bw
    end
    if at <= #s then
      local to = at
      while to <= #s and string.sub(s, to, to + 4) == ob do
        to = to + bw
      end
      if at == 1 and to > #s then
        redis.call('DEL', key)
      else
        redis.call('SET', key, string.sub(s, 1, at - 1) .. string.sub(s, to))
      end
    end
  end
end
if redis.call('SREM', KEYS[6], o) == 1 and redis.call('SCARD', KEYS[6]) == 0 then
  -- The last stored member of a cluster: forget the cluster (the set is gone with its last member).
  redis.call('HDEL', KEYS[3], ARGV[3])
end
redis.call('HINCRBY', KEYS[5], ARGV[6], 1)
redis.call('HINCRBY', KEYS[5], 'documents', -1)
-- Every removal is counted: a commit whose probe saw the same count knows its keys only grew since
-- (commit.lua, "Why append first").
redis.call('HINCRBY', KEYS[5], 'removals', 1)
return 1
