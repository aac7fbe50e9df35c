-- SPDX-License-Identifier: Apache-2.0
-- After a sweep of a record bucket: scores the bucket in x by the earliest expiry still in it, or
-- takes it out of x when nothing in it expires.
-- KEYS: 1 x, 2 the record bucket (d hash).  ARGV: 1 the bucket's number, 2 the collection's
-- retention in milliseconds.
-- A record's expiry (DocRecord): by its header (byte 17, bands + 65 * kind), never (kind 0), its
-- timestamp (bytes 9-16, big-endian milliseconds) plus the retention (kind 1), or bytes 18-25.
local retention = tonumber(ARGV[2])
local function long(rec, from)
  local v = 0
  for j = from, from + 7 do
    v = v * 256 + string.byte(rec, j)
  end
  return v
end
local best = nil
local all = redis.call('HVALS', KEYS[2])
for _, rec in ipairs(all) do
  local kind = math.floor(string.byte(rec, 17) / 65)
  local e = nil
  if kind == 1 and string.byte(rec, 9) < 128 then
    e = long(rec, 9) + retention
  elseif kind == 2 and string.byte(rec, 18) < 128 then
    e = long(rec, 18)
  end
  if e ~= nil and (best == nil or e < best) then
    best = e
  end
end
if best == nil then
  redis.call('ZREM', KEYS[1], ARGV[1])
else
  redis.call('ZADD', KEYS[1], string.format('%.0f', best), ARGV[1])
end
return 1
