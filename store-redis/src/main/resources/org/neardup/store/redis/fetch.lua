-- SPDX-License-Identifier: Apache-2.0
-- What the decision needs of the candidates a probe found: record, cluster root, root id and
-- sketch of each, read in one step.
-- KEYS: 1 meta, 2 p (ordinal -> root), 3 r (root -> id).
-- ARGV: 1 key base, 2 '1' to return sketches, then the candidates' ordinals.
-- Returns {-1} when the collection was dropped, else per candidate: record (false when removed
-- since the probe), root, root id, sketch.
if redis.call('EXISTS', KEYS[1]) == 0 then
  return {-1}
end
local base = ARGV[1]
local sketches = ARGV[2] == '1'
local out = {}
for i = 3, #ARGV do
  local m = ARGV[i]
  local o = tonumber(m)
  local b = tostring(math.floor(o / 128))
  local f = tostring(o % 128)
  local rec = redis.call('HGET', base .. 'd' .. b, f)
  local root = m
  local rootId = ''
  if rec then
    local r = redis.call('HGET', KEYS[2], m)
    if r then
      root = r
      rootId = redis.call('HGET', KEYS[3], r) or ''
    else
      -- The id follows the header (byte 17: bands + 65 * expiry kind), an explicit expiry (kind
      -- 2) and the band keys (DocRecord).
      local h = string.byte(rec, 17)
      rootId = string.sub(rec, 18 + (h >= 130 and 8 or 0) + 8 * (h % 65))
    end
  end
  out[#out + 1] = rec or false
  out[#out + 1] = root
  out[#out + 1] = rootId
  if sketches and rec then
    out[#out + 1] = redis.call('HGET', base .. 's' .. b, f) or ''
  else
    out[#out + 1] = ''
  end
end
return out
