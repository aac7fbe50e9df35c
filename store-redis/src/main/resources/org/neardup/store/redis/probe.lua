-- SPDX-License-Identifier: Apache-2.0
-- The candidates of a query, read in one atomic step: the documents with an ordinal above ARGV[5]
-- found under the query's block keys within ARGV[2] bits, and those under its band keys.
-- KEYS: 1 meta, 2 seq, 3 d (ordinal -> record), 4 s (ordinal -> sketch), 5 p (ordinal -> root),
--       6 r (root -> id), then ARGV[3] block keys, then ARGV[4] band keys.
-- ARGV: 1 fingerprint (8 bytes, big-endian), 2 k, 3 block key count, 4 band key count,
--       5 ordinal above which to look (0: all), 6 '1' to return sketches.
-- A record is: fingerprint (8) timestamp (8) expiresAt (8) band count (1) band keys (8 each) id.
-- Returns {seq, then per candidate: ordinal, viaBand, record, root, root id, sketch} or {-1} when
-- the collection was dropped.
if redis.call('EXISTS', KEYS[1]) == 0 then
  return {-1}
end
local seq = tonumber(redis.call('GET', KEYS[2]) or '0')
local k = tonumber(ARGV[2])
local nb = tonumber(ARGV[3])
local nk = tonumber(ARGV[4])
local after = tonumber(ARGV[5])
local sketches = ARGV[6] == '1'
local pop = {[0] = 0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4}
local q = {string.byte(ARGV[1], 1, 8)}
local function distance(rec)
  local d = 0
  for i = 1, 8 do
    local x = bit.bxor(q[i], string.byte(rec, i))
    d = d + pop[bit.band(x, 15)] + pop[bit.rshift(x, 4)]
  end
  return d
end
local function idOf(rec)
  return string.sub(rec, 26 + 8 * string.byte(rec, 25))
end
local out = {seq}
local seen = {}
local function emit(m, viaBand, rec)
  local root = redis.call('HGET', KEYS[5], m)
  local rootId
  if root then
    rootId = redis.call('HGET', KEYS[6], root) or ''
  else
    root = m
    rootId = idOf(rec)
  end
  out[#out + 1] = m
  out[#out + 1] = viaBand
  out[#out + 1] = rec
  out[#out + 1] = root
  out[#out + 1] = rootId
  if sketches then
    out[#out + 1] = redis.call('HGET', KEYS[4], m) or ''
  else
    out[#out + 1] = ''
  end
end
for i = 1, nb do
  for _, m in ipairs(redis.call('SMEMBERS', KEYS[6 + i])) do
    if seen[m] == nil and tonumber(m) > after then
      local rec = redis.call('HGET', KEYS[3], m)
      if rec and distance(rec) <= k then
        seen[m] = true
        emit(m, 0, rec)
      else
        seen[m] = false
      end
    end
  end
end
for i = 1, nk do
  for _, m in ipairs(redis.call('SMEMBERS', KEYS[6 + nb + i])) do
    if seen[m] ~= true and tonumber(m) > after then
      seen[m] = true
      local rec = redis.call('HGET', KEYS[3], m)
      if rec then
        emit(m, 1, rec)
      end
    end
  end
end
return out
